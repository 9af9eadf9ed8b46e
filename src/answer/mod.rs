//! Answering from a database: probes of single positions ([`query`]),
//! whole-table maps ([`wdl`]), the search over the placement phase
//! ([`opening`]), the value and move list of a position ([`policy`]), the
//! longest positions and histograms ([`records`]), and the JSON shapes of the
//! other commands ([`report`]).

pub mod opening;
pub mod policy;
pub mod query;
pub mod records;
pub mod report;
pub mod wdl;
