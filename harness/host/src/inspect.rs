//! Load-time inspection of a module's sections, before wasmtime compiles
//! it: no start function, exactly one plain 32-bit memory, memory and
//! table declarations within the caps, and a module small enough to
//! compile in well under a second (size, function count, body size and
//! locals are capped, so a compile-time bomb is refused before cranelift
//! sees it).

use wasmparser::{
    FunctionBody, ImportSectionReader, MemorySectionReader, Parser, Payload, TableSectionReader, TypeRef,
};

use crate::limits::{Limits, Raisable};

const PAGE: u64 = 64 << 10;

/// The first reason a module may not run as a bot, if any; `Err` carries a
/// parse error (the bytes are not a wasm module).
type Verdict = Result<Option<String>, String>;

/// What the sections seen so far declare, counted across sections.
#[derive(Default)]
struct Counts {
    memories: u64,
    table_elements: u64,
    functions: u64,
}

/// The first reason `binary` may not run as a bot, if any. `Err` carries
/// a parse error (the bytes are not a wasm module).
pub(crate) fn refusal(binary: &[u8], limits: &Limits) -> Verdict {
    if binary.len() > limits.module_bytes {
        return Ok(Some(format!(
            "is {} KiB of WebAssembly; the cap is {} KiB: {}",
            binary.len().div_ceil(1024),
            limits.module_bytes >> 10,
            Raisable::ModuleMib.how_to_raise()
        )));
    }
    let mut counts = Counts::default();
    for payload in Parser::new(0).parse_all(binary) {
        if let Some(problem) = section_refusal(payload.map_err(|e| e.to_string())?, limits, &mut counts)? {
            return Ok(Some(problem));
        }
        let memories = counts.memories;
        if memories > 1 {
            return Ok(Some(format!(
                "declares {memories} memories; Pitboss bots have exactly one, so the memory cap bounds the whole bot"
            )));
        }
    }
    Ok(None)
}

/// The first reason one section (or code section entry) refuses the
/// module, counting what it declares into `counts`.
fn section_refusal(payload: Payload<'_>, limits: &Limits, counts: &mut Counts) -> Verdict {
    match payload {
        Payload::StartSection { func, .. } => {
            Ok(Some(format!("has a start function (function {func}); Pitboss bots must not run code at instantiation")))
        }
        Payload::ImportSection(reader) => count_imports(reader, counts),
        Payload::MemorySection(reader) => memory_refusal(reader, limits, counts),
        Payload::TableSection(reader) => table_refusal(reader, limits, counts),
        Payload::FunctionSection(reader) => {
            counts.functions = counts.functions.saturating_add(u64::from(reader.count()));
            let functions = counts.functions;
            if functions > limits.functions as u64 {
                return Ok(Some(format!(
                    "has {functions} functions; the cap is {} (a module this large would take too long to compile): {}",
                    limits.functions,
                    Raisable::Functions.how_to_raise()
                )));
            }
            Ok(None)
        }
        Payload::CodeSectionStart { size, .. } if size as usize > limits.code_bytes => Ok(Some(format!(
            "has {} KiB of code; the cap is {} KiB (compiling costs about 3 ms per KiB): {}",
            (size as usize).div_ceil(1024),
            limits.code_bytes >> 10,
            Raisable::CodeKib.how_to_raise()
        ))),
        Payload::CodeSectionEntry(body) => body_refusal(&body, limits),
        _ => Ok(None),
    }
}

/// Counts imported memories and functions; no import is refused here.
fn count_imports(reader: ImportSectionReader<'_>, counts: &mut Counts) -> Verdict {
    for import in reader.into_imports() {
        match import.map_err(|e| e.to_string())?.ty {
            TypeRef::Memory(_) => counts.memories += 1,
            TypeRef::Func(_) | TypeRef::FuncExact(_) => counts.functions += 1,
            _ => {}
        }
    }
    Ok(None)
}

/// Refuses a 64-bit or shared memory, or initial memory over the cap.
fn memory_refusal(reader: MemorySectionReader<'_>, limits: &Limits, counts: &mut Counts) -> Verdict {
    for memory in reader {
        let m = memory.map_err(|e| e.to_string())?;
        counts.memories += 1;
        if m.memory64 || m.shared {
            return Ok(Some("declares a 64-bit or shared memory; Pitboss bots use one plain memory".into()));
        }
        let bytes = m.initial.saturating_mul(PAGE);
        if bytes > limits.memory_bytes as u64 {
            return Ok(Some(format!(
                "declares {} pages ({} KiB) of initial memory; the cap is {} KiB: {}",
                m.initial,
                bytes >> 10,
                limits.memory_bytes >> 10,
                Raisable::MemoryMib.how_to_raise()
            )));
        }
    }
    Ok(None)
}

/// Refuses a table, or all tables together, over the element cap.
fn table_refusal(reader: TableSectionReader<'_>, limits: &Limits, counts: &mut Counts) -> Verdict {
    for table in reader {
        let t = table.map_err(|e| e.to_string())?;
        if t.ty.initial > limits.table_elements as u64 {
            return Ok(Some(format!(
                "declares a table of {} elements; the cap is {}, the same for every bot",
                t.ty.initial, limits.table_elements
            )));
        }
        counts.table_elements = counts.table_elements.saturating_add(t.ty.initial);
        let table_elements = counts.table_elements;
        if table_elements > limits.table_elements as u64 {
            return Ok(Some(format!(
                "declares tables of {table_elements} elements together; the cap for all tables is {}, the same for every bot",
                limits.table_elements
            )));
        }
    }
    Ok(None)
}

/// Refuses a function body over the body cap or with too many locals.
fn body_refusal(body: &FunctionBody<'_>, limits: &Limits) -> Verdict {
    let size = body.range().len();
    if size > limits.function_body_bytes {
        return Ok(Some(format!(
            "has a function body of {} KiB; the cap is {} KiB, the same for every bot",
            size.div_ceil(1024),
            limits.function_body_bytes >> 10
        )));
    }
    let mut locals = 0u64;
    for group in body.get_locals_reader().map_err(|e| e.to_string())? {
        let (count, _) = group.map_err(|e| e.to_string())?;
        locals = locals.saturating_add(u64::from(count));
    }
    if locals > limits.locals_per_function as u64 {
        return Ok(Some(format!(
            "has a function with {locals} locals; the cap is {}, the same for every bot",
            limits.locals_per_function
        )));
    }
    Ok(None)
}
