//! Start-up snapshots — Wizer's pre-initialisation, done by the host at
//! load time. A module that exports `pitboss_preinit` (`() -> ()`) is
//! started once per load, with the WASI stream of seed 0: instantiated,
//! `_initialize` and then `pitboss_preinit` called under the start-up
//! fuel. The memory and every mutable global are then kept, and each
//! instance of the module — one per table, and the fresh one after a trap
//! — starts from that state instead of running its start-up again. A
//! language runtime (CPython: about 200 million fuel) then starts once per
//! load, and a restart after an exception costs a copy of the pages the
//! bot wrote since it was given the snapshot (the kernel tracks them,
//! module `written`; where it cannot, of the chunks that differ from it).
//!
//! wasmtime can read and set only exported globals, so the module is
//! compiled with each of its mutable globals exported under a reserved
//! name ([`prepare`]); a bot cannot see its exports, so it behaves the
//! same. What a snapshot cannot hold refuses the module: a table or a
//! data segment changed at run time (`table.set`, `table.grow`,
//! `table.fill`, `table.copy`, `table.init`, `elem.drop`, `memory.init`,
//! `data.drop`), or a mutable global that is not a number.

use std::sync::Arc;

use wasmparser::{ExternalKind, Operator, Parser, Payload, TypeRef, ValType};
use wasmtime::{Instance, Memory, Store, Val};

use crate::botlog::BotLog;
use crate::store::StoreState;
use crate::written::Tracker;

/// The optional export run once, after `_initialize`, whose end state
/// every instance starts from.
pub(crate) const PREINIT: &str = "pitboss_preinit";

/// Names under which the mutable globals are exported: the prefix and the
/// global's index.
const GLOBAL_PREFIX: &str = "pitboss_snapshot_global_";

/// Granularity of the comparison of a snapshot with a fresh instance's
/// memory: only the chunks that differ are kept and copied.
const CHUNK: usize = 4096;

/// A module that exports `pitboss_preinit`, ready to compile: its binary
/// with the mutable globals exported, and their export names.
pub(crate) struct Prepared {
    pub(crate) binary: Vec<u8>,
    pub(crate) globals: Vec<String>,
}

/// `Ok(None)` for a module without `pitboss_preinit`; else the module to
/// compile, or why a snapshot of it would not be faithful.
pub(crate) fn prepare(binary: &[u8]) -> Result<Option<Prepared>, String> {
    let mut imported_globals = 0u32;
    let mut mutable = Vec::new();
    let mut preinit = false;
    for payload in Parser::new(0).parse_all(binary) {
        match payload.map_err(|e| e.to_string())? {
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    if let TypeRef::Global(_) = import.map_err(|e| e.to_string())?.ty {
                        imported_globals += 1;
                    }
                }
            }
            Payload::GlobalSection(reader) => {
                for (i, global) in reader.into_iter().enumerate() {
                    let ty = global.map_err(|e| e.to_string())?.ty;
                    if !ty.mutable {
                        continue;
                    }
                    if !matches!(ty.content_type, ValType::I32 | ValType::I64 | ValType::F32 | ValType::F64) {
                        return Err(format!(
                            "exports `{PREINIT}` but has a mutable {} global, which a start-up snapshot cannot hold",
                            ty.content_type
                        ));
                    }
                    mutable.push(imported_globals + i as u32);
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    let export = export.map_err(|e| e.to_string())?;
                    preinit |= export.name == PREINIT && export.kind == ExternalKind::Func;
                    if export.name.starts_with(GLOBAL_PREFIX) {
                        return Err(format!("exports `{}`, a name Pitboss keeps for itself", export.name));
                    }
                }
                if !preinit {
                    return Ok(None);
                }
            }
            Payload::CodeSectionEntry(body) if preinit => {
                let mut ops = body.get_operators_reader().map_err(|e| e.to_string())?;
                while !ops.eof() {
                    if let Some(op) = unsnapshotable(&ops.read().map_err(|e| e.to_string())?) {
                        return Err(format!(
                            "exports `{PREINIT}` but uses `{op}`, which changes what a start-up snapshot cannot hold; drop `{PREINIT}`"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    if !preinit {
        return Ok(None);
    }
    let globals: Vec<String> = mutable.iter().map(|i| format!("{GLOBAL_PREFIX}{i}")).collect();
    let binary = with_exports(binary, &mutable, &globals).ok_or("a section's size is cut short")?;
    Ok(Some(Prepared { binary, globals }))
}

/// The instruction, if `op` changes a table or a segment's state.
fn unsnapshotable(op: &Operator<'_>) -> Option<&'static str> {
    Some(match op {
        Operator::TableSet { .. } => "table.set",
        Operator::TableGrow { .. } => "table.grow",
        Operator::TableFill { .. } => "table.fill",
        Operator::TableCopy { .. } => "table.copy",
        Operator::TableInit { .. } => "table.init",
        Operator::ElemDrop { .. } => "elem.drop",
        Operator::MemoryInit { .. } => "memory.init",
        Operator::DataDrop { .. } => "data.drop",
        _ => return None,
    })
}

/// `binary` with an export of each global in `indices` under its name in
/// `names`, added to its export section (the section is parsed already).
fn with_exports(binary: &[u8], indices: &[u32], names: &[String]) -> Option<Vec<u8>> {
    let mut out = binary.get(..8)?.to_vec();
    let mut at = 8;
    while at < binary.len() {
        let id = binary[at];
        let (size, len) = leb(binary.get(at + 1..)?)?;
        let body = binary.get(at + 1 + len..at + 1 + len + size as usize)?;
        at += 1 + len + size as usize;
        if id != 7 {
            out.push(id);
            put_leb(&mut out, size);
            out.extend_from_slice(body);
            continue;
        }
        let (count, skip) = leb(body)?;
        let mut section = Vec::with_capacity(body.len() + 32 * names.len());
        put_leb(&mut section, count + names.len() as u32);
        section.extend_from_slice(&body[skip..]);
        for (index, name) in indices.iter().zip(names) {
            put_leb(&mut section, name.len() as u32);
            section.extend_from_slice(name.as_bytes());
            section.push(3); // a global
            put_leb(&mut section, *index);
        }
        out.push(7);
        put_leb(&mut out, section.len() as u32);
        out.extend_from_slice(&section);
    }
    Some(out)
}

/// An unsigned LEB128 number of at most 32 bits and its length in bytes.
fn leb(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut value = 0u64;
    for (i, byte) in bytes.iter().take(5).enumerate() {
        value |= u64::from(byte & 0x7F) << (7 * i);
        if byte & 0x80 == 0 {
            return u32::try_from(value).ok().map(|v| (v, i + 1));
        }
    }
    None
}

fn put_leb(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7F) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The state of a started instance that a fresh one is given: the memory
/// chunks that differ from a fresh instance's, its size, and the globals.
///
/// Memory is kept in [`CHUNK`]-sized pieces behind `Arc`s, so snapshots
/// taken from one another share what they have in common: every Python
/// bot from source starts from the runtime's own snapshot (module
/// `runtime`) and keeps only the chunks its source changed.
#[derive(Debug)]
pub(crate) struct Snapshot {
    /// Fuel the start-up used.
    pub(crate) fuel: u64,
    memory_bytes: usize,
    /// The whole memory, chunk by chunk, for resetting an instance in place.
    image: Vec<Arc<[u8]>>,
    chunks: Vec<(usize, Arc<[u8]>)>,
    globals: Vec<(String, Val)>,
    /// What the start-up wrote: each instance's first decision shows it,
    /// as if that instance had started itself.
    log: BotLog,
}

impl Snapshot {
    /// Keeps what `started` holds that `fresh` (an instance just made, with
    /// nothing called) does not; its start-up used `fuel`. Chunks equal to
    /// those of `base` (a snapshot `started` was given) are shared with it.
    pub(crate) fn take(
        started: (&mut Store<StoreState>, &Instance),
        fresh: (&mut Store<StoreState>, &Instance),
        globals: &[String],
        fuel: u64,
        base: Option<&Snapshot>,
    ) -> Result<Snapshot, String> {
        let (store, instance) = started;
        let memory = exported_memory(store, instance)?;
        let fresh_memory = exported_memory(fresh.0, fresh.1)?;
        let (now, then) = (memory.data(&*store), fresh_memory.data(&*fresh.0));
        let image: Vec<Arc<[u8]>> = now
            .chunks(CHUNK)
            .enumerate()
            .map(|(i, chunk)| match base.and_then(|b| b.image.get(i)) {
                Some(shared) if **shared == *chunk => Arc::clone(shared),
                _ => Arc::from(chunk),
            })
            .collect();
        let chunks = image
            .iter()
            .enumerate()
            .filter(|(i, chunk)| match then.get(i * CHUNK..i * CHUNK + chunk.len()) {
                Some(was) => was != &chunk[..],
                None => chunk.iter().any(|b| *b != 0),
            })
            .map(|(i, chunk)| (i * CHUNK, Arc::clone(chunk)))
            .collect();
        let memory_bytes = now.len();
        let mut values = Vec::with_capacity(globals.len());
        for name in globals {
            let global = instance.get_global(&mut *store, name).ok_or_else(|| format!("no global `{name}`"))?;
            values.push((name.clone(), global.get(&mut *store)));
        }
        let log = store.data().log.clone();
        Ok(Snapshot { fuel, memory_bytes, image, chunks, globals: values, log })
    }

    /// Gives `instance`, just made, the snapshot's state. Growing its
    /// memory goes through the store's memory cap like any growth.
    pub(crate) fn restore(&self, store: &mut Store<StoreState>, instance: &Instance) -> Result<(), String> {
        let memory = exported_memory(store, instance)?;
        let have = memory.data_size(&*store);
        if self.memory_bytes > have {
            let pages = ((self.memory_bytes - have) / (64 << 10)) as u64;
            memory.grow(&mut *store, pages).map_err(|e| format!("{e:#}"))?;
        }
        let data = memory.data_mut(&mut *store);
        for (at, chunk) in &self.chunks {
            data.get_mut(*at..at + chunk.len()).ok_or("a snapshot chunk outside memory")?.copy_from_slice(chunk);
        }
        let written = if data.len() == self.memory_bytes { Tracker::start(data) } else { None };
        store.data_mut().written = written;
        self.set_state(store, instance)
    }

    /// Gives `instance`, which has run since it was given the snapshot,
    /// the snapshot's state again, in place: the memory the bot wrote since
    /// copied back (the pages the kernel saw written, or else every chunk
    /// that differs from the snapshot), the globals and the log set.
    /// `false` if its memory has grown since (a memory cannot shrink): it
    /// must be made afresh. Cheaper than a fresh instance, whose memory is
    /// mapped and faulted in anew.
    pub(crate) fn reset(&self, store: &mut Store<StoreState>, instance: &Instance) -> Result<bool, String> {
        let memory = exported_memory(store, instance)?;
        let tracker = store.data_mut().written.take();
        let data = memory.data_mut(&mut *store);
        if data.len() != self.memory_bytes {
            return Ok(false);
        }
        let tracked = tracker.filter(|t| t.tracks(data)).filter(|t| self.copy_written(t, data).is_ok());
        if tracked.is_none() {
            for (now, then) in data.chunks_mut(CHUNK).zip(&self.image) {
                if *now != **then {
                    now.copy_from_slice(then);
                }
            }
        }
        debug_assert!(
            data.chunks(CHUNK).zip(&self.image).all(|(now, then)| *now == **then),
            "an in-place reset left the memory unlike its snapshot"
        );
        store.data_mut().written = tracked;
        self.set_state(store, instance)?;
        Ok(true)
    }

    /// Copies back the pages `tracker` saw written, and protects them again.
    fn copy_written(&self, tracker: &Tracker, data: &mut [u8]) -> Result<(), String> {
        let mut written = Vec::new();
        tracker.written(&mut written)?;
        for range in written {
            let now = data.get_mut(range.clone()).ok_or("a written page outside memory")?;
            // A range of whole chunks (the kernel's pages are a multiple of
            // CHUNK), copied chunk by chunk.
            for (at, now) in (range.start..range.end).step_by(CHUNK).zip(now.chunks_mut(CHUNK)) {
                let then = self.image.get(at / CHUNK).filter(|_| at % CHUNK == 0);
                let then = then.filter(|then| then.len() == now.len()).ok_or("a written page outside the snapshot")?;
                now.copy_from_slice(then);
            }
        }
        tracker.protect()
    }

    /// Sets the globals and the log the snapshot holds, and clears a cap hit.
    fn set_state(&self, store: &mut Store<StoreState>, instance: &Instance) -> Result<(), String> {
        for (name, value) in &self.globals {
            let global = instance.get_global(&mut *store, name).ok_or_else(|| format!("no global `{name}`"))?;
            global.set(&mut *store, *value).map_err(|e| format!("{e:#}"))?;
        }
        let state = store.data_mut();
        state.log = self.log.clone();
        state.cap_hit = None;
        Ok(())
    }

    /// Bytes the snapshot keeps of memory.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.chunks.iter().map(|(_, c)| c.len()).sum()
    }
}

fn exported_memory(store: &mut Store<StoreState>, instance: &Instance) -> Result<Memory, String> {
    instance.get_memory(&mut *store, "memory").ok_or_else(|| "does not export its `memory`".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutable_globals_are_exported_and_the_rest_is_kept() {
        let wat = r#"(module
            (global $a (mut i32) (i32.const 1))
            (global $b i32 (i32.const 2))
            (global $c (mut i64) (i64.const 3))
            (memory (export "memory") 1)
            (func (export "pitboss_preinit")))"#;
        let binary = wat::parse_str(wat).unwrap();
        let prepared = prepare(&binary).unwrap().unwrap();
        assert_eq!(prepared.globals, ["pitboss_snapshot_global_0", "pitboss_snapshot_global_2"]);
        let exports: Vec<String> = Parser::new(0)
            .parse_all(&prepared.binary)
            .filter_map(|p| match p.unwrap() {
                Payload::ExportSection(r) => {
                    Some(r.into_iter().map(|e| e.unwrap().name.to_string()).collect::<Vec<_>>())
                }
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(exports, ["memory", "pitboss_preinit", "pitboss_snapshot_global_0", "pitboss_snapshot_global_2"]);
        wasmparser::Validator::new().validate_all(&prepared.binary).unwrap();
    }

    #[test]
    fn modules_without_preinit_are_left_alone_and_unsnapshotable_ones_refused() {
        let plain = wat::parse_str(r#"(module (func (export "f")))"#).unwrap();
        assert!(prepare(&plain).unwrap().is_none());
        let grows = wat::parse_str(
            r#"(module (table 1 funcref) (func (export "pitboss_preinit") (drop (table.grow (ref.null func) (i32.const 1)))))"#,
        )
        .unwrap();
        let error = prepare(&grows).err().unwrap();
        assert!(error.contains("`table.grow`"), "{error}");
        let named =
            wat::parse_str(r#"(module (func (export "pitboss_preinit")) (func (export "pitboss_snapshot_global_0")))"#)
                .unwrap();
        assert!(prepare(&named).err().unwrap().contains("keeps for itself"));
        let funcref =
            wat::parse_str(r#"(module (global (mut funcref) (ref.null func)) (func (export "pitboss_preinit")))"#)
                .unwrap();
        assert!(prepare(&funcref).err().unwrap().contains("mutable funcref global"));
    }
}
