//! Playing: the levels from a random mover to perfect play and games
//! between them ([`players`]), the review of a game ([`review`]), and random
//! positions from random games ([`sample`]).

pub mod players;
pub mod review;
pub mod sample;
