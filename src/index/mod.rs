//! Perfect-hash indexing of positions by subspace, folded by the 16 symmetries.
//!
//! A [`Subspace`] fixes the stones on board and in hand of the side to move
//! ("mover") and of the opponent. Inside it, a position `(M, O)` (mover's and
//! opponent's sets) has the index
//!
//! ```text
//! orbit(M*) * C(24 - |M|, |O|) + colex rank of O* squeezed into the points not in M*
//! ```
//!
//! where `M*` is the least image of `M` under the 16 symmetries, and `O*` the least
//! image of `O` under the symmetries that map `M` to `M*`. Mover sets with a
//! non-trivial stabiliser leave some slots whose decoded `O` is not the least of its
//! images: such slots are "not canonical" and decode to `None`.

pub mod plan;

mod combinatorics;
mod indexer;
mod subspace;

pub use combinatorics::*;
pub use indexer::*;
pub use subspace::*;

/// Position index inside a subspace.
pub type Index = u64;
