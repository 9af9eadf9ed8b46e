//! Answering from a database: probes of single positions ([`query`]),
//! whole-table maps ([`wdl`]), the search over the placement phase
//! ([`opening`]), the value and move list of a position ([`answers`]), the
//! one policy of every front end ([`policy`]), perfect lines ([`line`](mod@line)), the
//! longest positions and histograms ([`records`]), and the JSON shapes of the
//! other commands ([`report`]).

pub mod answers;
pub mod line;
pub mod opening;
pub mod policy;
pub mod query;
pub mod records;
pub mod report;
pub mod wdl;
