//! Load-time inspection of a module's sections, before wasmtime compiles
//! it: no start function, exactly one plain 32-bit memory, memory and
//! table declarations within the caps, and a module small enough to
//! compile in well under a second (size, function count, body size and
//! locals are capped, so a compile-time bomb is refused before cranelift
//! sees it).

use wasmparser::{Parser, Payload, TypeRef};

use crate::limits::Limits;

const PAGE: u64 = 64 << 10;

/// The first reason `binary` may not run as a bot, if any. `Err` carries
/// a parse error (the bytes are not a wasm module).
pub(crate) fn refusal(binary: &[u8], limits: &Limits) -> Result<Option<String>, String> {
    if binary.len() > limits.module_bytes {
        return Ok(Some(format!(
            "is {} KiB of WebAssembly; the cap is {} KiB",
            binary.len().div_ceil(1024),
            limits.module_bytes >> 10
        )));
    }
    let mut memories = 0u64;
    let mut table_elements = 0u64;
    let mut functions = 0u64;
    for payload in Parser::new(0).parse_all(binary) {
        match payload.map_err(|e| e.to_string())? {
            Payload::StartSection { func, .. } => {
                return Ok(Some(format!(
                    "has a start function (function {func}); ABI v1 bots must not run code at instantiation"
                )));
            }
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    match import.map_err(|e| e.to_string())?.ty {
                        TypeRef::Memory(_) => memories += 1,
                        TypeRef::Func(_) | TypeRef::FuncExact(_) => functions += 1,
                        _ => {}
                    }
                }
            }
            Payload::MemorySection(reader) => {
                for memory in reader {
                    let m = memory.map_err(|e| e.to_string())?;
                    memories += 1;
                    if m.memory64 || m.shared {
                        return Ok(Some("declares a 64-bit or shared memory; ABI v1 bots use one plain memory".into()));
                    }
                    let bytes = m.initial.saturating_mul(PAGE);
                    if bytes > limits.memory_bytes as u64 {
                        return Ok(Some(format!(
                            "declares {} pages ({} KiB) of initial memory; the cap is {} KiB",
                            m.initial,
                            bytes >> 10,
                            limits.memory_bytes >> 10
                        )));
                    }
                }
            }
            Payload::TableSection(reader) => {
                for table in reader {
                    let t = table.map_err(|e| e.to_string())?;
                    if t.ty.initial > limits.table_elements as u64 {
                        return Ok(Some(format!(
                            "declares a table of {} elements; the cap is {}",
                            t.ty.initial, limits.table_elements
                        )));
                    }
                    table_elements = table_elements.saturating_add(t.ty.initial);
                    if table_elements > limits.table_elements as u64 {
                        return Ok(Some(format!(
                            "declares tables of {table_elements} elements together; the cap for all tables is {}",
                            limits.table_elements
                        )));
                    }
                }
            }
            Payload::FunctionSection(reader) => {
                functions = functions.saturating_add(u64::from(reader.count()));
                if functions > limits.functions as u64 {
                    return Ok(Some(format!(
                        "has {functions} functions; the cap is {} (a module this large would take too long to compile)",
                        limits.functions
                    )));
                }
            }
            Payload::CodeSectionStart { size, .. } if size as usize > limits.code_bytes => {
                return Ok(Some(format!(
                    "has {} KiB of code; the cap is {} KiB (compiling costs about 3 ms per KiB)",
                    (size as usize).div_ceil(1024),
                    limits.code_bytes >> 10
                )));
            }
            Payload::CodeSectionEntry(body) => {
                let size = body.range().len();
                if size > limits.function_body_bytes {
                    return Ok(Some(format!(
                        "has a function body of {} KiB; the cap is {} KiB",
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
                        "has a function with {locals} locals; the cap is {}",
                        limits.locals_per_function
                    )));
                }
            }
            _ => {}
        }
        if memories > 1 {
            return Ok(Some(format!(
                "declares {memories} memories; ABI v1 bots have exactly one, so the memory cap bounds the whole bot"
            )));
        }
    }
    Ok(None)
}
