//! Load-time inspection of a module's sections, before wasmtime compiles
//! it: no start function, no shared or 64-bit memory, and memory and table
//! declarations within the limits.

use wasmparser::{Parser, Payload};

use crate::limits::Limits;

const PAGE: u64 = 64 << 10;

/// The first reason `binary` may not run as a bot, if any. `Err` carries
/// a parse error (the bytes are not a wasm module).
pub(crate) fn refusal(binary: &[u8], limits: &Limits) -> Result<Option<String>, String> {
    for payload in Parser::new(0).parse_all(binary) {
        match payload.map_err(|e| e.to_string())? {
            Payload::StartSection { func, .. } => {
                return Ok(Some(format!(
                    "has a start function (function {func}); ABI v1 bots must not run code at instantiation"
                )));
            }
            Payload::MemorySection(reader) => {
                for memory in reader {
                    let m = memory.map_err(|e| e.to_string())?;
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
                }
            }
            _ => {}
        }
    }
    Ok(None)
}
