//! `pitboss verify RESULTS.json [--bots DIR] [--sessions LIST]`: re-runs a
//! league from its results file alone (the embedded league, the bot files
//! found by SHA-256) and confirms that it gives the same results byte for
//! byte, or names the first difference. A changed bot file is refused by
//! its hash; an edited number is a difference.

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::{Result, bail};
use pitboss_host::files;

use crate::league::{assemble, play_sessions, session_record};
use crate::replay::Replayable;
use pitboss_results::{first_difference, first_difference_at};

/// What to verify.
#[derive(Clone, Debug)]
pub struct VerifyRequest {
    /// The league's `results.json`.
    pub results: PathBuf,
    /// Where else to look for bot files (matched by SHA-256).
    pub bots: Option<PathBuf>,
    /// Only these sessions (their records alone are compared); all when
    /// `None`.
    pub sessions: Option<Vec<u64>>,
    /// Worker threads (all cores when `None`).
    pub threads: Option<usize>,
}

/// The outcome of a verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Re-running gave the same results: says what was compared.
    Identical(String),
    /// The first difference: where, the file's value and the re-run's.
    Differs(String),
}

/// Re-runs the league of `req.results` and compares; `total` hears how
/// many rounds will be played, then `progress` how many more are done.
pub fn verify(req: &VerifyRequest, total: &dyn Fn(u64), progress: &(dyn Fn(u64) + Sync)) -> Result<Verdict> {
    let text = files::read_text(&req.results, files::Kind::Results)?;
    let label = req.results.display().to_string();
    let results = pitboss_results::parse(&text, &label)?;
    let on_disk: serde_json::Value = serde_json::from_str(&text)?;
    let league = Replayable::from_results(results, &req.results, req.bots.as_deref())?;
    // A resolved league (`until = "resolved"`) stops before its cap: its
    // file holds the sessions it played, and the re-run's assembly checks
    // that it stops there; any other league plays every session.
    let count = if league.file.plan().is_some() { league.results.sessions.len() as u64 } else { league.file.sessions };
    let wanted: Vec<u64> = match &req.sessions {
        None => (0..count).collect(),
        Some(list) => {
            let mut list = list.clone();
            list.sort_unstable();
            list.dedup();
            if let Some(s) = list.iter().find(|&&s| s >= count) {
                bail!("--sessions: session {s} is outside the league ({count} sessions, counted from 0)");
            }
            list
        }
    };
    total(wanted.len() as u64 * league.file.rounds);
    let played = play_sessions(&league.file, &league.bots, &wanted, req.threads, progress)?;
    let recorded = &league.results;
    if req.sessions.is_none() {
        crate::league::check_stop(&league.file, &recorded.bots, &played)?;
        let (_, rerun) = assemble(&league.file, recorded.bots.clone(), &played)?;
        let mut bytes = serde_json::to_string_pretty(&rerun)?;
        bytes.push('\n');
        if bytes == text {
            return Ok(Verdict::Identical(format!("verified: {count} session(s) identical, byte for byte")));
        }
        // Both sides through the same parser, so a float compares by its
        // text (serde_json's default parse may round its last digit).
        let rerun: serde_json::Value = serde_json::from_str(&bytes)?;
        return Ok(Verdict::Differs(match first_difference(&on_disk, &rerun) {
            Some(d) => d,
            None => {
                let at =
                    bytes.bytes().zip(text.bytes()).position(|(a, b)| a != b).unwrap_or(bytes.len().min(text.len()));
                format!("the same data, but not the bytes Pitboss writes (from byte {at}): the file was re-formatted")
            }
        }));
    }
    for s in &played {
        let k = s.session as usize;
        // Disqualifications in earlier sessions, as the file records them:
        // only the listed sessions are re-run.
        let mut out = vec![false; recorded.bots.len()];
        for earlier in recorded.sessions.iter().take(k) {
            for (o, b) in out.iter_mut().zip(&earlier.bots) {
                *o |= b.disqualified;
            }
        }
        let rerun: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(&session_record(s, &recorded.bots, &out))?)?;
        let prefix = format!("sessions[{k}]");
        let file = on_disk.get("sessions").and_then(|v| v.get(k)).cloned().unwrap_or_default();
        if let Some(d) = first_difference_at(&file, &rerun, &prefix) {
            return Ok(Verdict::Differs(d));
        }
    }
    let list: Vec<String> = wanted.iter().map(u64::to_string).collect();
    Ok(Verdict::Identical(format!(
        "verified: session(s) {} identical ({} of {count}; standings not re-computed)",
        list.join(", "),
        wanted.len()
    )))
}

/// `k` distinct sessions of `0..count`, ascending (all of them when
/// `k >= count`), drawn uniformly from the operating system's randomness
/// (Floyd's algorithm): a sample to replay that whoever made the file
/// cannot know in advance.
pub fn random_sessions(count: u64, k: u64) -> Result<Vec<u64>> {
    if k >= count {
        return Ok((0..count).collect());
    }
    let mut chosen = BTreeSet::new();
    for j in count - k..count {
        let t = below(j + 1)?;
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    Ok(chosen.into_iter().collect())
}

/// A random number in `0..n` (`n > 0`); the bias of the widening multiply
/// is below n / 2^64.
fn below(n: u64) -> Result<u64> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness from the operating system: {e}"))?;
    Ok(((u128::from(u64::from_le_bytes(bytes)) * u128::from(n)) >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_that_many_distinct_sessions_of_the_league() {
        for (count, k) in [(2, 1), (10, 4), (10, 9), (10_000, 4)] {
            let s = random_sessions(count, k).unwrap();
            assert_eq!(s.len() as u64, k, "{s:?}");
            assert!(s.windows(2).all(|w| w[0] < w[1]) && s.iter().all(|&x| x < count), "{s:?}");
        }
        let mut seen = BTreeSet::new();
        for _ in 0..200 {
            seen.extend(random_sessions(5, 1).unwrap());
        }
        assert_eq!(seen.len(), 5, "every session can be drawn: {seen:?}");
    }
}
