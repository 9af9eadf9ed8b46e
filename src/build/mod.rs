//! Building and checking a database directory: a generation in units
//! ([`generate`]) and the forward check of every stored entry ([`verify`]).

pub mod complete;
pub mod generate;
pub mod verify;
