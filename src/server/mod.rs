//! The web explorer (`millbase serve`): a JSON API over one open database and
//! the page that shows it, on axum and tokio.
//!
//! ```text
//! GET /api/query?position=POS[&counter=C][&moves=M]   the answer of `millbase query --json`
//! GET /api/mainline?position=POS[&moves=M]   the perfect-play line (`millbase line --json`)
//! GET /api/play?position=POS[&moves=M][&level=L][&seed=S]   a level's move in the game
//! GET /api/review?position=POS&moves=M[&counter=C]   the review (`millbase review --json`)
//! GET /api/stats                   counts of every subspace and sector
//! GET /api/stats/SECTOR            counts, histogram of plies, longest positions
//! GET /api/health                  the variant and the subspaces present
//! GET /  /stats  /app.js  /style.css   the page
//! ```
//!
//! With `moves=M` (a game record: `1. d1 a1 2. d2`) the moves are played
//! from the position (default: the initial one) as a game: its counter of
//! the no-removal rule starts at `counter` and follows the moves, and the
//! answer carries `"game": {"counter", "repetitions", "result"}`.
//!
//! Answers come from the tables only: a position whose placement sector the
//! database lacks is a 404, never a search of minutes. Errors are
//! `{"error": "..."}`: 400 for a malformed request, 404 for what the database
//! lacks, 500 for a damaged file (named relative to the database; the
//! server's standard error gets the whole message). Every lookup runs on the
//! blocking pool, at most [`max_busy`] at a time and at most [`MAX_QUEUED`]
//! waiting (beyond that 503 at once); all requests share one [`Database`],
//! opened read-only. Connections are handled by [`listen`]: idle and
//! half-sent ones time out, their number is capped.

pub mod listen;

use crate::answer::line::{Line, MAX_DRAW_PLIES};
use crate::answer::query::{Database, QueryError};
use crate::answer::records::{self, SectorReport};
use crate::answer::report::StatsRow;
use crate::index::Subspace;
use crate::play::players::Level;
use crate::play::review;
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::storage::{FileIdentity, StorageError};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

/// The longest query string accepted, in bytes: a game record of some
/// 800 plies, percent-encoded.
pub const MAX_QUERY_BYTES: usize = 8192;
/// Lookups running at once: twice the cores (more only make the threads wait
/// for one another at the block cache's lock); more requests wait their turn.
pub fn max_busy() -> usize {
    2 * std::thread::available_parallelism().map_or(2, |n| n.get())
}
/// Lookups waiting for their turn; beyond that a request is answered 503.
pub const MAX_QUEUED: usize = 256;
/// Moves of a searching level waiting for their turn; beyond that 503.
pub const MAX_SEARCHES_QUEUED: usize = 4;
/// The nodes of a served `expert` move by default: about 0.2 s on one core
/// (docs/RESULTS.md).
pub const SERVED_EXPERT_NODES: u64 = 1_000_000;

/// Per-client token buckets for the expensive routes (a searching level's
/// move, a statistics report to make): each client (by address) holds at
/// most [`BUCKET_SIZE`] tokens, refilled at [`BUCKET_REFILL`] a second; a
/// request without a token is a 429 with `Retry-After`.
struct Buckets {
    by_client: Mutex<HashMap<std::net::IpAddr, (f64, std::time::Instant)>>,
}

/// Tokens a client may spend at once on the expensive routes.
pub const BUCKET_SIZE: f64 = 20.0;
/// Tokens a client gets back a second.
pub const BUCKET_REFILL: f64 = 4.0;
/// Clients remembered at most; beyond, the full buckets are forgotten.
const BUCKET_CLIENTS: usize = 10_000;

impl Buckets {
    /// Takes a token of `client`, or says how many seconds until one comes.
    fn take(&self, client: std::net::IpAddr) -> Result<(), u32> {
        let now = std::time::Instant::now();
        let mut map = lock(&self.by_client);
        if map.len() >= BUCKET_CLIENTS {
            map.retain(|_, (t, at)| {
                *t + now.duration_since(*at).as_secs_f64() * BUCKET_REFILL < BUCKET_SIZE
            });
        }
        let (tokens, at) = map.entry(client).or_insert((BUCKET_SIZE, now));
        *tokens =
            (*tokens + now.duration_since(*at).as_secs_f64() * BUCKET_REFILL).min(BUCKET_SIZE);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / BUCKET_REFILL).ceil().max(1.0) as u32)
        }
    }
}

/// Spends a token of the client of `ip` (a request that came over the
/// network: one served through [`listen`]), or a 429.
fn spend(shared: &Shared, ip: Option<listen::ClientIp>) -> Result<(), ApiError> {
    let Some(listen::ClientIp(ip)) = ip else {
        return Ok(());
    };
    shared.buckets.take(ip).map_err(|wait| ApiError {
        retry_after: Some(wait),
        ..ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many expensive requests from this address: try again in a moment",
        )
    })
}

/// What a server allows the searching levels of `/api/play`.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Nodes of an `expert` move at most.
    pub expert_nodes: u64,
    /// Searches at once (at most one per core); [`MAX_SEARCHES_QUEUED`] more
    /// wait, the rest are answered 503.
    pub searches: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            expert_nodes: SERVED_EXPERT_NODES,
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}
/// The longest error message sent, in characters (an echo of bad input is
/// shorter still: [`crate::rules::position::excerpt`]).
const MAX_MESSAGE: usize = 300;

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// What every handler shares.
struct Shared {
    db: Arc<Database>,
    busy: Semaphore,
    /// Lookups waiting for a permit of `busy`.
    queued: AtomicUsize,
    /// The database directory as given and as resolved, cut from messages.
    dir_names: Vec<String>,
    /// Sector reports by sector and the identity of its table file, each
    /// made once ([`records::sector_report`]).
    sector_reports: Mutex<HashMap<(Subspace, FileIdentity), ReportCell>>,
    /// One report made at a time.
    report_turn: Arc<Semaphore>,
    /// Requests waiting for a report being made.
    report_waiters: AtomicUsize,
    /// The searches of `/api/play` running, apart from every other request.
    searches: Semaphore,
    /// Searches waiting for their turn.
    searches_queued: AtomicUsize,
    /// Nodes of a served `expert` move at most.
    expert_nodes: u64,
    /// The expensive routes' tokens by client.
    buckets: Buckets,
    /// The position the page opens with ([`example_of`]), once found.
    example: std::sync::OnceLock<Option<String>>,
    /// Health's last look at every file of the database.
    sweep: Mutex<Option<Sweep>>,
    /// Health checks run apart from the lookups, one at a time (each
    /// costs a few queries' worth): a crowd of lookups never makes one wait.
    health_turn: Semaphore,
    /// Health checks waiting for their turn.
    health_queued: AtomicUsize,
}

/// How often, at most, `/api/health` looks at every file of the database
/// (a stat each, and the header of a file replaced); between two looks it
/// answers from the last and from what queries found, at the cost of a few
/// queries whatever the number of files.
const SWEEP: Duration = Duration::from_millis(500);

/// What health's look at every file found: the subspaces present, and when.
struct Sweep {
    at: std::time::Instant,
    present: Arc<[Subspace]>,
}

/// An API error: the status and a message naming the problem.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds after which a refused request may be sent again.
    retry_after: Option<u32>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503: the server is busy; `Retry-After: 1`.
    fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        let mut r = (
            self.status,
            Json(Body {
                error: bounded(self.message),
            }),
        )
            .into_response();
        if let Some(s) = self.retry_after {
            r.headers_mut().insert(header::RETRY_AFTER, s.into());
        }
        r
    }
}

/// `message` cut to [`MAX_MESSAGE`] characters (and `...`): what an answer
/// sends, once the database's directory is cut from it.
fn bounded(mut message: String) -> String {
    if let Some((cut, _)) = message.char_indices().nth(MAX_MESSAGE) {
        message.truncate(cut);
        message.push_str("...");
    }
    message
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        let status = match &e {
            // the server answers from its tables and searches nothing: the
            // library's message would send the user to a search
            QueryError::PlacementPhase(p) => {
                return ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!(
                        "{p}: the database lacks the placement sector {} of this position \
                         (stones in hand) and this server answers from its tables only; \
                         GET /api/health names the start of the largest game it holds",
                        Subspace::of(p)
                    ),
                );
            }
            QueryError::Counter(_) => StatusCode::BAD_REQUEST,
            QueryError::Storage(s) => storage_status(s),
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<crate::storage::dir::DbError> for ApiError {
    fn from(e: crate::storage::dir::DbError) -> ApiError {
        let status = match &e {
            crate::storage::dir::DbError::Storage(s) => storage_status(s),
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

/// 404 for a file the database lacks, 500 for one it cannot read.
fn storage_status(e: &StorageError) -> StatusCode {
    match e {
        StorageError::Missing { .. } => StatusCode::NOT_FOUND,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// `?position=POS`, the game's `moves` and `counter`, `max_plies` for the
/// main line, `level` and `seed` for a move of a level; each typed, a
/// value of the wrong kind a 400 naming its parameter ([`params`]).
#[derive(Deserialize)]
struct PositionParams {
    position: Option<String>,
    counter: Option<u16>,
    max_plies: Option<usize>,
    moves: Option<String>,
    level: Option<Level>,
    seed: Option<u64>,
}

impl PositionParams {
    /// The game asked about: from the position (the start of the database's
    /// largest game where only `moves` are given) at `counter`, under the database's rule
    /// ([`Database::new_game`]), the moves of `moves` played.
    fn game(&self, db: &Database) -> Result<Game, ApiError> {
        let start = match (&self.position, &self.moves) {
            (None, Some(_)) => db.start(),
            _ => self.position()?,
        };
        let mut game = db.new_game(start, self.counter)?;
        if let Some(record) = &self.moves {
            game.play_record(record)
                .map_err(|e| ApiError::bad_request(format!("moves: {e}")))?;
        }
        Ok(game)
    }

    /// The position: one whose side to move has lost is a finished game,
    /// one whose other side has too few stones an error.
    fn position(&self) -> Result<Position, ApiError> {
        let text = self.position.as_deref().ok_or_else(|| {
            ApiError::bad_request(
                "missing ?position=POS (e.g. ?position=........................%20w%209%209)",
            )
        })?;
        text.parse::<Position>()
            .map_err(|e| ApiError::bad_request(format!("position: {e}")))
    }
}

/// The parameters of a request, or a 400 naming what is wrong with them:
/// the parameter and why (`counter: invalid digit found in string`).
fn params(q: Result<Query<PositionParams>, QueryRejection>) -> Result<PositionParams, ApiError> {
    q.map(|Query(p)| p).map_err(|e| {
        let text = e.body_text();
        let why = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text);
        ApiError::bad_request(format!("query string: {why}"))
    })
}

/// Runs `f` on the blocking pool, at most [`max_busy`] at a time; a panic is a
/// 500, never a dropped connection.
async fn blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&Shared) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slots = Slots {
        permits: &shared.busy,
        queued: &shared.queued,
        max_queued: MAX_QUEUED,
        busy: BUSY,
        what: "lookup",
    };
    run_in(shared, slots, f).await
}

/// The 503's message where the lookups' (or health's) slots and queue are
/// all taken.
const BUSY: &str = "the server is busy: try again in a moment";

/// A pool of slots on the blocking pool and its bounded queue.
struct Slots<'a> {
    permits: &'a Semaphore,
    queued: &'a AtomicUsize,
    max_queued: usize,
    /// The 503's message once every slot and place in the queue is taken.
    busy: &'static str,
    /// What runs, in the 500 of a panic.
    what: &'static str,
}

/// Runs `f` on the blocking pool in one of `slots`, waiting in its queue
/// where all are taken, a 503 with `Retry-After` where the queue is full; a
/// panic is a 500, never a dropped connection.
async fn run_in<T: Send + 'static>(
    shared: &Arc<Shared>,
    slots: Slots<'_>,
    f: impl FnOnce(&Shared) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let busy = || ApiError::busy(slots.busy);
    let _permit = match slots.permits.try_acquire() {
        Ok(p) => p,
        Err(_) => {
            let _waiting = Queued::join(slots.queued, slots.max_queued).ok_or_else(busy)?;
            slots.permits.acquire().await.map_err(|_| busy())?
        }
    };
    let s = shared.clone();
    let what = slots.what;
    tokio::task::spawn_blocking(move || f(&s).map_err(|e| s.public(e)))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("{what} failed: {e}"),
            )
        })?
}

/// A place among the lookups waiting for their turn, given back when dropped.
struct Queued<'a>(&'a AtomicUsize);

impl<'a> Queued<'a> {
    /// A place, or `None` when `max` wait already.
    fn join(queued: &'a AtomicUsize, max: usize) -> Option<Queued<'a>> {
        let was = queued.fetch_add(1, Ordering::Relaxed);
        let place = Queued(queued);
        (was < max).then_some(place)
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Shared {
    /// `e` as a client may see it: the database directory cut from file
    /// names; the whole message of a server fault goes to standard error.
    fn public(&self, mut e: ApiError) -> ApiError {
        if e.status.is_server_error() {
            eprintln!("error {}: {}", e.status.as_u16(), e.message);
        }
        for name in &self.dir_names {
            e.message = e.message.replace(&format!("{name}/"), "");
        }
        e
    }

    /// The subspaces present, from health's last look at every file of the
    /// database, which is made again (each file compared with the one open,
    /// a replaced one opened and checked) when older than [`SWEEP`].
    fn swept(&self) -> Arc<[Subspace]> {
        let mut last = lock(&self.sweep);
        if let Some(w) = &*last
            && w.at.elapsed() < SWEEP
        {
            return w.present.clone();
        }
        let present: Arc<[Subspace]> = self.db.dir().present().into();
        // its findings go to the list of damaged files
        self.db.check_files(&present);
        *last = Some(Sweep {
            at: std::time::Instant::now(),
            present: present.clone(),
        });
        present
    }
}

async fn query(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let p = params(q)?;
    let answer = blocking(&shared, move |s| {
        let game = p.game(&s.db)?;
        let mut v = json(&s.db.answer_game(&game, false)?)?;
        if p.moves.is_some() {
            v["game"] = game.json();
        }
        Ok(v)
    })
    .await?;
    Ok(Json(answer))
}

/// `value` as JSON.
fn json(value: &impl Serialize) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// `GET /api/play`: the move a level chooses in the game, and the game
/// after it.
async fn play(
    State(shared): State<Arc<Shared>>,
    client: Option<axum::Extension<listen::ClientIp>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let p = params(q)?;
    let level = p.level.unwrap_or(Level::Hard);
    let seed = p.seed.unwrap_or(0);
    let play_move = move |s: &Shared| {
        let mut game = p.game(&s.db)?;
        if let Some(r) = game.result() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("the game is over: {r}"),
            ));
        }
        if level.needs_database() {
            // from the tables only: a missing sector is a 404, not a search
            s.db.answer_game(&game, false)?;
        }
        let mut player = level
            .player_within(seed, Some(s.db.clone()), Some(s.expert_nodes))
            .map_err(ApiError::bad_request)?;
        let mv = player
            .choose(&game)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        game.play(mv)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        Ok(serde_json::json!({
            "move": mv.to_string(),
            "position": game.position().to_string(),
            "game": game.json(),
        }))
    };
    let answer = if level.searches() {
        spend(&shared, client.map(|c| c.0))?;
        searching(&shared, play_move).await?
    } else {
        blocking(&shared, play_move).await?
    };
    Ok(Json(answer))
}

/// Runs the search `f` on the blocking pool apart from every other request:
/// at most [`Options::searches`] at a time and [`MAX_SEARCHES_QUEUED`]
/// waiting, the rest answered 503 with `Retry-After`; so that queries and
/// health never wait behind searches.
async fn searching<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&Shared) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slots = Slots {
        permits: &shared.searches,
        queued: &shared.searches_queued,
        max_queued: MAX_SEARCHES_QUEUED,
        busy: "every search slot is taken: try again in a moment",
        what: "search",
    };
    run_in(shared, slots, f).await
}

/// `GET /api/review`: every move of the game judged.
async fn review_game(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let p = params(q)?;
    let answer = blocking(&shared, move |s| {
        if p.moves.is_none() {
            return Err(ApiError::bad_request(
                "missing &moves=... (the game to review)",
            ));
        }
        let game = p.game(&s.db)?;
        // from the tables only: a missing table is a 404 naming it
        let moves = review::review(&s.db, &game, false)?;
        Ok(review::review_json(&moves))
    })
    .await?;
    Ok(Json(answer))
}

async fn mainline(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<Line>, ApiError> {
    let p = params(q)?;
    let max = p.max_plies.unwrap_or(40);
    if max > MAX_DRAW_PLIES {
        return Err(ApiError::bad_request(format!(
            "max_plies: {max} is more than {MAX_DRAW_PLIES}"
        )));
    }
    let line = blocking(&shared, move |s| {
        Ok(s.db.line_game(&p.game(&s.db)?, max, false)?)
    })
    .await?;
    Ok(Json(line))
}

/// `GET /api/stats`: the counts of every table that opens, and the files
/// that do not, named.
#[derive(Serialize)]
struct StatsList {
    tables: Vec<StatsRow>,
    damaged: Vec<Damaged>,
}

async fn stats(State(shared): State<Arc<Shared>>) -> Result<Json<StatsList>, ApiError> {
    let list = blocking(&shared, |s| {
        // the tables stay open: a second request reads no file
        let (mut tables, mut damaged) = (vec![], vec![]);
        for sub in s.db.dir().present() {
            match s.db.table_header(sub) {
                Ok((header, key, _)) => tables.push(StatsRow::new(
                    sub,
                    header.counts,
                    header.entries,
                    key.table_bytes,
                )),
                Err(e) => damaged.push(Damaged {
                    file: crate::storage::dir::file_name(sub),
                    error: bounded(s.public(ApiError::from(e)).message),
                }),
            }
        }
        Ok(StatsList { tables, damaged })
    })
    .await?;
    Ok(Json(list))
}

async fn sector_stats(
    State(shared): State<Arc<Shared>>,
    client: Option<axum::Extension<listen::ClientIp>>,
    waiting: Option<axum::Extension<listen::Waiting>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let sub: Subspace = name
        .parse()
        .map_err(|e: crate::index::SubspaceParseError| ApiError::bad_request(e.to_string()))?;
    // keyed on the identity of the table file open: a file replaced under
    // the server has its report made (or read) anew
    let identity = blocking(&shared, move |s| Ok(s.db.table_header(sub)?.2)).await?;
    let cell = (lock(&shared.sector_reports).entry((sub, identity)))
        .or_default()
        .clone();
    if let Some(done) = cell.get() {
        return report_response(done);
    }
    // a kept report is a file read
    if let Some(report) = blocking(&shared, move |s| {
        Ok(records::kept_sector_report(&s.db, sub)?)
    })
    .await?
    {
        let done = cell.get_or_init(|| async { Ok(Arc::new(report)) }).await;
        return report_response(done);
    }
    // the others are made in the background, one at a time (a pass over a
    // whole table), each once and kept; a request waits for its report at
    // most REPORT_WAIT, a bounded number of requests at a time, and is
    // otherwise told to ask again
    // a report to make is expensive: it spends the client's token
    spend(&shared, client.map(|c| c.0))?;
    start_report(&shared, &cell, sub);
    let being_made = || {
        let mut r = (
            StatusCode::ACCEPTED,
            Json(serde_json::json!({
                "status": "being made",
                "sector": sub.to_string(),
                "message": "the report of this table is being made (a pass over it): ask again",
            })),
        )
            .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, REPORT_RETRY_SECONDS.into());
        r
    };
    let Some(_waiting) = Queued::join(&shared.report_waiters, MAX_REPORT_WAITERS) else {
        return Ok(being_made());
    };
    // only waiting: the connection may be closed to make room
    let _mark = waiting.map(|w| w.0.wait());
    let until = tokio::time::Instant::now() + REPORT_WAIT;
    while tokio::time::Instant::now() < until {
        if let Some(done) = cell.get() {
            return report_response(done);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        // the turn may have come free: this report's turn, then
        start_report(&shared, &cell, sub);
    }
    Ok(being_made())
}

/// Starts making the report of `sub` into `cell` in the background where
/// no report is being made: one at a time, each once.
fn start_report(shared: &Arc<Shared>, cell: &ReportCell, sub: Subspace) {
    if cell.initialized() {
        return;
    }
    let Ok(turn) = shared.report_turn.clone().try_acquire_owned() else {
        return;
    };
    let (s, c) = (shared.clone(), cell.clone());
    tokio::spawn(async move {
        let _turn = turn;
        if c.get().is_none() {
            let made = blocking(&s, move |s| Ok(records::make_sector_report(&s.db, sub)?))
                .await
                .map(Arc::new)
                .map_err(|e| (e.status, e.message));
            // a busy server is no answer to keep: a later request tries again
            if !matches!(&made, Err((StatusCode::SERVICE_UNAVAILABLE, _))) {
                let _ = c.set(made);
            }
        }
    });
}

/// The answer of a report made (or the error that making it met).
fn report_response(done: &ReportResult) -> Result<Response, ApiError> {
    match done {
        Ok(report) => Ok(Json((**report).clone()).into_response()),
        Err((status, message)) => Err(ApiError::new(*status, message.clone())),
    }
}

/// A sector report made, or why it could not be.
type ReportResult = Result<Arc<SectorReport>, (StatusCode, String)>;

/// A sector report, made once.
type ReportCell = Arc<OnceCell<ReportResult>>;

/// How long a request waits for a report being made before it is told to
/// ask again (202).
const REPORT_WAIT: Duration = Duration::from_secs(10);
/// Requests waiting for reports at once; beyond, a 202 at once.
const MAX_REPORT_WAITERS: usize = 32;
/// The `Retry-After` of a report being made, in seconds.
const REPORT_RETRY_SECONDS: u32 = 5;

/// `GET /api/health`.
#[derive(Serialize)]
struct Health {
    /// `ok`, or `damaged` when a file is.
    status: &'static str,
    /// The rule variant, under the key `rules`.
    #[serde(rename = "rules")]
    variant: &'static str,
    /// The rules' name and fingerprint.
    ruleset: &'static crate::rules::ruleset::RulesId,
    sectors: Vec<String>,
    /// The initial position of the largest game the database holds (`w 5 5`
    /// for `generate --max-stones 5`), `null` for one without the placement
    /// phase.
    start: Option<String>,
    /// On a database without the 9-stone game, a decided position the page
    /// opens with ([`example_of`]); `null` otherwise.
    example: Option<String>,
    /// The files found damaged, relative to the database.
    damaged: Vec<Damaged>,
}

#[derive(Serialize)]
struct Damaged {
    file: String,
    error: String,
}

async fn health(State(shared): State<Arc<Shared>>) -> Result<Json<Health>, ApiError> {
    let slots = Slots {
        permits: &shared.health_turn,
        queued: &shared.health_queued,
        max_queued: MAX_QUEUED,
        busy: BUSY,
        what: "health check",
    };
    let (sectors, start, example, damaged) = run_in(&shared, slots, |s| {
        let present = s.swept();
        let sectors = present.iter().map(|x| x.to_string()).collect();
        // the largest game's start, where the placement phase is there
        let has_placement = present.iter().any(|x| !x.is_movement());
        let start = has_placement.then(|| crate::answer::query::start_of(&present).to_string());
        // found once: a kept report read, not on every health check
        let example = (s.example.get_or_init(|| example_of(&s.db, &present))).clone();
        let damaged: Vec<Damaged> = (s.db.damaged().into_iter())
            .map(|(file, error)| Damaged {
                file: file.display().to_string(),
                error: bounded(s.public(ApiError::bad_request(error)).message),
            })
            .collect();
        Ok((sectors, start, example, damaged))
    })
    .await?;
    Ok(Json(Health {
        status: if damaged.is_empty() { "ok" } else { "damaged" },
        variant: shared.db.variant().name(),
        ruleset: shared.db.variant().rules_id(),
        sectors,
        start,
        example,
        damaged,
    }))
}

/// A position worth playing on a database that lacks the 9-stone game,
/// whose own start is a wall of draws: the longest win for the side to move
/// of its largest movement pair with as many stones on each side, as the
/// pair's kept report lists it. `None` for a database with the whole game,
/// or where that report was not kept.
fn example_of(db: &Database, present: &[Subspace]) -> Option<String> {
    if crate::answer::query::start_of(present) == Position::initial() {
        return None;
    }
    let pair = (present.iter())
        .filter(|x| x.is_movement() && x.mover == x.opponent)
        .max_by_key(|x| x.mover)?;
    let report = records::kept_sector_report(db, *pair).ok()??;
    Some(report.longest_wins.first()?.position.clone())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Refuses a query string longer than [`MAX_QUERY_BYTES`].
async fn limit_query(req: Request, next: Next) -> Response {
    let len = req.uri().query().map_or(0, str::len);
    if len > MAX_QUERY_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("query string of {len} bytes: at most {MAX_QUERY_BYTES}"),
        )
        .into_response();
    }
    next.run(req).await
}

/// The security headers of every answer: no content-type sniffing, no
/// framing by other sites, and the page's own scripts, styles and images
/// only.
async fn security_headers(req: Request, next: Next) -> Response {
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; object-src 'none'; \
             base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    r
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The explorer's routes over `db`, with the default [`Options`].
pub fn router(db: Database) -> Router {
    router_with(db, Options::default())
}

/// The explorer's routes over `db` with `options`.
pub fn router_with(db: Database, options: Options) -> Router {
    routes(Arc::new(Shared::new(db, options)))
}

impl Shared {
    fn new(db: Database, options: Options) -> Shared {
        let given = db.path().display().to_string();
        let resolved = std::fs::canonicalize(db.path()).map(|p| p.display().to_string());
        let dir_names = [Some(given), resolved.ok()].into_iter().flatten().collect();
        Shared {
            db: Arc::new(db),
            busy: Semaphore::new(max_busy()),
            queued: AtomicUsize::new(0),
            dir_names,
            sector_reports: Mutex::new(HashMap::new()),
            report_turn: Arc::new(Semaphore::new(1)),
            report_waiters: AtomicUsize::new(0),
            searches: Semaphore::new(options.searches.max(1)),
            searches_queued: AtomicUsize::new(0),
            health_turn: Semaphore::new(1),
            health_queued: AtomicUsize::new(0),
            expert_nodes: options.expert_nodes,
            buckets: Buckets {
                by_client: Mutex::new(HashMap::new()),
            },
            example: std::sync::OnceLock::new(),
            sweep: Mutex::new(None),
        }
    }
}

/// The routes over `shared`.
fn routes(shared: Arc<Shared>) -> Router {
    let page = || async { asset("text/html; charset=utf-8", INDEX_HTML) };
    Router::new()
        .route("/api/query", get(query))
        .route("/api/mainline", get(mainline))
        .route("/api/stats", get(stats))
        .route("/api/stats/{*sector}", get(sector_stats))
        .route("/api/health", get(health))
        .route("/api/play", get(play))
        .route("/api/review", get(review_game))
        .route("/", get(page))
        .route("/stats", get(page))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(middleware::from_fn(limit_query))
        .layer(middleware::from_fn(security_headers))
        .with_state(shared)
}

/// Serves `db` on `listener` within `limits` until `shutdown` completes,
/// then gives the requests in flight [`listen::Limits::stop_grace`].
pub async fn serve(
    db: Database,
    listener: tokio::net::TcpListener,
    limits: listen::Limits,
    options: Options,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    listen::serve_router(router_with(db, options), listener, limits, shutdown).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn at_most_max_queued_wait_and_a_place_is_given_back() {
        let queued = AtomicUsize::new(0);
        let places: Vec<Queued> = (0..MAX_QUEUED)
            .map(|_| Queued::join(&queued, MAX_QUEUED).expect("a place"))
            .collect();
        assert!(
            Queued::join(&queued, MAX_QUEUED).is_none(),
            "a place beyond the bound"
        );
        // the refused one took no place
        assert_eq!(queued.load(Ordering::Relaxed), MAX_QUEUED);
        drop(places);
        assert_eq!(queued.load(Ordering::Relaxed), 0);
        assert!(Queued::join(&queued, MAX_QUEUED).is_some());
    }

    /// GET `uri` from `app`, or `None` if no answer came within `wait`.
    async fn status_within(app: Router, uri: &str, wait: Duration) -> Option<StatusCode> {
        use tower::ServiceExt;
        let req = axum::http::Request::get(uri)
            .body(axum::body::Body::empty())
            .unwrap();
        tokio::time::timeout(wait, app.oneshot(req))
            .await
            .ok()
            .map(|r| r.unwrap().status())
    }

    #[tokio::test]
    async fn a_kept_report_does_not_wait_for_one_being_made() {
        let dir = three_stone_db();
        // generate kept every report: one removed has to be made again
        let reports = dir.path().join(crate::storage::dir::REPORT_DIR);
        let made_path = reports.join("3-3-0-0.mdb.json");
        std::fs::remove_file(&made_path).unwrap();
        let shared = Arc::new(Shared::new(
            Database::open(dir.path()).unwrap(),
            Options::default(),
        ));
        // a report being made holds the turn; the order of events is
        // checked, the long waits only guard against a hang
        let turn = shared.report_turn.try_acquire().unwrap();
        let guard = Duration::from_secs(120);
        let kept = status_within(routes(shared.clone()), "/api/stats/1-1/2-2", guard).await;
        assert_eq!(
            kept,
            Some(StatusCode::OK),
            "a kept report waited for the turn"
        );
        // the report to make waits while the turn is held, and is answered
        // once it is given back
        let app = routes(shared.clone());
        let made = tokio::spawn(async move { status_within(app, "/api/stats/3-3", guard).await });
        for _ in 0..20 {
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(
                !made.is_finished(),
                "a report was made while another held the turn"
            );
        }
        assert!(
            !made_path.exists(),
            "a report was made while another held the turn"
        );
        drop(turn);
        assert_eq!(made.await.unwrap(), Some(StatusCode::OK));
        assert!(made_path.is_file(), "the report made is kept");
        // waits are bounded: with every waiting place taken, a report that
        // is not made yet answers 202 at once, to be asked again
        let turn = shared.report_turn.try_acquire().unwrap();
        shared
            .report_waiters
            .store(MAX_REPORT_WAITERS, Ordering::Relaxed);
        std::fs::remove_file(reports.join("0-0-3-3.mdb.json")).unwrap();
        let r = response(routes(shared.clone()), "/api/stats/0-0/3-3").await;
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        assert_eq!(r.headers()[header::RETRY_AFTER], "5");
        shared.report_waiters.store(0, Ordering::Relaxed);
        drop(turn);
    }

    /// A 3-stone database (flying, no rule tables) in a new directory.
    fn three_stone_db() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let limits = crate::index::plan::Limits {
            max_stones: 3,
            max_total: 6,
            placement: true,
            move_limit: None,
        };
        let ix = crate::index::Indexer::new();
        let silent = &crate::build::generate::Silent;
        crate::build::generate::generate(dir.path(), Default::default(), limits, &ix, silent)
            .unwrap();
        dir
    }

    /// GET `uri` from `app`: the response (a hang guard of 60 s).
    async fn response(app: Router, uri: &str) -> Response {
        use tower::ServiceExt;
        let req = axum::http::Request::get(uri)
            .body(axum::body::Body::empty())
            .unwrap();
        tokio::time::timeout(Duration::from_secs(60), app.oneshot(req))
            .await
            .expect("an answer")
            .unwrap()
    }

    /// Searches have their own slots and queue: once both are full a move
    /// of a searching level is a 503 with Retry-After, while queries,
    /// health and the database's levels answer at once; the lookups' own
    /// queue, full, is a 503 with Retry-After too.
    #[tokio::test]
    async fn full_search_slots_and_queues_are_503s_that_starve_nothing_else() {
        let dir = three_stone_db();
        let options = Options {
            expert_nodes: 1000,
            searches: 1,
        };
        let shared = Arc::new(Shared::new(Database::open(dir.path()).unwrap(), options));
        let pos = "W.W.....B.......W....B.B%20w%200%200";
        let play = |level: &str| format!("/api/play?position={pos}&level={level}");
        // a search slot free: a move
        let r = response(routes(shared.clone()), &play("expert")).await;
        assert_eq!(r.status(), StatusCode::OK);
        // the slot taken and the queue full
        let slot = shared.searches.try_acquire().unwrap();
        shared
            .searches_queued
            .store(MAX_SEARCHES_QUEUED, Ordering::Relaxed);
        for level in ["simple", "hard", "expert"] {
            let r = response(routes(shared.clone()), &play(level)).await;
            assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{level}");
            assert_eq!(r.headers()[header::RETRY_AFTER], "1", "{level}");
        }
        // everything else answers meanwhile
        for uri in [
            "/api/health".to_string(),
            format!("/api/query?position={pos}"),
            play("perfect"),
            play("random"),
        ] {
            let r = response(routes(shared.clone()), &uri).await;
            assert_eq!(r.status(), StatusCode::OK, "{uri}");
        }
        // a place in the queue: the move waits for the slot, then is made
        shared.searches_queued.store(0, Ordering::Relaxed);
        let app = routes(shared.clone());
        let uri = play("hard");
        let waiting = tokio::spawn(async move { response(app, &uri).await.status() });
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(!waiting.is_finished(), "a search ran without a slot");
        }
        drop(slot);
        assert_eq!(waiting.await.unwrap(), StatusCode::OK);
        // the lookups' queue full and every permit taken: a 503 with Retry-After
        let permits = shared.busy.try_acquire_many(max_busy() as u32).unwrap();
        shared.queued.store(MAX_QUEUED, Ordering::Relaxed);
        let r = response(
            routes(shared.clone()),
            &format!("/api/query?position={pos}"),
        )
        .await;
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[header::RETRY_AFTER], "1");
        drop(permits);
    }

    /// Every answer, page, API or error, carries the security headers.
    #[tokio::test]
    async fn every_answer_carries_the_security_headers() {
        let dir = three_stone_db();
        let shared = Arc::new(Shared::new(
            Database::open(dir.path()).unwrap(),
            Options::default(),
        ));
        for uri in [
            "/",
            "/app.js",
            "/api/health",
            "/api/query?position=x",
            "/nothing",
        ] {
            let r = response(routes(shared.clone()), uri).await;
            let h = r.headers();
            assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
            assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{uri}");
            let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
            assert!(
                csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
                "{uri}: {csp}"
            );
        }
    }

    /// A client's bucket: BUCKET_SIZE requests at once, then one as tokens
    /// come back; another client has its own.
    #[test]
    fn a_client_spends_its_own_tokens() {
        let b = Buckets {
            by_client: Mutex::new(HashMap::new()),
        };
        let (one, two) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for k in 0..BUCKET_SIZE as usize {
            assert_eq!(b.take(one), Ok(()), "token {k}");
        }
        let wait = b.take(one).unwrap_err();
        assert!(wait >= 1, "{wait}");
        assert_eq!(b.take(two), Ok(()), "another client's bucket is full");
        std::thread::sleep(Duration::from_secs_f64(1.2 / BUCKET_REFILL));
        assert_eq!(b.take(one), Ok(()), "a token came back");
    }

    #[test]
    fn messages_are_bounded() {
        let m = bounded("é".repeat(5 * MAX_MESSAGE));
        assert_eq!(m.chars().count(), MAX_MESSAGE + 3, "{m}");
        assert_eq!(bounded("short".into()), "short");
    }
}
