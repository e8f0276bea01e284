//! Just enough of a W3C WebDriver client to drive headless Chromium
//! through `chromedriver` in tests: open a page, find and click elements,
//! read text, run a script, take a screenshot. Plain HTTP/1.1 on
//! loopback; no crates beyond serde_json.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Where Debian's packages put the browser and its driver.
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Why a browser test cannot run here, if it cannot.
pub fn unavailable() -> Option<String> {
    [CHROMIUM, CHROMEDRIVER]
        .iter()
        .find(|p| !Path::new(p).exists())
        .map(|p| format!("{p} is missing (Debian packages chromium and chromium-driver; scripts/setup installs them)"))
}

/// A running chromedriver with one browser session; both end on drop.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// Starts chromedriver and a headless Chromium with a window of
    /// `width` × `height` pixels.
    pub fn start(width: u32, height: u32) -> Result<Browser, String> {
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {CHROMEDRIVER}: {e}"))?;
        let mut browser = Browser { driver, port, session: String::new() };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match browser.http("GET", "/status", None) {
                Ok(v) if v["value"]["ready"] == true => break,
                _ if Instant::now() > deadline => return Err("chromedriver did not become ready in 30 s".into()),
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
        let user_data = std::env::temp_dir().join(format!("pitboss-chromium-{}-{port}", std::process::id()));
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--hide-scrollbars".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", user_data.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
        }}});
        let v = browser.http("POST", "/session", Some(&caps))?;
        browser.session = v["value"]["sessionId"].as_str().ok_or(format!("no session in {v}"))?.to_string();
        Ok(browser)
    }

    fn http(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream.set_read_timeout(Some(Duration::from_secs(60))).map_err(|e| e.to_string())?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
        // chromedriver may keep the connection open whatever we ask, so
        // read exactly the announced body rather than to the end.
        let mut raw = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        let payload = loop {
            let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
            raw.extend_from_slice(&buf[..n]);
            let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
                if n == 0 {
                    return Err(format!("{method} {path}: connection closed before the headers ended"));
                }
                continue;
            };
            let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
            let body = &raw[split + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            match length {
                Some(len) if body.len() >= len => break body[..len].to_vec(),
                None if head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n") => {
                    break dechunk(body)?;
                }
                None if n == 0 => break body.to_vec(),
                _ if n == 0 => return Err(format!("{method} {path}: connection closed mid-body")),
                _ => {}
            }
        };
        let v: Value = serde_json::from_slice(&payload).map_err(|e| format!("{method} {path}: {e}"))?;
        if v["value"].get("error").is_some() {
            return Err(format!("{method} {path}: {}", v["value"]));
        }
        Ok(v)
    }

    fn command(&self, method: &str, what: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{what}", self.session);
        let mut v = self.http(method, &path, body.as_ref())?;
        Ok(v["value"].take())
    }

    /// Opens `file` (a local page).
    pub fn open(&self, file: &Path) -> Result<(), String> {
        let url = format!("file://{}", file.canonicalize().map_err(|e| e.to_string())?.display());
        self.command("POST", "/url", Some(json!({ "url": url }))).map(drop)
    }

    /// The id of the first element matching `css`.
    pub fn find(&self, css: &str) -> Result<String, String> {
        let v = self.command("POST", "/element", Some(json!({"using": "css selector", "value": css})))?;
        v[ELEMENT].as_str().map(str::to_string).ok_or(format!("no element `{css}`"))
    }

    /// How many elements match `css`.
    pub fn count(&self, css: &str) -> Result<usize, String> {
        let v = self.command("POST", "/elements", Some(json!({"using": "css selector", "value": css})))?;
        Ok(v.as_array().map_or(0, Vec::len))
    }

    /// Clicks the first element matching `css`.
    pub fn click(&self, css: &str) -> Result<(), String> {
        let id = self.find(css)?;
        self.command("POST", &format!("/element/{id}/click"), Some(json!({}))).map(drop)
    }

    /// The rendered text of the first element matching `css`.
    pub fn text(&self, css: &str) -> Result<String, String> {
        let id = self.find(css)?;
        Ok(self.command("GET", &format!("/element/{id}/text"), None)?.as_str().unwrap_or_default().to_string())
    }

    /// Runs `script` (a function body; `return` gives the value).
    pub fn script(&self, script: &str) -> Result<Value, String> {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": []})))
    }

    /// Resizes the window.
    pub fn resize(&self, width: u32, height: u32) -> Result<(), String> {
        self.command("POST", "/window/rect", Some(json!({"width": width, "height": height}))).map(drop)
    }

    /// A PNG of the first element matching `css`.
    pub fn element_screenshot(&self, css: &str) -> Result<Vec<u8>, String> {
        let id = self.find(css)?;
        let v = self.command("GET", &format!("/element/{id}/screenshot"), None)?;
        base64_decode(v.as_str().ok_or("no screenshot")?)
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let v = self.command("GET", "/screenshot", None)?;
        base64_decode(v.as_str().ok_or("no screenshot")?)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.http("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").ok_or("bad chunk")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| format!("bad chunk size: {e}"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(data.get(..size).ok_or("short chunk")?);
        data = data.get(size + 2..).ok_or("short chunk")?;
    }
}

fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| -> Result<u32, String> {
        Ok(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(format!("bad base64 byte {c}")),
        } as u32)
    };
    let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_round_trips_a_known_value() {
        assert_eq!(super::base64_decode("aGVsbG8gd29ybGQ=").unwrap(), b"hello world");
        assert_eq!(super::base64_decode("iVBORw==").unwrap(), [0x89, b'P', b'N', b'G']);
    }
}
