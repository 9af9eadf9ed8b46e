//! The explorer in a real browser: headless Chromium, driven over WebDriver
//! (chromedriver), against `millbase serve` on a `--max-stones 4` database.
//! Needs `chromium` and `chromedriver` on the PATH (Debian: `apt install
//! chromium chromium-driver`; `.ci/run` installs them).

mod common;

use common::{Killed, generated, serve};
use fantoccini::{Client, ClientBuilder, Locator};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts chromedriver on a free port.
fn chromedriver() -> (Killed, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver not found: install chromium and chromium-driver (Debian: apt install chromium chromium-driver)");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Killed(child), port)
}

async fn browser(port: u16) -> Client {
    let caps = serde_json::json!({
        "goog:chromeOptions": {
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--window-size=1000,900"]
        }
    });
    let caps = match caps {
        serde_json::Value::Object(m) => m,
        _ => unreachable!(),
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("connect to chromedriver")
}

/// Waits until `f` gives `Some`, for at most 10 s.
async fn until<T, F, Fut>(what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The text of what `css` finds, once it says something (`what` names it
/// where it never does).
async fn shown_text(c: &Client, what: &str, css: &str) -> String {
    until(what, || async {
        let t = text(c, css).await;
        (!t.is_empty()).then_some(t)
    })
    .await
}

/// The number of elements `css` finds, once there is at least one.
async fn count(c: &Client, what: &str, css: &str) -> usize {
    until(what, || async {
        let n = c.find_all(Locator::Css(css)).await.map_or(0, |v| v.len());
        (n > 0).then_some(n)
    })
    .await
}

async fn move_rows(c: &Client) -> Vec<String> {
    // read in one script: the list may be drawn again meanwhile
    let v = c
        .execute(
            "return [...document.querySelectorAll('#moves .move')].map(e => e.dataset.move)",
            vec![],
        )
        .await
        .unwrap();
    (v.as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect()
}

/// The position shown, once the page has loaded `want` (or anything when `None`).
async fn shown(c: &Client, want: Option<&str>) -> String {
    until("the position shown", || async {
        let t = text(c, "#position-text").await;
        let v = text(c, "#value").await;
        (!v.is_empty() && want.is_none_or(|w| w == t)).then_some(t)
    })
    .await
}

/// Presses `keys` on the page.
async fn press(c: &Client, keys: &str) {
    (c.find(Locator::Css("body")).await.unwrap())
        .send_keys(keys)
        .await
        .unwrap();
}

async fn click_id(c: &Client, id: &str) {
    click(c, &format!("#{id}")).await;
}

async fn click_point(c: &Client, point: &str) {
    click(c, &format!("[data-point=\"{point}\"]")).await;
}

/// Clicks what `css` finds, finding it again where the page drew it anew
/// between the find and the click.
async fn click(c: &Client, css: &str) {
    until(&format!("a click on {css}"), || async {
        let redrawn = |e: &fantoccini::error::CmdError| {
            e.is_stale_element_reference() || e.is_no_such_element()
        };
        match c.find(Locator::Css(css)).await {
            Ok(found) => match found.click().await {
                Ok(()) => Some(()),
                Err(e) if redrawn(&e) => None,
                Err(e) => panic!("a click on {css}: {e}"),
            },
            Err(e) if redrawn(&e) => None,
            Err(e) => panic!("finding {css}: {e}"),
        }
    })
    .await
}

/// GET `path` from the server at `url` (plain HTTP/1.0 over a socket): the
/// JSON body.
fn api(url: &str, path: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let host = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap();
    serde_json::from_str(body).unwrap()
}

/// The moves of `position` from the API, as the page should list them.
fn api_moves(url: &str, position: &str) -> Vec<String> {
    let q = position.replace(' ', "%20");
    api(url, &format!("/api/query?position={q}"))["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// The positions after the moves of `pos` that keep its value (win, draw or
/// loss, by the database in `db`): what a best move may lead to.
fn best_positions(db: &std::path::Path, pos: &str) -> Vec<String> {
    let db = millbase::answer::query::Database::open(db).unwrap();
    let a = db.answer_from_tables(&pos.parse().unwrap()).unwrap();
    let best = a.moves[0].value.name();
    (a.moves.iter())
        .filter(|m| m.value.name() == best)
        .map(|m| m.position.to_string())
        .collect()
}

async fn select(c: &Client, id: &str, value: &str) {
    (c.find(Locator::Id(id)).await.unwrap())
        .select_by_value(value)
        .await
        .unwrap();
}

async fn set_field(c: &Client, id: &str, value: &str) {
    let e = c.find(Locator::Id(id)).await.unwrap();
    e.clear().await.unwrap();
    e.send_keys(value).await.unwrap();
    // leaving the field fires its change event
    click_id(c, "position-text").await;
}

/// A `--max-stones 4` database served, chromedriver and a browser on it:
/// the database's folder, the server, its address, the driver, the browser.
async fn session() -> (tempfile::TempDir, Killed, String, Killed, Client) {
    let dir = generated(&["--max-stones", "4"]);
    let (server, host) = serve(dir.path());
    let (driver, port) = chromedriver();
    let c = browser(port).await;
    (dir, server, format!("http://{host}"), driver, c)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_in_a_real_browser() {
    let (dir, _server, url, _driver, c) = session().await;
    let db = dir.path();

    // the page opens a decided position of the 4-stone game, the longest
    // win of its largest pair, and New game the start of that game
    let health = api(&url, "/api/health");
    let example = health["example"]
        .as_str()
        .expect("a small database's example");
    c.goto(&url).await.unwrap();
    assert_eq!(shown(&c, Some(example)).await, example);
    let plain = |p: &str| {
        let o = common::run(&["query", "--db", db.to_str().unwrap(), p, "--json"]);
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    assert_eq!(plain(example)["value"], "win", "{example}");
    let longest = api(&url, "/api/stats/4-4")["longest_wins"][0]["position"].clone();
    assert_eq!(longest, example, "the example is the pair's longest win");
    assert!(text(&c, "#variant").await.contains("4 stones a side"));
    assert!(text(&c, "#variant").await.contains("longest win"));
    let start = "........................ w 4 4";
    click_id(&c, "start").await;
    assert_eq!(shown(&c, Some(start)).await, start);
    assert!(text(&c, "#error").await.is_empty());
    picture(&c, "placement").await;

    // the page loads the initial position of the 4-stone game from its URL
    c.goto(&format!("{url}/?position={}", start.replace(' ', "%20")))
        .await
        .unwrap();
    assert_eq!(shown(&c, Some(start)).await, start);
    assert!(text(&c, "#value").await.starts_with("White "));
    let listed = move_rows(&c).await;
    assert_eq!(listed.len(), 24, "{listed:?}");
    let mut from_api = api_moves(&url, start);
    let mut l = listed.clone();
    l.sort();
    from_api.sort();
    assert_eq!(l, from_api);

    // a legal click plays the move: position, move list and URL follow
    click_point(&c, "d1").await;
    let after = ".W...................... b 3 4";
    assert_eq!(shown(&c, Some(after)).await, after);
    let url_now = c.current_url().await.unwrap().to_string();
    assert!(
        url_now.contains("moves=d1"),
        "the game is in the URL: {url_now}"
    );
    assert_eq!(move_rows(&c).await.len(), 23);
    assert!(text(&c, "#status").await.starts_with("Black to move"));

    // an illegal click (a point already taken) changes nothing
    click_point(&c, "d1").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(text(&c, "#position-text").await, after);
    assert_eq!(c.current_url().await.unwrap().to_string(), url_now);

    // back and forward
    c.back().await.unwrap();
    assert_eq!(shown(&c, Some(start)).await, start);
    c.forward().await.unwrap();
    assert_eq!(shown(&c, Some(after)).await, after);

    // the best move, by key
    press(&c, "b").await;
    let best = until("the best move played", || async {
        let t = text(&c, "#position-text").await;
        (t != after && !text(&c, "#value").await.is_empty()).then_some(t)
    })
    .await;
    assert!(best.ends_with(" w 3 3"), "{best}");
    let allowed = best_positions(db, after);
    assert!(
        allowed.contains(&best),
        "{best} is not a best move of {after}: {allowed:?}"
    );

    // the main line: each step opens its position
    click_id(&c, "mainline-button").await;
    assert!(count(&c, "the main line", "#mainline li").await > 1);
    // play against perfect play as White: Black answers at once
    let before = text(&c, "#position-text").await;
    select(&c, "level", "perfect").await;
    click_id(&c, "versus").await;
    let first = move_rows(&c).await[0].clone();
    click(&c, &format!("#moves [data-move=\"{first}\"]")).await;
    let answered = until("the computer's answer", || async {
        let t = text(&c, "#position-text").await;
        (t != before && t.split(' ').nth(1) == Some("w") && !text(&c, "#value").await.is_empty())
            .then_some(t)
    })
    .await;
    assert!(answered.ends_with(" w 2 2"), "{answered}");
    let played: millbase::Position = before.parse().unwrap();
    let mid = millbase::rules::moves::apply(&played, first.parse().unwrap()).to_string();
    let allowed = best_positions(db, &mid);
    assert!(
        allowed.contains(&answered),
        "{answered} is not a best answer to {mid}: {allowed:?}"
    );
    click_id(&c, "versus").await;

    // a finished game says who has won and why, not an error
    let over = "WWWW..BB................ b 0 0";
    c.goto(&format!("{url}/?position={}", over.replace(' ', "%20")))
        .await
        .unwrap();
    assert_eq!(shown(&c, Some(over)).await, over);
    let said = shown_text(&c, "the game-over message", "#game-over").await;
    assert_eq!(said, "Black has fewer than 3 stones: White has won.");
    assert!(text(&c, "#error").await.is_empty());
    c.goto(&format!("{url}/?position={}", start.replace(' ', "%20")))
        .await
        .unwrap();
    assert_eq!(shown(&c, Some(start)).await, start);

    // the editor: a position set on the board round-trips through the URL
    click_id(&c, "edit-toggle").await;
    click_id(&c, "ed-clear").await;
    set_field(&c, "ed-wh", "0").await;
    set_field(&c, "ed-bh", "0").await;
    for p in ["a1", "d1", "g7"] {
        click_point(&c, p).await; // white
    }
    for p in ["a7", "d7", "b2"] {
        click_point(&c, p).await;
        click_point(&c, p).await; // black
    }
    // a1 d1 g1 b2 ... a7 d7 g7 in the board string's point order
    let edited = format!("WW.B{}BBW w 0 0", ".".repeat(17));
    assert_eq!(
        until("the edited position", || async {
            let t = text(&c, "#position-text").await;
            (t == edited).then_some(t)
        })
        .await,
        edited
    );
    let edited_url = c.current_url().await.unwrap().to_string();
    click_id(&c, "ed-done").await;
    c.goto(&edited_url).await.unwrap();
    assert_eq!(shown(&c, Some(&edited)).await, edited);

    // the statistics page lists every subspace and sector, and one sector's
    // histogram and longest positions
    c.goto(&format!("{url}/stats")).await.unwrap();
    let rows = count(&c, "the statistics table", "#stats-table tbody tr").await;
    let sectors = api(&url, "/api/health")["sectors"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(rows, sectors);
    assert!(sectors > 4, "the placement sectors are listed too");
    c.goto(&format!("{url}/stats?sector=3-3")).await.unwrap();
    let bars = count(&c, "the histogram", "#sector-detail .histogram rect.bar").await;
    assert!(bars > 10, "{bars}");
    picture(&c, "stats").await;
    let link = c
        .find(Locator::Css("#sector-detail .records a"))
        .await
        .unwrap();
    let target = link.text().await.unwrap();
    link.click().await.unwrap();
    let pos = target.split(" (").next().unwrap().to_string();
    assert_eq!(shown(&c, Some(&pos)).await, pos);
    c.close().await.unwrap();
}

/// The moves of the game in the page's URL.
async fn url_moves(c: &Client) -> Vec<String> {
    let url = c.current_url().await.unwrap();
    let moves = url
        .query_pairs()
        .find(|(k, _)| k == "moves")
        .map(|(_, v)| v.to_string())
        .unwrap_or_default();
    moves.split_whitespace().map(str::to_string).collect()
}

/// The position after `moves` from `start`, by the API.
fn api_after(url: &str, start: &str, moves: &[String]) -> String {
    let q = format!(
        "/api/query?position={}&moves={}",
        start.replace(' ', "%20"),
        moves.join("%20")
    );
    api(url, &q)["position"].as_str().unwrap().to_string()
}

/// Plays `mv` (`FROM-TOxREMOVED`) from `pos` by clicks: the stone, its
/// point, then, once the page asks for it, the stone to remove; the page
/// then shows the position the API gives after the move.
async fn move_and_remove(c: &Client, url: &str, pos: &str, mv: &str) {
    let (from, rest) = mv.split_once('-').unwrap();
    let (to, removed) = rest.split_once('x').unwrap();
    click_point(c, from).await;
    click_point(c, to).await;
    until("the hint to remove", || async {
        text(c, "#hint").await.contains("remove").then_some(())
    })
    .await;
    click_point(c, removed).await;
    let want = api_after(url, pos, &[mv.to_string()]);
    assert_eq!(shown(c, Some(&want)).await, want);
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Saves a picture of the page as docs/screenshots/NAME.png when
/// MILLBASE_SCREENSHOTS names the folder.
async fn picture(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("MILLBASE_SCREENSHOTS") {
        c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
        let png = c.screenshot().await.unwrap();
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), png).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_a_level_its_history_and_its_review() {
    let (_dir, _server, url, _driver, c) = session().await;
    let open = |pos: &str| format!("{url}/?position={}", pos.replace(' ', "%20"));

    // slide into a mill and remove: g4-g1 closes a1 d1 g1
    let slide = "WW......W.....W...B.BBB. w 0 0";
    c.goto(&open(slide)).await.unwrap();
    assert_eq!(shown(&c, Some(slide)).await, slide);
    picture(&c, "explorer").await;
    move_and_remove(&c, &url, slide, "g4-g1xb6").await;
    assert_eq!(url_moves(&c).await, vec!["g4-g1xb6"]);
    // the last move is marked on the board, the removed stone too
    assert_eq!(count(&c, "the last move", "#board .last").await, 1);
    assert_eq!(
        count(&c, "the removed stone", "#board [data-removed=\"b6\"]").await,
        1
    );

    // fly: White with 3 stones flies e3 to g1 into a mill
    let fly = "WW......W.........B.BBB. w 0 0";
    c.goto(&open(fly)).await.unwrap();
    assert_eq!(shown(&c, Some(fly)).await, fly);
    move_and_remove(&c, &url, fly, "e3-g1xa7").await;

    // a whole game as White against the random level: White plays the best
    // move, the computer answers, until the game is over
    let start = "........................ w 4 4";
    c.goto(&open(start)).await.unwrap();
    assert_eq!(shown(&c, Some(start)).await, start);
    // stones in hand are drawn beside the board
    assert_eq!(count(&c, "stones in hand", "#board [data-hand]").await, 8);
    select(&c, "level", "random").await;
    select(&c, "human", "w").await;
    click_id(&c, "versus").await;
    let mut plies = 0;
    let mut told = false;
    for _ in 0..150 {
        if !text(&c, "#game-over").await.is_empty() {
            break;
        }
        let before = url_moves(&c).await.len();
        press(&c, "b").await;
        plies = until("White's move and the reply", || async {
            let n = url_moves(&c).await.len();
            let over = !text(&c, "#game-over").await.is_empty();
            let settled = !text(&c, "#value").await.is_empty();
            ((n >= before + 2 || (n == before + 1 && over)) && settled).then_some(n)
        })
        .await;
        // the computer's move is told
        told |= text(&c, "#notice")
            .await
            .contains("The computer (random) played");
    }
    let said = text(&c, "#game-over").await;
    assert!(
        !said.is_empty(),
        "the game ended within 150 moves ({plies} plies)"
    );
    assert!(text(&c, "#error").await.is_empty());
    assert!(told, "the computer's moves were not told");
    picture(&c, "game").await;
    // the history lists every ply, the last one marked
    let moves = url_moves(&c).await;
    assert_eq!(count(&c, "the history", "#history .ply").await, moves.len());
    assert_eq!(text(&c, "#history .ply.last").await, *moves.last().unwrap());
    // the game as the API plays it ends the same way
    let q = format!(
        "/api/query?position={}&moves={}",
        start.replace(' ', "%20"),
        moves.join("%20")
    );
    let end = api(&url, &q);
    assert!(
        !end["game"]["result"].is_null() || !end["result"].is_null(),
        "{end}"
    );

    // undo takes back White's move and the reply, and the computer stays
    // silent on White's turn
    click_id(&c, "undo").await;
    let after_undo = until("the undo", || async {
        let n = url_moves(&c).await.len();
        (n < moves.len()).then_some(n)
    })
    .await;
    assert_eq!(
        after_undo % 2,
        0,
        "White to move again after {after_undo} plies"
    );
    assert!(moves.len() - after_undo <= 2);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        url_moves(&c).await.len(),
        after_undo,
        "the computer moved on White's turn"
    );
    assert!(text(&c, "#status").await.starts_with("White to move"));
    click_id(&c, "versus").await;

    // the game as text, pasted back after a new game
    let played = url_moves(&c).await;
    let game_text: String = js(&c, "return document.getElementById('game-text').value")
        .await
        .as_str()
        .unwrap()
        .to_string();
    assert!(game_text.starts_with("1. "), "{game_text}");
    click_id(&c, "start").await;
    until("a new game", || async {
        url_moves(&c).await.is_empty().then_some(())
    })
    .await;
    js(&c, &format!("document.getElementById('game-box').open = true; document.getElementById('game-text').value = {};", serde_json::json!(game_text))).await;
    click_id(&c, "load-game").await;
    until("the pasted game", || async {
        (url_moves(&c).await == played).then_some(())
    })
    .await;
    let want = api_after(&url, start, &played);
    assert_eq!(shown(&c, Some(&want)).await, want);
    // a game that cannot be played is refused, the one on the board kept
    js(
        &c,
        "document.getElementById('game-text').value = '1. d1 d1';",
    )
    .await;
    click_id(&c, "load-game").await;
    let said = shown_text(&c, "the refusal", "#error").await;
    assert!(said.contains("cannot be loaded"), "{said}");
    assert_eq!(shown(&c, Some(&want)).await, want);
    assert_eq!(url_moves(&c).await, played);

    // the review: a strip cell per ply; a cell opens the position after it
    click_id(&c, "review-button").await;
    let cells = count(&c, "the review strip", "#review-strip .cell").await;
    assert_eq!(cells, played.len());
    assert!(text(&c, "#review-summary").await.starts_with("White: "));
    click(&c, "#review-strip [data-ply=\"3\"]").await;
    let want = api_after(&url, start, &played[..3]);
    assert_eq!(shown(&c, Some(&want)).await, want);
    click_id(&c, "review-next").await;
    let want = api_after(&url, start, &played[..4]);
    assert_eq!(shown(&c, Some(&want)).await, want);
    // the moves after the cursor stay in the game until a move is played
    assert_eq!(url_moves(&c).await, played);

    // hidden values: no value, no outcome; flipped board: a1 at the top right
    click_id(&c, "show-values").await;
    assert!(text(&c, "#value").await.is_empty());
    assert!(
        c.find_all(Locator::Css("#moves .outcome"))
            .await
            .unwrap()
            .is_empty()
    );
    click_id(&c, "show-values").await;
    click_id(&c, "flip").await;
    let y = js(
        &c,
        "return Number(document.querySelector('[data-point=\"a1\"]').getAttribute('cy'))",
    )
    .await;
    assert_eq!(y.as_f64(), Some(0.0), "a1 is drawn at the top once flipped");

    // a finished game by repetition says so
    let pos = "W.W.....B.......W....B.B w 0 0";
    let moves = "d5-e5%20e3-c3%20e5-d5%20c3-e3%20d5-e5%20e3-c3%20e5-d5%20c3-e3";
    c.goto(&format!("{}&moves={moves}", open(pos)))
        .await
        .unwrap();
    let said = shown_text(&c, "the repetition", "#game-over").await;
    assert!(said.contains("third time"), "{said}");

    // a picture of a short game's review
    if std::env::var_os("MILLBASE_SCREENSHOTS").is_some() {
        let short = &played[..played.len().min(12)];
        c.goto(&format!(
            "{}&moves={}&ply=7",
            open(start),
            short.join("%20")
        ))
        .await
        .unwrap();
        let want7 = api_after(&url, start, &short[..7]);
        assert_eq!(shown(&c, Some(&want7)).await, want7);
        click_id(&c, "review-button").await;
        count(&c, "the review strip", "#review-strip .cell").await;
        picture(&c, "review").await;
    }

    // the statistics page on a phone: nothing wider than the screen
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{url}/stats?sector=3-3")).await.unwrap();
    count(&c, "the histogram", "#sector-detail .histogram rect.bar").await;
    let ticks = count(&c, "the axis ticks", "#sector-detail .histogram .tick").await;
    assert!(ticks > 4, "{ticks}");
    let wide = js(&c, "return document.documentElement.scrollWidth").await;
    let inner = js(&c, "return window.innerWidth").await;
    assert!(
        wide.as_f64().unwrap() <= inner.as_f64().unwrap(),
        "the page is {wide} wide on a {inner} screen"
    );
    picture(&c, "phone").await;
    c.close().await.unwrap();
}

/// The review of a game won by taking the opponent down to 2 stones, its
/// last move included: every line's text and every strip cell's colour
/// against `millbase review --json` of the same game, each standing from the
/// mover's side and each cell coloured for White; an error stands beside
/// the review's button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_of_a_game_won_by_stones() {
    let (dir, _server, url, _driver, c) = session().await;
    let db = dir.path().to_str().unwrap();
    let start = "WW.....BB..........W.B.. w 0 0";
    let moves = "d6-d5 e3-e4 d5-d6 e4-e3 d6-g1xd3";
    let want = common::review_json(db, start, moves)["moves"]
        .as_array()
        .unwrap()
        .clone();

    c.goto(&format!(
        "{url}/?position={}&moves={}",
        start.replace(' ', "%20"),
        moves.replace(' ', "%20")
    ))
    .await
    .unwrap();
    click_id(&c, "review-button").await;
    let n = count(&c, "the review list", "#review-moves li").await;
    assert_eq!(n, want.len());
    assert!(text(&c, "#review-error").await.is_empty());
    let shown = js(
        &c,
        "return [...document.querySelectorAll('#review-moves li')].map(e => e.textContent)",
    )
    .await;
    let cells = js(
        &c,
        "return [...document.querySelectorAll('#review-strip .cell')].map(e => e.className)",
    )
    .await;
    let standing = |s: &serde_json::Value| match s["value"].as_str().unwrap() {
        "draw" => "draw".to_string(),
        v => format!("{v} in {}", s["plies"]),
    };
    let mut marks = vec![];
    for (k, m) in want.iter().enumerate() {
        let line = shown[k].as_str().unwrap();
        let mark = m["mark"].as_str().unwrap();
        marks.push(mark);
        let side = if m["side"] == "white" {
            "White"
        } else {
            "Black"
        };
        assert!(
            line.starts_with(&format!("{side} {}: ", m["move"].as_str().unwrap())),
            "{line}"
        );
        let words = match (mark, m["before"]["value"].as_str().unwrap()) {
            ("keeps", "loss") => "keeps the result, loses sooner",
            ("keeps", _) => "keeps the result, slower",
            (other, _) => other,
        };
        assert!(line.contains(words), "{line}: {m}");
        if mark != "best" {
            // both standings from the mover's side, as the CLI gives them
            let said = format!(
                "({} before, {} after",
                standing(&m["before"]),
                standing(&m["after"])
            );
            assert!(line.contains(&said), "{line}: {m}");
        }
        // the cell: the outcome for White after the ply
        let after = m["after"]["value"].as_str().unwrap();
        let for_white = match (after, m["side"].as_str().unwrap()) {
            ("draw", _) => "draw",
            (v, "white") => v,
            ("win", _) => "loss",
            _ => "win",
        };
        let class = cells[k].as_str().unwrap();
        assert!(
            class.split(' ').any(|c| c == for_white),
            "ply {}: {class}, want {for_white}: {m}",
            k + 1
        );
    }
    // the game shows every kind of line this test reads
    for mark in ["best", "keeps", "blunder"] {
        assert!(marks.contains(&mark), "{marks:?}");
    }
    assert_eq!(want.last().unwrap()["after"]["value"], "win");

    // a review that fails says so beside its button
    c.goto(&format!("{url}/?position={}", start.replace(' ', "%20")))
        .await
        .unwrap();
    click_id(&c, "review-button").await;
    let said = shown_text(&c, "the review's error", "#review-error").await;
    assert!(said.contains("Play some moves first"), "{said}");
    c.close().await.unwrap();
}
