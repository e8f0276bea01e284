//! What a student meets first on `pitboss serve`: the registration page
//! (the once-only token that fits a phone, its Copy button, the `pitboss
//! submit` line, logged in at once) in headless Chromium at 1280 and
//! 390 px, and the starter `bot.py` that downloads and passes as it is.

use std::path::{Path, PathBuf};

use pitboss_tests::webdriver::Browser;
use serde_json::json;

use crate::server::{Server, agent, scratch, wait_for};

/// A competition open to anyone with its invite code.
fn open_class(dir: &Path) -> PathBuf {
    let comp = dir.join("competition.toml");
    std::fs::write(
        &comp,
        "name = \"Open class\"\n[entrants]\ninvite_code = \"letmein-2026\"\n\
         [[league]]\nname = \"Main\"\nvariant = \"north-american\"\nrounds = 300\nsessions = 1\nseed = 5\nbankroll = 1000000\n",
    )
    .unwrap();
    comp
}

/// Where the screenshots of the student's pages go.
fn screenshots() -> PathBuf {
    let dir = pitboss_tests::artifacts().parent().unwrap().join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[ignore = "needs chromium"]
fn registering_in_chromium_shows_the_token_to_copy_and_logs_in_at_1280_and_390_px() {
    pitboss_tests::webdriver::require();
    let dir = scratch("register-browser");
    let server = Server::start(&open_class(&dir), &dir.join("data"));
    let url = server.url.clone();
    for (width, height, name) in [(1280, 900, "zoe"), (390, 844, "yann")] {
        let browser = Browser::start(width, height).unwrap();
        browser.phone_width(width, height).unwrap();
        browser.goto(&format!("{url}/register")).unwrap();
        browser.type_into("#name", name).unwrap();
        browser.type_into("#invite_code", "letmein-2026").unwrap();
        browser.click("#register").unwrap();
        wait_for(&browser, "h1", &format!("Welcome, {name}"));
        let wide = browser.script("return document.documentElement.clientWidth").unwrap();
        assert_eq!(wide, json!(width), "laid out {width} px wide");
        let fits =
            browser.script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth");
        assert_eq!(fits.unwrap(), json!(true), "the welcome page overflows sideways at {width} px");
        let shot = screenshots().join(if width == 390 { "register-phone.png" } else { "register.png" });
        std::fs::write(shot, browser.screenshot().unwrap()).unwrap();

        // The token, whole, in monospace and inside the window.
        let token = browser.text("#token").unwrap();
        assert!(token.starts_with("pbe_") && token.len() == 68, "{token}");
        let font = browser.script("return getComputedStyle(document.querySelector('#token')).fontFamily").unwrap();
        assert!(font.as_str().unwrap().contains("monospace"), "{font}");
        let inside = browser.script("return document.querySelector('#token').getBoundingClientRect().right").unwrap();
        assert!(inside.as_f64().unwrap() <= width as f64, "the token ends at {inside} px, past {width}");
        let line = browser.text("#submit-line").unwrap();
        assert_eq!(line, format!("pitboss submit --server {url} --token {token} bot.wasm"));
        // Two Copy buttons the script has shown; one pressed says so.
        let shown = browser.script("return document.querySelectorAll('button.copy:not([hidden])').length").unwrap();
        assert_eq!(shown, json!(2), "a Copy button for the token and for the line");
        browser.click("button.copy[data-copy=token]").unwrap();
        let start = std::time::Instant::now();
        let mut said = browser.text("button.copy[data-copy=token]").unwrap();
        while said == "Copy" && start.elapsed() < std::time::Duration::from_millis(1500) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            said = browser.text("button.copy[data-copy=token]").unwrap();
        }
        assert!(said == "Copied" || said == "Selected: copy it", "{said}");

        // Logged in: the navigation names them, and their page opens.
        assert!(browser.text("nav").unwrap().contains(&format!("My bot ({name})")));
        browser.click("#mine").unwrap();
        wait_for(&browser, "h1", name);
    }
}

#[test]
fn the_starter_bot_py_downloads_as_a_file_and_passes_its_check_as_it_is() {
    let dir = scratch("starter");
    let (cache, key) = (dir.join("cache"), dir.join("cache.key"));
    let server = Server::start_with(
        &open_class(&dir),
        &dir.join("data"),
        &[("PITBOSS_CACHE_DIR", &cache), ("PITBOSS_CACHE_KEY", &key)],
    );
    let url = server.url.clone();
    let mut answer = agent().get(&format!("{url}/download/bot.py")).call().unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let disposition = answer.headers().get("content-disposition").unwrap().to_str().unwrap().to_string();
    assert_eq!(disposition, "attachment; filename=\"bot.py\"");
    let source = answer.body_mut().read_to_string().unwrap();
    assert!(source.contains("pitboss.play("), "{source}");
    std::fs::write(dir.join("bot.py"), &source).unwrap();
    let download = crate::server::html(&url, "", "/download");
    assert!(download.contains("href=\"/download/bot.py\""), "the download page offers it: {download}");

    let (status, body) = crate::server::call(
        "POST",
        &format!("{url}/api/register"),
        None,
        Some(br#"{"name":"zoe","invite_code":"letmein-2026"}"#),
    );
    assert_eq!(status, 201, "{body}");
    let token = body["token"].as_str().unwrap();
    let ran = pitboss_tests::pitboss(&dir, &["submit", "--server", &url, "--token", token, "bot.py"]);
    assert_eq!(ran.code, Some(0), "the starter passes: {}{}", ran.stdout, ran.stderr);
}
