//! Just enough of a W3C WebDriver client to drive headless Chromium
//! through `chromedriver` in tests: open a page, find and click elements,
//! read text, run a script, take a screenshot. The HTTP is `ureq`'s, on
//! loopback; the protocol is a few JSON commands.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
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

/// Fails a browser test (`#[ignore = "needs chromium"]`) where Chromium or
/// its driver is missing: a test that runs never skips itself.
pub fn require() {
    if let Some(why) = unavailable() {
        panic!("this test needs Chromium, but {why}");
    }
}

/// A running chromedriver with one browser session; both end on drop.
pub struct Browser {
    driver: Child,
    http: ureq::Agent,
    port: u16,
    session: String,
}

/// The most a reply may hold: a full-page screenshot, base64-encoded.
const REPLY_LIMIT: u64 = 256 * 1024 * 1024;

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
        // WebDriver reports errors as 4xx/5xx replies with a JSON body that
        // says what went wrong: read it rather than stop at the status.
        let http = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let mut browser = Browser { driver, http, port, session: String::new() };
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
        let url = format!("http://127.0.0.1:{}{path}", self.port);
        let reply = match (method, body) {
            ("GET", None) => self.http.get(&url).call(),
            ("DELETE", None) => self.http.delete(&url).call(),
            ("POST", Some(body)) => self.http.post(&url).send_json(body),
            _ => return Err(format!("{method} {path}: not a WebDriver command we send")),
        };
        let v: Value = reply
            .and_then(|mut r| r.body_mut().with_config().limit(REPLY_LIMIT).read_json())
            .map_err(|e| format!("{method} {path}: {e}"))?;
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

    /// Opens `url` (a page served on loopback).
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.command("POST", "/url", Some(json!({ "url": url }))).map(drop)
    }

    /// Types `text` into the first element matching `css` (for a file
    /// input: the path of the file to upload).
    pub fn type_into(&self, css: &str, text: &str) -> Result<(), String> {
        let id = self.find(css)?;
        self.command("POST", &format!("/element/{id}/value"), Some(json!({ "text": text }))).map(drop)
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

    /// Runs `script` with `args` (`arguments[0]`, …).
    pub fn script_with(&self, script: &str, args: Value) -> Result<Value, String> {
        self.command("POST", "/execute/sync", Some(json!({"script": script, "args": args})))
    }

    /// Resizes the window.
    pub fn resize(&self, width: u32, height: u32) -> Result<(), String> {
        self.command("POST", "/window/rect", Some(json!({"width": width, "height": height}))).map(drop)
    }

    /// Lays pages out `width` CSS pixels wide, as a phone would (a
    /// window cannot be made narrower than 500 px: [`Browser::resize`]
    /// stops there).
    pub fn phone_width(&self, width: u32, height: u32) -> Result<(), String> {
        let params = json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": true});
        let cdp = json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": params});
        self.command("POST", "/goog/cdp/execute", Some(cdp)).map(drop)
    }

    /// Lays pages out as the window is again, after [`Browser::phone_width`].
    pub fn window_width(&self) -> Result<(), String> {
        let cdp = json!({"cmd": "Emulation.clearDeviceMetricsOverride", "params": {}});
        self.command("POST", "/goog/cdp/execute", Some(cdp)).map(drop)
    }

    /// Forgets every cookie of the page's site (logs out).
    pub fn forget_cookies(&self) -> Result<(), String> {
        self.command("DELETE", "/cookie", None).map(drop)
    }

    /// A PNG of the whole page, below the window's bottom too (at most
    /// 16,000 px of it).
    pub fn page_screenshot(&self) -> Result<Vec<u8>, String> {
        let size =
            self.script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")?;
        let (w, h) = (size[0].as_f64().unwrap_or(1.0), size[1].as_f64().unwrap_or(1.0).min(16_000.0));
        let clip = json!({"x": 0, "y": 0, "width": w, "height": h, "scale": 1});
        let params = json!({"format": "png", "captureBeyondViewport": true, "clip": clip});
        let v = self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Page.captureScreenshot", "params": params})),
        )?;
        base64_decode(v["data"].as_str().ok_or("no screenshot")?)
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

fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| format!("bad screenshot: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes_a_known_value() {
        assert_eq!(super::base64_decode("aGVsbG8gd29ybGQ=").unwrap(), b"hello world");
        assert_eq!(super::base64_decode("iVBORw==").unwrap(), [0x89, b'P', b'N', b'G']);
    }
}
