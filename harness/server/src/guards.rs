//! What one client, one entrant and everyone may do at once or in a
//! while: rate limits per client address and per entrant (`governor`'s
//! keyed GCRA limiters), the addresses whose guesses are refused for a
//! while after too many wrong tokens, and the upload and check slots.
//! Every refusal is a 429 or 503 with `Retry-After`. Limits come from the
//! competition file's `[server]` ([`ServerPolicy`]).
//!
//! **Invariant:** a limit keyed by address counts only what fails (a wrong
//! token, invite code or form) or what a right invite code creates; a
//! right token or session is never refused for its address's guesses,
//! since many people may share one address (a school's NAT, a proxy).
//! Guessing stays bounded where it matters: tokens and session ids are
//! 256-bit random, and every wrong guess past the limit is a 429.
//!
//! **Invariant:** memory here is bounded: the keyed limiters and the
//! refused addresses are pruned every minute ([`Guards::prune`]), and an
//! address map past [`MAX_TRACKED`] entries forgets its oldest.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::answer::Failure;
use crate::competition::ServerPolicy;

/// Most client addresses remembered as refused at once.
pub const MAX_TRACKED: usize = 100_000;

type Keyed<K> = DefaultKeyedRateLimiter<K>;

/// The server's limits, shared by every request.
pub struct Guards {
    register: Keyed<IpAddr>,
    login: Keyed<IpAddr>,
    bad_tokens: Keyed<IpAddr>,
    /// Addresses refused until a time, after too many wrong tokens.
    refused: Mutex<BTreeMap<IpAddr, Instant>>,
    requests: Keyed<i64>,
    /// Uploads in flight, all entrants.
    uploads: Arc<Semaphore>,
    /// Entrants with an upload in flight.
    uploading: Mutex<BTreeSet<i64>>,
    /// Entrants with a replay in flight.
    replaying: Arc<Mutex<BTreeSet<i64>>>,
    /// Checks and replays running at once (one per core); FIFO, so fair.
    pub checks: Arc<Semaphore>,
    /// Replays, comparisons and coachings that may hold or wait for a
    /// check slot at once: one fewer than the check slots (at least one),
    /// so an upload always finds a slot free or about to be, whatever
    /// others compare; each entrant has one in flight, and the queue is
    /// first come first served, so the rest is shared per entrant.
    work: Arc<Semaphore>,
}

fn quota(per: Duration, n: u64) -> Quota {
    let n = NonZeroU32::new(u32::try_from(n).unwrap_or(u32::MAX)).unwrap_or(NonZeroU32::MIN);
    let every = per / n.get();
    Quota::with_period(every.max(Duration::from_micros(1))).unwrap_or_else(|| Quota::per_second(n)).allow_burst(n)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Checks `key` against `limiter`: `Err` with the seconds to wait.
fn check<K: std::hash::Hash + Eq + Clone>(limiter: &Keyed<K>, key: &K) -> Result<(), u64> {
    limiter.check_key(key).map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()).as_secs() + 1)
}

impl Guards {
    /// The limits of `policy`, with `cores` checks at once.
    pub fn new(policy: &ServerPolicy, cores: usize) -> Guards {
        let minute = Duration::from_secs(60);
        Guards {
            register: RateLimiter::keyed(quota(Duration::from_secs(3600), policy.registrations_per_hour)),
            login: RateLimiter::keyed(quota(minute, policy.logins_per_minute)),
            bad_tokens: RateLimiter::keyed(quota(minute, policy.bad_tokens_per_minute)),
            refused: Mutex::new(BTreeMap::new()),
            requests: RateLimiter::keyed(quota(minute, policy.requests_per_minute)),
            uploads: Arc::new(Semaphore::new(policy.uploads_at_once as usize)),
            uploading: Mutex::new(BTreeSet::new()),
            replaying: Arc::new(Mutex::new(BTreeSet::new())),
            checks: Arc::new(Semaphore::new(cores.max(1))),
            work: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))),
        }
    }

    /// A registration from `client` with the right invite code (wrong
    /// codes are guesses: [`Guards::wrong_secret`]).
    pub fn register(&self, client: IpAddr) -> Result<(), Failure> {
        check(&self.register, &client).map_err(|secs| {
            Failure::busy(StatusCode::TOO_MANY_REQUESTS, "too many registrations from your address; try later", secs)
        })
    }

    /// A login attempt from `client` that did not log in (a right token
    /// always does).
    pub fn login(&self, client: IpAddr) -> Result<(), Failure> {
        check(&self.login, &client).map_err(|secs| {
            Failure::busy(StatusCode::TOO_MANY_REQUESTS, "too many login attempts from your address; try later", secs)
        })
    }

    /// A request of entrant `id`.
    pub fn request(&self, id: i64) -> Result<(), Failure> {
        check(&self.requests, &id)
            .map_err(|secs| Failure::busy(StatusCode::TOO_MANY_REQUESTS, "too many requests; slow down", secs))
    }

    /// Refuses `client`'s guesses if it sent too many wrong tokens lately
    /// (asked only once a guess is known to be wrong).
    fn not_refused(&self, client: IpAddr) -> Result<(), Failure> {
        let now = Instant::now();
        match lock(&self.refused).get(&client) {
            Some(&until) if until > now => Err(Failure::busy(
                StatusCode::TOO_MANY_REQUESTS,
                "too many wrong tokens or codes from your address; try later",
                until.saturating_duration_since(now).as_secs() + 1,
            )),
            _ => Ok(()),
        }
    }

    /// Records a wrong token or invite code from `client`; returns the
    /// answer: `wrong` (401/403), or 429 once it sent more than its share,
    /// after which its wrong guesses are 429 for a while (its right ones
    /// are still let in).
    pub fn wrong_secret(&self, client: IpAddr, wrong: Failure) -> Failure {
        if let Err(refused) = self.not_refused(client) {
            return refused;
        }
        match check(&self.bad_tokens, &client) {
            Ok(()) => wrong,
            Err(secs) => {
                let mut refused = lock(&self.refused);
                if refused.len() >= MAX_TRACKED {
                    let now = Instant::now();
                    refused.retain(|_, until| *until > now);
                    if refused.len() >= MAX_TRACKED {
                        refused.pop_first();
                    }
                }
                refused.insert(client, Instant::now() + Duration::from_secs(secs));
                Failure::busy(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many wrong tokens or codes from your address; try later",
                    secs,
                )
            }
        }
    }

    /// An upload slot for entrant `id`: 429 while they have an upload in
    /// flight, 503 while every slot is taken. Held until the verdict is
    /// recorded (dropped: the slot is free).
    pub fn upload_slot(self: &Arc<Self>, id: i64) -> Result<UploadSlot, Failure> {
        if !lock(&self.uploading).insert(id) {
            return Err(Failure::busy(
                StatusCode::TOO_MANY_REQUESTS,
                "one upload at a time: your previous upload is still being checked",
                2,
            ));
        }
        // From here the slot's drop clears the entrant's mark.
        let mut slot = UploadSlot { guards: self.clone(), entrant: id, _permit: None };
        match self.uploads.clone().try_acquire_owned() {
            Ok(permit) => slot._permit = Some(permit),
            Err(_) => {
                return Err(Failure::busy(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is checking as many uploads as it can; try again shortly",
                    5,
                ));
            }
        }
        Ok(slot)
    }

    /// One of the check slots (checks, replays, comparisons), waiting in
    /// line for it; held until dropped.
    pub async fn check_slot(&self) -> Result<OwnedSemaphorePermit, Failure> {
        self.checks
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Failure::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))
    }

    /// Entrant `id`'s one replay, comparison or coaching in flight (429
    /// while they have one); dropped, the mark is cleared.
    fn work_mark(&self, id: i64) -> Result<Mark, Failure> {
        if !lock(&self.replaying).insert(id) {
            return Err(Failure::busy(
                StatusCode::TOO_MANY_REQUESTS,
                "one replay, comparison or coaching at a time: your previous one is still being played",
                2,
            ));
        }
        Ok(Mark { set: self.replaying.clone(), id })
    }

    /// What a replay, comparison or coaching holds while it plays: the
    /// entrant's one mark (none for the organiser), then one of the
    /// places for such work (fewer than the check slots: uploads come
    /// first), then a check slot.
    pub async fn work_slot(&self, entrant: Option<i64>) -> Result<WorkSlot, Failure> {
        let mark = entrant.map(|id| self.work_mark(id)).transpose()?;
        let place = (self.work.clone().acquire_owned().await)
            .map_err(|_| Failure::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
        Ok((mark, place, self.check_slot().await?))
    }

    /// Forgets what no longer limits anyone (run every minute).
    pub fn prune(&self) {
        for limiter in [&self.register, &self.login, &self.bad_tokens] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        self.requests.retain_recent();
        self.requests.shrink_to_fit();
        let now = Instant::now();
        lock(&self.refused).retain(|_, until| *until > now);
    }
}

/// What a replay, comparison or coaching holds while it plays.
pub type WorkSlot = (Option<Mark>, OwnedSemaphorePermit, OwnedSemaphorePermit);

/// An upload in flight: its entrant's one slot and one of everyone's.
pub struct UploadSlot {
    guards: Arc<Guards>,
    entrant: i64,
    _permit: Option<OwnedSemaphorePermit>,
}

impl Drop for UploadSlot {
    fn drop(&mut self) {
        lock(&self.guards.uploading).remove(&self.entrant);
    }
}

/// An entrant's mark in a set of entrants with something in flight;
/// dropped, it is cleared.
pub struct Mark {
    set: Arc<Mutex<BTreeSet<i64>>>,
    id: i64,
}

impl Drop for Mark {
    fn drop(&mut self) {
        lock(&self.set).remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_refuse_past_their_burst_and_slots_are_one_per_entrant() {
        let policy =
            ServerPolicy { logins_per_minute: 3, bad_tokens_per_minute: 2, uploads_at_once: 2, ..Default::default() };
        let guards = Arc::new(Guards::new(&policy, 1));
        let ip: IpAddr = "127.0.0.9".parse().unwrap();
        assert!((0..3).all(|_| guards.login(ip).is_ok()));
        let refused = guards.login(ip).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.retry_after.unwrap() >= 1);
        let wrong = || Failure::new(StatusCode::UNAUTHORIZED, "wrong");
        assert_eq!(guards.wrong_secret(ip, wrong()).status, StatusCode::UNAUTHORIZED);
        assert_eq!(guards.wrong_secret(ip, wrong()).status, StatusCode::UNAUTHORIZED);
        assert!(guards.not_refused(ip).is_ok());
        assert_eq!(guards.wrong_secret(ip, wrong()).status, StatusCode::TOO_MANY_REQUESTS);
        assert!(guards.not_refused(ip).is_err(), "refused for a while after");
        let a = guards.upload_slot(1).unwrap();
        assert_eq!(guards.upload_slot(1).err().unwrap().status, StatusCode::TOO_MANY_REQUESTS);
        let _b = guards.upload_slot(2).unwrap();
        assert_eq!(guards.upload_slot(3).err().unwrap().status, StatusCode::SERVICE_UNAVAILABLE);
        drop(a);
        assert!(guards.upload_slot(1).is_ok(), "a slot is free again once dropped");
        let mark = guards.work_mark(1).unwrap();
        assert_eq!(guards.work_mark(1).err().unwrap().status, StatusCode::TOO_MANY_REQUESTS);
        assert!(guards.work_mark(2).is_ok());
        drop(mark);
        assert!(guards.work_mark(1).is_ok(), "free again once dropped");
    }
}
