//! The web explorer (`millbase serve`): a JSON API over one open database and
//! the page that shows it, on axum and tokio.
//!
//! ```text
//! GET /api/query?position=POS[&counter=C]   the answer of `millbase query --json`
//! GET /api/mainline?position=POS   the perfect-play line (`millbase line --json`)
//! GET /api/stats                   counts of every subspace and sector
//! GET /api/stats/SECTOR            counts, histogram of plies, longest positions
//! GET /api/health                  the variant and the subspaces present
//! GET /  /stats  /app.js  /style.css   the page
//! ```
//!
//! Answers come from the tables only: a position whose placement sector the
//! database lacks is a 404, never a search of minutes. Errors are
//! `{"error": "..."}`: 400 for a malformed request, 404 for what the database
//! lacks, 500 for a damaged file (named). Every lookup runs on the blocking
//! pool, at most [`MAX_BUSY`] at a time; all requests share one [`Database`],
//! opened read-only.

use crate::answer::{Answer, Line};
use crate::index::{Indexer, Subspace};
use crate::position::Position;
use crate::query::{Database, QueryError};
use crate::records::{self, Histogram, Record};
use crate::report::StatsRow;
use crate::storage::StorageError;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// The longest query string accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 512;
/// Lookups running at once; more requests wait their turn.
pub const MAX_BUSY: usize = 8;
/// The longest drawn main line served, in plies (default 40).
pub const MAX_DRAW_PLIES: usize = 400;
/// Longest wins and losses listed per sector.
const LONGEST: usize = 5;

const INDEX_HTML: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const STYLE_CSS: &str = include_str!("../web/style.css");

/// What every handler shares.
struct Shared {
    db: Database,
    ix: Indexer,
    busy: Semaphore,
    /// Sector reports by sector: computed once (a whole table is read).
    sector_reports: Mutex<HashMap<Subspace, Arc<SectorReport>>>,
}

/// An API error: the status and a message naming the problem.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
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
        (
            self.status,
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        let status = match &e {
            QueryError::PlacementPhase(_) => StatusCode::NOT_FOUND,
            QueryError::Counter(_) => StatusCode::BAD_REQUEST,
            QueryError::Storage(s) => storage_status(s),
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(e: crate::db::DbError) -> ApiError {
        let status = match &e {
            crate::db::DbError::Storage(s) => storage_status(s),
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

/// `?position=POS` (and `max_plies` for the main line).
#[derive(Deserialize)]
struct PositionParams {
    position: Option<String>,
    counter: Option<String>,
    max_plies: Option<String>,
}

impl PositionParams {
    /// `counter`, if given.
    fn counter(&self) -> Result<Option<u16>, ApiError> {
        self.counter
            .as_deref()
            .map(|t| {
                t.parse::<u16>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "counter: {t:?} is not a number of plies since the last removal"
                    ))
                })
            })
            .transpose()
    }

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

/// The parameters of a request, or a 400 naming what is wrong with them.
fn params(q: Result<Query<PositionParams>, QueryRejection>) -> Result<PositionParams, ApiError> {
    q.map(|Query(p)| p)
        .map_err(|e| ApiError::bad_request(format!("query string: {}", e.body_text())))
}

/// Runs `f` on the blocking pool, at most [`MAX_BUSY`] at a time; a panic is a
/// 500, never a dropped connection.
async fn blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    f: impl FnOnce(&Shared) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = shared
        .busy
        .acquire()
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down"))?;
    let s = shared.clone();
    tokio::task::spawn_blocking(move || f(&s))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("lookup failed: {e}"),
            )
        })?
}

async fn query(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<Answer>, ApiError> {
    let p = params(q)?;
    let (pos, counter) = (p.position()?, p.counter()?);
    let answer = blocking(&shared, move |s| {
        // under the no-removal rule where the database has its tables
        Ok(match (counter, s.db.move_limit()) {
            (Some(c), _) => s.db.answer_at(&pos, c)?,
            (None, Some(_)) => s.db.answer_at(&pos, 0)?,
            (None, None) => s.db.answer_from_tables(&pos)?,
        })
    })
    .await?;
    Ok(Json(answer))
}

async fn mainline(
    State(shared): State<Arc<Shared>>,
    q: Result<Query<PositionParams>, QueryRejection>,
) -> Result<Json<Line>, ApiError> {
    let p = params(q)?;
    let pos = p.position()?;
    let max = match p.max_plies.as_deref() {
        None => 40,
        Some(t) => t
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= MAX_DRAW_PLIES)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "max_plies: {t:?} is not a number from 0 to {MAX_DRAW_PLIES}"
                ))
            })?,
    };
    let line = blocking(&shared, move |s| Ok(s.db.line_from_tables(&pos, max)?)).await?;
    Ok(Json(line))
}

async fn stats(State(shared): State<Arc<Shared>>) -> Result<Json<Vec<StatsRow>>, ApiError> {
    let rows = blocking(&shared, |s| {
        let dir = s.db.dir();
        dir.present()
            .into_iter()
            .map(|sub| {
                let t = dir.open_table(sub)?;
                Ok(StatsRow::new(
                    sub,
                    t.header.counts,
                    t.header.entries,
                    t.file_len(),
                ))
            })
            .collect::<Result<Vec<_>, StorageError>>()
            .map_err(|e| ApiError::new(storage_status(&e), e.to_string()))
    })
    .await?;
    Ok(Json(rows))
}

/// `GET /api/stats/SECTOR`.
#[derive(Clone, Debug, Serialize)]
pub struct SectorReport {
    /// The subspace or sector, as `M-O` or `M-O/MH-OH`.
    pub sector: String,
    /// Its counts and file size.
    pub counts: StatsRow,
    /// Classes by plies.
    pub histogram: Histogram,
    /// Its longest wins for the side to move, longest first.
    pub longest_wins: Vec<Record>,
    /// Its longest losses, longest first.
    pub longest_losses: Vec<Record>,
}

async fn sector_stats(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Json<SectorReport>, ApiError> {
    let sub: Subspace = name
        .parse()
        .map_err(|e: crate::index::SubspaceParseError| ApiError::bad_request(e.to_string()))?;
    let report = blocking(&shared, move |s| {
        if let Some(r) = lock(&s.sector_reports).get(&sub) {
            return Ok(r.clone());
        }
        let dir = s.db.dir();
        let table = dir.open_table(sub).map_err(|e| {
            let status = storage_status(&e);
            ApiError::new(status, e.to_string())
        })?;
        let (records, histogram) = records::records_and_histogram(dir, &s.ix, sub, LONGEST)?;
        let r = Arc::new(SectorReport {
            sector: sub.to_string(),
            counts: StatsRow::new(
                sub,
                table.header.counts,
                table.header.entries,
                table.file_len(),
            ),
            histogram,
            longest_wins: records.longest_wins,
            longest_losses: records.longest_losses,
        });
        lock(&s.sector_reports).insert(sub, r.clone());
        Ok(r)
    })
    .await?;
    Ok(Json((*report).clone()))
}

/// `GET /api/health`.
#[derive(Serialize)]
struct Health {
    status: &'static str,
    rules: &'static str,
    sectors: Vec<String>,
}

async fn health(State(shared): State<Arc<Shared>>) -> Result<Json<Health>, ApiError> {
    let sectors = blocking(&shared, |s| {
        Ok(s.db.dir().present().iter().map(|x| x.to_string()).collect())
    })
    .await?;
    Ok(Json(Health {
        status: "ok",
        rules: shared.db.rules().name(),
        sectors,
    }))
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

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The explorer's routes over `db`.
pub fn router(db: Database) -> Router {
    let shared = Arc::new(Shared {
        db,
        ix: Indexer::new(),
        busy: Semaphore::new(MAX_BUSY),
        sector_reports: Mutex::new(HashMap::new()),
    });
    let page = || async { asset("text/html; charset=utf-8", INDEX_HTML) };
    Router::new()
        .route("/api/query", get(query))
        .route("/api/mainline", get(mainline))
        .route("/api/stats", get(stats))
        .route("/api/stats/{*sector}", get(sector_stats))
        .route("/api/health", get(health))
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
        .with_state(shared)
}

/// Serves `db` on `listener` until `shutdown` completes, then finishes the
/// requests in flight.
pub async fn serve(
    db: Database,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // answers are small: send them at once (no Nagle delay against the
    // client's delayed acknowledgement)
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router(db))
        .with_graceful_shutdown(shutdown)
        .await
}
