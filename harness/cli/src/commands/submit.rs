//! `pitboss submit --server URL --token T BOT.wasm|bot.py`: uploads a bot
//! (a module, or a Python bot's source) to a competition server and prints
//! its verdict, as `pitboss check` would.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use pitboss_host::files;

/// Upload a bot to a competition server (`pitboss serve`) and print the
/// verdict; exit status 0 when it passed its check, 1 otherwise.
#[derive(clap::Args)]
pub struct Args {
    /// The bot: a .wasm file, or a Python bot's .py source.
    bot: PathBuf,
    /// The server, e.g. https://pitboss.example.edu
    #[arg(long, value_name = "URL")]
    server: String,
    /// Your entrant token.
    #[arg(long, value_name = "TOKEN")]
    token: String,
}

/// An HTTP agent that hands error statuses back as answers (the server
/// explains them in JSON).
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into()
}

/// A server URL without its trailing slash.
pub fn base(server: &str) -> &str {
    server.trim_end_matches('/')
}

/// An upload refused by its length by something that does not say why in
/// JSON (a proxy in front of the server, or a server that closes the
/// connection): what it most likely means and whom to ask.
fn too_large(server: &str, what_happened: &str) -> String {
    format!(
        "{} {what_happened}: most likely the upload is over a size limit, the competition's (`max_kib` under \
         [uploads]) or a proxy's in front of it (e.g. nginx's client_max_body_size); ask the organiser",
        base(server)
    )
}

/// Uploads and prints the verdict.
pub fn run(args: Args) -> Result<ExitCode> {
    let bytes = files::read_regular(&args.bot, files::Kind::Bot)?;
    let name = args.bot.file_name().map_or_else(|| "bot.wasm".into(), |n| n.to_string_lossy().into_owned());
    let name: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect();
    let url = format!("{}/api/submissions?name={name}", base(&args.server));
    let kib = bytes.len().div_ceil(1024);
    let sent = agent()
        .post(&url)
        .header("Authorization", &format!("Bearer {}", args.token))
        .header("Content-Type", pitboss_host::lang::Runtime::of(&name).map_or("application/wasm", |r| r.media_type()))
        .send(&bytes[..]);
    let mut answer = match sent {
        Ok(answer) => answer,
        // A server (or the proxy in front of it) that refuses an upload
        // by its length may close the connection before reading it.
        Err(ureq::Error::Io(e))
            if matches!(e.kind(), std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset) =>
        {
            let why = format!("closed the connection while {} ({kib} KiB) was being sent ({e})", args.bot.display());
            bail!("{}", too_large(&args.server, &why))
        }
        Err(e) => return Err(e).with_context(|| format!("cannot reach {}", base(&args.server))),
    };
    let status = answer.status();
    if status == 413
        && !answer.headers().get("content-type").is_some_and(|t| t.as_bytes().starts_with(b"application/json"))
    {
        let why = format!("refused {} ({kib} KiB) as too large ({status}) without saying why", args.bot.display());
        bail!("{}", too_large(&args.server, &why));
    }
    let retry_after = answer.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let body: serde_json::Value =
        answer.body_mut().read_json().with_context(|| format!("the server answered {status} without JSON"))?;
    if let Some(error) = body.get("error").and_then(|e| e.as_str()) {
        let error = pitboss_host::text::excerpt(error, 500);
        match retry_after {
            Some(secs) => bail!("the server refused: {error} ({status}); try again in {secs} s"),
            None => bail!("the server refused: {error} ({status})"),
        }
    }
    // The server's texts, shown with their control characters escaped.
    let text =
        |key: &str| pitboss_host::text::printable(body.get(key).and_then(|v| v.as_str()).unwrap_or_default(), 100_000);
    let report = text("report");
    if report.is_empty() {
        out!("{}", text("verdict"));
    } else {
        out!("{}", report.trim_end());
    }
    out!("submission {} {}", body.get("id").unwrap_or(&serde_json::Value::Null), text("outcome"));
    Ok(if text("outcome") == "passed" { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
