//! `millbase show`: draw a position, a finished game included.

use super::text::board;
use super::{Failure, PositionArgs, VariantArgs, bad_position};
use clap::Args;
use millbase::rules::generic::{End, Play};
use millbase::rules::moves;
use std::io::Write;

#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// Draw on the board and under the rules of a preset or a description
    /// (`millbase rules`): the position written with that board's points
    /// (default: its start), the moves of --moves played on it.
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["db", "no_flying"])]
    rules: Option<String>,
}

pub fn run(a: ShowArgs, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(r) = &a.rules {
        return show_on(&Play::new(super::rules_of(r)?), &a.position, out);
    }
    a.variant.check_board()?;
    let start = a.position.start(true)?;
    let variant = a.variant.variant()?;
    let game = a.position.game(start, variant)?;
    let pos = game.position();
    board(out, &pos)?;
    match game.result().filter(|_| !game.moves().is_empty()) {
        Some(r) => writeln!(out, "The game is over: {r}.")?,
        None => {
            if let Some(end) = moves::ending(&pos, variant) {
                writeln!(out, "{end}")?;
            }
        }
    }
    Ok(())
}

/// `show --rules`: the position (or the board's start) after the moves of
/// --moves, drawn from the board's description, and how the game ended.
fn show_on(play: &Play, at: &PositionArgs, out: &mut impl Write) -> Result<(), Failure> {
    let mut pos = match &at.position {
        Some(s) => play.parse(s).map_err(|e| bad_position(s, e))?,
        None => play.initial(),
    };
    let words = at.moves.as_deref().unwrap_or_default();
    let words = words
        .split([' ', ','])
        .filter(|w| !w.is_empty() && !w.ends_with('.'));
    for (k, word) in words.enumerate() {
        let legal = play.moves(&pos);
        let Some(&mv) = legal
            .iter()
            .find(|&&m| play.move_text(m).eq_ignore_ascii_case(word))
        else {
            let some: Vec<String> = legal.iter().take(8).map(|&m| play.move_text(m)).collect();
            return Err(Failure::input(format!(
                "move {} ({word}) is not legal here; legal moves include: {}",
                k + 1,
                if some.is_empty() {
                    "none, the game is over".into()
                } else {
                    some.join(" ")
                }
            )));
        };
        pos = play.apply(&pos, mv);
    }
    let (white, black) = if pos.white_to_move {
        (pos.mover, pos.opponent)
    } else {
        (pos.opponent, pos.mover)
    };
    let mark = |p: usize| match (white >> p & 1, black >> p & 1) {
        (1, _) => 'W',
        (_, 1) => 'B',
        _ => '.',
    };
    write!(out, "{}", play.rules().board().draw(mark))?;
    let (wh, bh) = if pos.white_to_move {
        (pos.mover_hand, pos.opponent_hand)
    } else {
        (pos.opponent_hand, pos.mover_hand)
    };
    let side = if pos.white_to_move { "White" } else { "Black" };
    writeln!(out, "{side} to move; in hand: White {wh}, Black {bh}")?;
    let text: String = (0..play.rules().board().len()).map(mark).collect();
    writeln!(
        out,
        "{text} {} {wh} {bh}",
        if pos.white_to_move { "w" } else { "b" }
    )?;
    match play.end(&pos) {
        Some(End::Lost) => writeln!(out, "{side} has lost.")?,
        Some(End::Drawn) => writeln!(out, "The game is drawn: the board is full.")?,
        None => {}
    }
    Ok(())
}
