//! millbase: a retrograde-analysis solver and database generator for Nine Men's
//! Morris (Mill, Mühle).
//!
//! The modules, each one concept, in the order the data flows (no module uses
//! one that uses it back; `tests/layers.rs` checks this):
//!
//! - [`rules`] (the variant and the stone counts) → [`geometry`] (points, mills,
//!   symmetries) → [`position`] (positions and their string form) → [`moves`]
//!   (forward move generation, perft) → [`index`] (subspaces, perfect hash of
//!   symmetry classes);
//! - [`value`] (values, table cells, counts) → [`solver`] (retrograde analysis
//!   of a movement pair), [`placement`] (the forward pass of a placement
//!   sector) and [`children`] (a value from the children's values) →
//!   [`counter`] (the no-removal rule: both solvers over other children);
//! - [`storage`] (the file format) → [`db`] (a database directory) →
//!   [`plan`]/[`generate`] (building one) and [`verify`] (checking one);
//! - [`query`] (probes) ← [`wdl`] (whole-table maps) ← [`opening`] (placement
//!   search) ← [`answer`] (value and move list, the JSON of `docs/RULES.md`);
//!   [`report`] holds the other commands' JSON shapes, [`records`] the longest
//!   positions and histograms; [`server`] (the web explorer) serves answers;
//! - [`game`] (a game: moves, counter, repetitions, its end) ← [`players`]
//!   (the levels, from a random mover to perfect play, and games between
//!   them).
//!
//! # Probing a database and walking a line
//!
//! ```
//! use millbase::generate::{generate, Silent};
//! use millbase::index::Indexer;
//! use millbase::plan::Limits;
//! use millbase::query::Database;
//! use millbase::{Position, Rules, Value};
//!
//! // build a tiny database (the 3-against-3 endgame; `millbase generate` builds
//! // the whole game), then open it
//! let dir = std::env::temp_dir().join(format!("millbase-crate-doc-{}", std::process::id()));
//! let limits = Limits { max_stones: 3, max_total: 6, placement: true, move_limit: None };
//! generate(&dir, Rules::default(), limits, &Indexer::new(), &Silent).unwrap();
//! let db = Database::open(&dir).unwrap();
//!
//! // the value of a position for the side to move, and of every move, best first
//! let pos: Position = "WW.....BB..........W.B.. w 0 0".parse().unwrap();
//! assert_eq!(db.probe(&pos).unwrap(), Value::Win(1));
//! let answer = db.answer(&pos).unwrap();
//! let best = &answer.moves[0];
//! assert_eq!((best.mv.to_string().as_str(), best.value), ("d6-g1xd3", Value::Loss(0)));
//!
//! // the perfect-play line from the other side's point of view
//! let other: Position = "WW.....BB..........W.B.. b 0 0".parse().unwrap();
//! let line = db.line(&other, 40).unwrap();
//! assert_eq!(line.value, Value::Win(1));
//! for step in &line.steps {
//!     println!("{} -> {}", step.mv, step.position);
//! }
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![warn(missing_docs)]

pub mod answer;
pub mod children;
pub mod counter;
pub mod db;
pub mod game;
pub mod generate;
pub mod geometry;
pub mod index;
pub mod moves;
pub mod opening;
pub mod placement;
pub mod plan;
pub mod players;
pub mod position;
pub mod query;
pub mod records;
pub mod report;
pub mod rules;
pub mod sample;
pub mod server;
pub mod solver;
pub mod storage;
pub mod value;
pub mod verify;
pub mod wdl;

pub use moves::Move;
pub use position::{Color, Position, PositionError};
pub use rules::Rules;
pub use value::Value;
