//! Playing: a game with its history and end ([`game`]), the levels from a
//! random mover to perfect play and games between them ([`players`]),
//! the review of a game ([`review`]), and random positions from random
//! games ([`sample`]).

pub mod game;
pub mod players;
pub mod review;
pub mod sample;
