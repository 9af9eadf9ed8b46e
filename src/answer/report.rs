//! The JSON shapes the commands print (one object per line), as `Serialize`
//! types, so that every front end (the command line, a server) writes the same
//! fields. The answer to a query is [`crate::answer::answers::Answer`].

use crate::answer::answers::Source;
use crate::index::Subspace;
use crate::rules::moves::{self, Move};
use crate::rules::position::Position;
use crate::solve::value::{Counts, Value};
use serde::{Deserialize, Serialize};

/// A legal move and the position after it.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// The move in docs/RULES.md notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it.
    pub position: String,
}

/// `moves --json`: every legal move of a position.
#[derive(Clone, Debug, Serialize)]
pub struct MoveList {
    /// The position.
    pub position: String,
    /// Its legal moves, in generation order.
    pub moves: Vec<LegalMove>,
}

impl MoveList {
    /// The list of `moves` from `pos`.
    pub fn new(pos: &Position, list: &[Move]) -> MoveList {
        MoveList {
            position: pos.to_string(),
            moves: list
                .iter()
                .map(|&m| LegalMove {
                    mv: m.to_string(),
                    position: moves::apply(pos, m).to_string(),
                })
                .collect(),
        }
    }
}

/// `perft --json`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Perft {
    /// Plies searched.
    pub depth: u32,
    /// Positions at that depth.
    pub nodes: u64,
}

/// `subspaces --json`: the size of one movement subspace or placement sector.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SubspaceRow {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the other side on the board.
    pub opponent: u8,
    /// Stones the side to move has in hand (0 in the movement phase).
    pub mover_hand: u8,
    /// Stones the other side has in hand.
    pub opponent_hand: u8,
    /// Symmetry classes (positions up to the 16 symmetries).
    pub classes: u64,
    /// Slots of its index range.
    pub index_size: u64,
    /// `classes / index_size`, to 6 decimals.
    pub density: f64,
}

impl SubspaceRow {
    /// The row of `sub`.
    pub fn new(sub: Subspace, classes: u64, index_size: u64) -> SubspaceRow {
        let density = classes as f64 / index_size as f64;
        SubspaceRow {
            mover: sub.mover,
            opponent: sub.opponent,
            mover_hand: sub.mover_hand,
            opponent_hand: sub.opponent_hand,
            classes,
            index_size,
            density: (density * 1e6).round() / 1e6,
        }
    }
}

/// `stats --json`: one subspace's counts and file size.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct StatsRow {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the other side on the board.
    pub opponent: u8,
    /// Stones of the side to move in hand.
    pub mover_hand: u8,
    /// Stones of the other side in hand.
    pub opponent_hand: u8,
    /// Classes, wins, losses, draws, the same over every symmetric image
    /// (`all_*`), and the largest plies of a win and of a loss.
    #[serde(flatten)]
    pub counts: Counts,
    /// Entries of the index range.
    pub raw_bytes: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

impl StatsRow {
    /// The row of `sub` with `counts`, `entries` index slots and a file of `bytes`.
    pub fn new(sub: Subspace, counts: Counts, entries: u64, bytes: u64) -> StatsRow {
        StatsRow {
            mover: sub.mover,
            opponent: sub.opponent,
            mover_hand: sub.mover_hand,
            opponent_hand: sub.opponent_hand,
            counts,
            raw_bytes: entries,
            bytes,
        }
    }
}

/// `stats --rule --json`: one subspace's or sector's counts under the
/// no-removal rule at counter 0 (right after a removal or at the start), from
/// the headers of its table and of its rule table.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RuleStatsRow {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the other side on the board.
    pub opponent: u8,
    /// Stones of the side to move in hand.
    pub mover_hand: u8,
    /// Stones of the other side in hand.
    pub opponent_hand: u8,
    /// The move limit `L` of the rule.
    pub move_limit: u16,
    /// The counts.
    #[serde(flatten)]
    pub counts: RuleCounts,
}

/// Counts under the no-removal rule at counter 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleCounts {
    /// Canonical classes.
    pub classes: u64,
    /// Classes won under the rule, won without it but drawn with it (cursed),
    /// drawn either way, lost without it but drawn with it (blessed), lost
    /// under the rule.
    pub wins: u64,
    /// See `wins`.
    pub cursed_wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub blessed_losses: u64,
    /// See `wins`.
    pub losses: u64,
    /// The same over every symmetric image: positions.
    pub all_wins: u64,
    /// See `all_wins`.
    pub all_cursed_wins: u64,
    /// See `all_wins`.
    pub all_draws: u64,
    /// See `all_wins`.
    pub all_blessed_losses: u64,
    /// See `all_wins`.
    pub all_losses: u64,
    /// The largest `dtc` of a win and of a loss under the rule.
    pub max_win_dtc: u16,
    /// See `max_win_dtc`.
    pub max_loss_dtc: u16,
}

impl RuleCounts {
    /// The counts from those of a table (`plain`) and of its rule table
    /// (`rule`: wins and losses under the rule at counter 0, distances as
    /// plies); `None` when they cannot belong together (more wins or losses
    /// under the rule than without it, other classes or draws).
    pub fn new(plain: Counts, rule: Counts) -> Option<RuleCounts> {
        let cursed = plain.wins.checked_sub(rule.wins)?;
        let blessed = plain.losses.checked_sub(rule.losses)?;
        let fits = plain.classes == rule.classes && rule.draws == plain.draws + cursed + blessed;
        fits.then(|| RuleCounts {
            classes: plain.classes,
            wins: rule.wins,
            cursed_wins: cursed,
            draws: plain.draws,
            blessed_losses: blessed,
            losses: rule.losses,
            all_wins: rule.all_wins,
            all_cursed_wins: plain.all_wins.saturating_sub(rule.all_wins),
            all_draws: plain.all_draws,
            all_blessed_losses: plain.all_losses.saturating_sub(rule.all_losses),
            all_losses: rule.all_losses,
            max_win_dtc: rule.max_win,
            max_loss_dtc: rule.max_loss,
        })
    }
}

/// `verify --json`: the result of one subspace's table, the game's or (with
/// `move_limit`) a table of the no-removal rule.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct VerifyRow {
    /// Stones of the side to move on the board.
    pub mover: u8,
    /// Stones of the other side on the board.
    pub opponent: u8,
    /// Stones of the side to move in hand.
    pub mover_hand: u8,
    /// Stones of the other side in hand.
    pub opponent_hand: u8,
    /// Positions whose value was recomputed from their children (in a rule
    /// table, those the game decides).
    pub checked: u64,
    /// Entries that disagree with their children.
    pub mismatches: u64,
    /// For a table of the no-removal rule: its move limit (absent for the
    /// game's table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<u16>,
}

impl VerifyRow {
    /// The subspace or sector of the row.
    pub fn subspace(&self) -> Subspace {
        Subspace {
            mover: self.mover,
            opponent: self.opponent,
            mover_hand: self.mover_hand,
            opponent_hand: self.opponent_hand,
        }
    }
}

/// `solve-opening --json`.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningResult {
    /// The position solved.
    pub position: String,
    /// `win`, `draw` or `loss` for the side to move.
    pub value: &'static str,
    /// Plies to the end (`null` for a draw, or when not asked for).
    pub plies: Option<u16>,
    /// `"table"` or `"search"`.
    pub source: &'static str,
    /// Positions searched (0 when read from the tables).
    pub nodes: u64,
    /// Wall-clock seconds, to milliseconds.
    pub seconds: f64,
}

impl OpeningResult {
    /// The result `value` for `pos`; `plies` only when `exact`.
    pub fn new(
        pos: &Position,
        value: Value,
        exact: bool,
        source: Source,
        nodes: u64,
        seconds: f64,
    ) -> Self {
        OpeningResult {
            position: pos.to_string(),
            value: value.name(),
            plies: if exact { value.plies() } else { None },
            source: source.name(),
            nodes,
            seconds: (seconds * 1000.0).round() / 1000.0,
        }
    }
}

/// `solve-opening --compare`: the placement tables against the search on
/// random positions of random games.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The position the random games start from.
    pub start: String,
    /// The seed of the random games.
    pub seed: u64,
    /// Positions compared.
    pub positions: usize,
    /// Moves from them compared.
    pub moves: usize,
    /// Whether the plies were compared too (else win, draw or loss only).
    pub exact: bool,
    /// The positions where the two disagree.
    pub disagreements: Vec<Disagreement>,
    /// Wall-clock seconds of the table reads, to milliseconds.
    pub table_seconds: f64,
    /// Wall-clock seconds of the searches, to milliseconds.
    pub search_seconds: f64,
    /// Positions searched in all.
    pub nodes: u64,
}

/// A position where the tables and the search disagree.
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    /// The position.
    pub position: String,
    /// The tables' value: `win in 31`, `draw`, `loss in 12` (or `win`, `loss`
    /// when not exact).
    pub table: String,
    /// The search's value.
    pub search: String,
    /// Its moves whose values differ (or that one side lacks).
    pub moves_differing: usize,
}
