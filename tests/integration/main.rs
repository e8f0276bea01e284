//! Pitboss integration tests, one module per area.

/// The `pitboss` command: determinism, files, errors.
mod cli;
/// Hostile and broken bots: load-time refusals, run-time faults, DQ.
mod hostile;
/// `north-american` rules on stacked shoes.
mod north_american;
/// Random answers: conservation, card integrity, refusal; reshuffles.
mod properties;
/// The wasm host: loading, ABI checks, faults, wasm = native.
mod wasm;
