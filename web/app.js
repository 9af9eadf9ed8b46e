// millbase explorer: a game on the board with its history, every move's value
// from /api/query, play against a level (/api/play), the review of a game
// (/api/review), and the statistics pages. No build step: this file is
// served as it is.
"use strict";

const POINTS = ["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
  "e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"];
const LINES = [["a1", "g1"], ["b2", "f2"], ["c3", "e3"], ["a4", "c4"], ["e4", "g4"],
  ["c5", "e5"], ["b6", "f6"], ["a7", "g7"], ["a1", "a7"], ["b2", "b6"], ["c3", "c5"],
  ["d1", "d3"], ["d5", "d7"], ["e3", "e5"], ["f2", "f6"], ["g1", "g7"]];
// the initial position of the largest game the database holds (/api/health)
let START = "........................ w 9 9";
// on a database without the 9-stone game, a decided position the page opens
// with, its own start being a wall of draws (/api/health)
let OPENING = null;
const SVG = "http://www.w3.org/2000/svg";
const MOVE_LIMIT = 100;

const $ = (id) => document.getElementById(id);

// The game: a start position and its counter, the moves played, and how
// many of them the board shows (fewer while stepping back through them).
const state = {
  start: START,
  counter: 0,
  moves: [],
  cursor: 0,
  answer: null,      // the /api/query answer of the position shown
  from: null,        // a selected stone to move
  to: null,          // a chosen target whose moves remove a stone
  editing: false,
  position: START,   // the position shown (while editing: the one edited)
  busy: false,
  flipped: false,
  token: 0,          // changes with the game: an answer for an older one is dropped
  review: null,      // the review of the game, while shown
  seed: Math.floor(Math.random() * 1e9),
};

function xy(name) {
  const x = name.charCodeAt(0) - 97, y = 7 - Number(name[1]);
  return state.flipped ? [6 - x, 6 - y] : [x, y];
}

function parsePosition(text) {
  const f = text.trim().split(/\s+/);
  return { board: f[0].split(""), side: f[1], white: Number(f[2]), black: Number(f[3]) };
}

function positionString(p) {
  return `${p.board.join("")} ${p.side} ${p.white} ${p.black}`;
}

function parseMove(m) {
  const r = /^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$/.exec(m);
  if (!r) return null;
  return r[2] ? { from: r[1], to: r[2], remove: r[3] || null } : { from: null, to: r[1], remove: r[3] || null };
}

function showError(message) {
  const e = $("error");
  e.textContent = message || "";
  e.hidden = !message;
}

async function api(path) {
  const r = await fetch(path);
  let body;
  try { body = await r.json(); } catch (_) { body = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) throw new Error(body.error || `${r.status}`);
  return body;
}

// ---- words ---------------------------------------------------------------

const sideName = (s) => (s === "w" || s === "white" ? "White" : "Black");
const other = (s) => (s === "w" ? "b" : "w");

function plies(n) { return `${n} ${n === 1 ? "ply" : "plies"}`; }

function valueText(value, n) {
  if (value === "win") return `wins in ${plies(n)}`;
  if (value === "loss") return n === 0 ? "has lost" : `loses in ${plies(n)}`;
  return "draws";
}

// what a move does for the side making it, from the value after it
function moveOutcome(m) {
  if (m.value === "loss") return { kind: "win", text: m.plies === 0 ? "wins at once" : `wins in ${m.plies}` };
  if (m.value === "win") return { kind: "loss", text: `loses in ${m.plies}` };
  return { kind: "draw", text: "draws" };
}

// the mover's category under the no-removal rule, from the one after the move
const MOVER_CATEGORY = {
  loss: "win", "blessed-loss": "cursed win", draw: "draw", "cursed-win": "blessed loss", win: "loss",
};

// the badge of a move under the no-removal rule: its category for the mover
// and the plies to the next removal or the end (dtc); none for a plain draw
function badgeText(m) {
  if (!m.category || m.category === "draw") return "";
  const c = MOVER_CATEGORY[m.category];
  return m.dtc === null || m.dtc === undefined ? c : `${c}, dtc ${m.dtc}`;
}

// who has won a finished game and why, in words
function gameOverText(result, side) {
  if (!result) return "";
  if (result.reason === "repetition") return "Draw: the same position stands for the third time.";
  if (result.reason === "no-removal") return `Draw: ${MOVE_LIMIT} plies without a removal.`;
  const winner = sideName(result.winner || other(side));
  const loser = sideName(result.winner ? (result.winner === "white" ? "b" : "w") : side);
  if (result.reason === "stones") return `${loser} has fewer than 3 stones: ${winner} has won.`;
  return `${loser} cannot move: ${winner} has won.`;
}

// the moves as players write them: "1. d1 a1 2. d2", from the side to move at the start
function numbered(moves, startSide) {
  let n = 1, out = [];
  let side = startSide;
  moves.forEach((m, i) => {
    if (side === "w") out.push(`${n}. ${m}`);
    else out.push(i === 0 ? `${n}... ${m}` : m);
    if (side === "b") n++;
    side = other(side);
  });
  return out.join(" ");
}

// ---- the board -----------------------------------------------------------

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const add = (tag, attrs) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.appendChild(el);
    return el;
  };
  for (const [a, b] of LINES) {
    const [x1, y1] = xy(a), [x2, y2] = xy(b);
    add("line", { x1, y1, x2, y2 });
  }
  for (let c = 0; c < 7; c++) {
    const file = "abcdefg"[c], rank = String(c + 1);
    const [fx] = xy(`${file}1`), [, ry] = xy(`a${rank}`);
    add("text", { x: fx - 0.08, y: 6.82, class: "label" }).textContent = file;
    add("text", { x: -0.68, y: ry + 0.1, class: "label" }).textContent = rank;
  }
  const p = parsePosition(state.position);
  // stones in hand: White's below the board, Black's above (turned with it)
  for (const [side, n] of [["w", p.white], ["b", p.black]]) {
    const bottom = (side === "w") !== state.flipped;
    for (let i = 0; i < n; i++) {
      add("circle", { cx: 0.35 + 0.62 * i, cy: bottom ? 7.3 : -1.1, r: 0.24,
        class: `stone hand ${side === "w" ? "white" : "black"}`, "data-hand": side });
    }
  }
  const moves = legalMoves();
  const removable = new Set(state.to ? moves.filter((m) => m.to === state.to && m.from === state.from && m.remove).map((m) => m.remove) : []);
  const targets = new Set(state.from ? moves.filter((m) => m.from === state.from).map((m) => m.to) : []);
  const last = !state.editing && state.cursor > 0 ? parseMove(state.moves[state.cursor - 1]) : null;
  POINTS.forEach((name, i) => {
    const [x, y] = xy(name);
    add("circle", { cx: x, cy: y, r: 0.1, class: "point" });
    if (last && last.from === name) add("circle", { cx: x, cy: y, r: 0.2, class: "last-from" });
    const c = p.board[i];
    if (c === "W" || c === "B") {
      let cls = `stone ${c === "W" ? "white" : "black"}`;
      if (state.from === name) cls += " selected";
      if (removable.has(name)) cls += " removable";
      if (last && last.to === name) cls += " last";
      add("circle", { cx: x, cy: y, r: 0.32, class: cls, "data-stone": name });
    } else if (targets.has(name) || state.to === name) {
      add("circle", { cx: x, cy: y, r: 0.2, class: "target" });
    }
    if (last && last.remove === name) {
      add("path", { d: `M${x - 0.2} ${y - 0.2}L${x + 0.2} ${y + 0.2}M${x + 0.2} ${y - 0.2}L${x - 0.2} ${y + 0.2}`, class: "removed", "data-removed": name });
    }
    const hit = add("circle", { cx: x, cy: y, r: 0.45, class: "hit", "data-point": name });
    hit.addEventListener("click", () => clickPoint(name));
  });
  let hint = "";
  if (state.editing) hint = "Editing: click points to cycle empty, white, black.";
  else if (computerToMove()) hint = "The computer is thinking...";
  else if (state.to) hint = "Choose a stone to remove.";
  else if (state.from) hint = `Move the stone on ${state.from}: choose where.`;
  $("hint").textContent = hint;
}

function legalMoves() {
  if (!state.answer || state.editing || gameResult()) return [];
  return state.answer.moves.map((m) => ({ ...parseMove(m.move), entry: m }));
}

function clickPoint(name) {
  if (state.busy) return;
  if (state.editing) return editPoint(name);
  if (computerToMove()) return;
  const moves = legalMoves();
  if (state.to) {
    // choosing the stone a mill removes
    const m = moves.find((m) => m.from === state.from && m.to === state.to && m.remove === name);
    if (m) return play(m.entry.move);
    state.to = null; state.from = null;
    return drawBoard();
  }
  const ending = moves.filter((m) => m.to === name && m.from === state.from);
  if (ending.length > 0) {
    if (ending.length === 1 && !ending[0].remove) return play(ending[0].entry.move);
    state.to = name;
    return drawBoard();
  }
  if (moves.some((m) => m.from === name)) {
    state.from = state.from === name ? null : name;
    return drawBoard();
  }
  // an illegal click changes nothing (but drops a selection)
  if (state.from) { state.from = null; drawBoard(); }
}

// ---- the game ------------------------------------------------------------

function gameUrl() {
  const q = new URLSearchParams();
  q.set("position", state.start);
  if (state.moves.length > 0) q.set("moves", state.moves.join(" "));
  if (state.cursor < state.moves.length) q.set("ply", String(state.cursor));
  if (state.counter > 0) q.set("counter", String(state.counter));
  return `/?${q.toString()}`;
}

function apiQuery(path, moves) {
  const q = new URLSearchParams();
  q.set("position", state.start);
  q.set("moves", moves.join(" "));
  if (state.counter > 0) q.set("counter", String(state.counter));
  return `${path}?${q.toString()}`;
}

function gameResult() {
  const a = state.answer;
  if (!a) return null;
  if (a.game && a.game.result) return a.game.result;
  return a.result || null;
}

function versus() { return $("versus").checked; }

function computerToMove() {
  return versus() && !state.editing && state.answer && !gameResult() &&
    state.cursor === state.moves.length &&
    parsePosition(state.position).side !== $("human").value;
}

// Loads the position after `state.cursor` moves; `push`: "push" or "replace"
// the browser's history entry, or neither.
async function load(push) {
  const token = ++state.token;
  state.busy = true;
  state.from = null; state.to = null;
  try {
    const answer = await api(apiQuery("/api/query", state.moves.slice(0, state.cursor)));
    if (token !== state.token) return;
    state.answer = answer;
    state.position = answer.position;
    showError("");
    if (push === "push") history.pushState(null, "", gameUrl());
    else if (push === "replace") history.replaceState(null, "", gameUrl());
  } catch (e) {
    if (token !== state.token) return;
    showError(e.message);
    state.answer = null;
    state.busy = false;
    render();
    return;
  }
  state.busy = false;
  render();
  computerMove(token);
}

// Plays `move` at the cursor: the moves after it are dropped.
function play(move) {
  state.moves = state.moves.slice(0, state.cursor);
  state.moves.push(move);
  state.cursor = state.moves.length;
  $("notice").textContent = "";
  closeReview();
  return load("push");
}

function playBest() {
  if (computerToMove() || !state.answer || gameResult() || state.answer.moves.length === 0) return;
  play(state.answer.moves[0].move);
}

// The computer's reply, if it is its turn in the game loaded as `token`.
async function computerMove(token) {
  if (!computerToMove() || token !== state.token) return;
  const level = $("level").value;
  const q = new URLSearchParams(apiQuery("/api/play", state.moves).split("?")[1]);
  q.set("level", level);
  q.set("seed", String(state.seed + state.moves.length));
  drawBoard();
  try {
    const reply = await api(`/api/play?${q.toString()}`);
    // the game changed meanwhile (undo, new game, a click): drop the reply
    if (token !== state.token || !computerToMove()) return;
    state.moves.push(reply.move);
    state.cursor = state.moves.length;
    $("notice").textContent = `The computer (${level}) played ${reply.move}.`;
    await load("push");
  } catch (e) {
    if (token === state.token) showError(e.message);
  }
}

// Takes back the last move, and against the computer its reply as well, so
// that it is the player's turn again.
function undo() {
  state.moves = state.moves.slice(0, state.cursor);
  if (state.moves.length === 0) return;
  state.moves.pop();
  if (versus()) {
    const human = $("human").value;
    // whose turn it is after the moves left: count from the start's side
    const sideAfter = (n) => (n % 2 === 0 ? parsePosition(state.start).side : other(parsePosition(state.start).side));
    if (sideAfter(state.moves.length) !== human && state.moves.length > 0) state.moves.pop();
  }
  state.cursor = state.moves.length;
  $("notice").textContent = "";
  closeReview();
  load("push");
}

function newGame(start, moves, counter) {
  state.start = start;
  state.moves = moves || [];
  state.cursor = state.moves.length;
  state.counter = counter || 0;
  state.seed = Math.floor(Math.random() * 1e9);
  $("notice").textContent = "";
  closeReview();
  return load("push");
}

// ---- rendering -----------------------------------------------------------

function render() {
  drawBoard();
  const p = parsePosition(state.position);
  $("position-text").textContent = state.position;
  $("status").textContent = `${sideName(p.side)} to move. In hand: White ${p.white}, Black ${p.black}.`;
  const a = state.answer;
  let value = "";
  if (a) {
    value = `${sideName(p.side)} ${valueText(a.value, a.plies)}`;
    if (a.category && (a.category === "cursed-win" || a.category === "blessed-loss")) {
      value += ` (a ${a.category.replace("-", " ")}: a draw under the ${MOVE_LIMIT}-ply no-removal rule)`;
    }
  }
  $("value").textContent = value;
  renderCounter();
  const over = gameResult();
  $("game-over").hidden = !over;
  $("game-over").textContent = gameOverText(over, p.side);
  renderMoves(over);
  renderHistory();
  $("game-text").value = gameText();
  $("mainline").replaceChildren();
  document.body.classList.toggle("hide-values", !$("show-values").checked);
}

function renderCounter() {
  const a = state.answer;
  const c = a && a.game ? a.game.counter : null;
  $("counter-text").textContent = c === null ? "" :
    `Counter: ${plies(c)} since the last removal (${MOVE_LIMIT} make a draw); this position seen ${a.game.repetitions === 1 ? "once" : `${a.game.repetitions} times`}.`;
  $("counter-input").value = String(state.counter);
}

function renderMoves(over) {
  const list = $("moves");
  list.replaceChildren();
  const a = state.answer;
  if (!a || over || state.editing) return;
  const showValues = $("show-values").checked;
  const groups = showValues
    ? [["win", "Winning moves"], ["draw", "Drawing moves"], ["loss", "Losing moves"]]
    : [[null, "Legal moves"]];
  for (const [kind, title] of groups) {
    const group = kind ? a.moves.filter((m) => moveOutcome(m).kind === kind) : [...a.moves].sort((x, y) => x.move.localeCompare(y.move));
    if (group.length === 0) continue;
    const g = document.createElement("div");
    g.className = "group";
    const h = document.createElement("h3");
    h.textContent = `${title} (${group.length})`;
    g.appendChild(h);
    for (const m of group) {
      const row = document.createElement("div");
      row.className = `move ${kind || "plain"}`;
      row.dataset.move = m.move;
      const name = document.createElement("span");
      name.textContent = m.move;
      row.appendChild(name);
      if (showValues) {
        const badge = badgeText(m);
        if (badge) {
          const b = document.createElement("span");
          b.className = `badge ${MOVER_CATEGORY[m.category].replace(" ", "-")}`;
          b.textContent = badge;
          row.appendChild(b);
        }
        const out = document.createElement("span");
        out.className = "outcome";
        out.textContent = moveOutcome(m).text;
        row.appendChild(out);
      }
      row.addEventListener("click", () => { if (!computerToMove()) play(m.move); });
      g.appendChild(row);
    }
    list.appendChild(g);
  }
}

function renderHistory() {
  const ol = $("history");
  ol.replaceChildren();
  let side = parsePosition(state.start).side;
  let li = null, n = 1;
  state.moves.forEach((m, i) => {
    if (!li || side === "w") {
      li = document.createElement("li");
      li.value = n;
      ol.appendChild(li);
      if (side === "b") li.append("... ");
    }
    const span = document.createElement("span");
    span.className = "ply" + (i === state.cursor - 1 ? " last" : "") + (i >= state.cursor ? " ahead" : "");
    span.dataset.ply = String(i + 1);
    span.textContent = m;
    span.addEventListener("click", () => goTo(i + 1));
    li.append(span, " ");
    if (side === "b") { n++; li = null; }
    side = other(side);
  });
}

// Shows the position after `ply` moves of the game (the moves stay).
function goTo(ply) {
  state.cursor = Math.max(0, Math.min(ply, state.moves.length));
  if (state.review) renderReview();
  return load("replace");
}

function gameText() {
  const record = numbered(state.moves, parsePosition(state.start).side);
  return state.start === START && state.counter === 0 ? record : `${state.start}\n${record}`;
}

// A game pasted as text: an optional start position, then the moves.
async function loadGameText(text) {
  const t = text.trim();
  const m = /^([WB.]{24}\s+[wb]\s+\d\s+\d)\s*([\s\S]*)$/.exec(t);
  const start = m ? m[1].replace(/\s+/g, " ") : START;
  const rest = m ? m[2] : t;
  const moves = rest.split(/[\s,]+/).filter((w) => w && !/^\d+\.+$/.test(w)).map((w) => w.replace(/^\d+\.+/, "").toLowerCase());
  // a game that cannot be played is refused, the one on the board kept
  const q = new URLSearchParams();
  q.set("position", start);
  q.set("moves", moves.join(" "));
  try {
    await api(`/api/query?${q.toString()}`);
  } catch (e) {
    showError(`That game cannot be loaded: ${e.message}`);
    return;
  }
  newGame(start, moves, 0);
}

async function showMainline() {
  try {
    const line = await api(apiQuery("/api/mainline", state.moves.slice(0, state.cursor)));
    const ol = $("mainline");
    ol.replaceChildren();
    for (const step of line.line) {
      const li = document.createElement("li");
      li.textContent = `${step.move}  (${step.value}${step.plies === null ? "" : " " + step.plies})`;
      ol.appendChild(li);
    }
    if (line.line.length === 0) ol.textContent = "No moves: the game is over.";
  } catch (e) { showError(e.message); }
}

// ---- review --------------------------------------------------------------

// An error beside the review's controls, where the person looking at them
// sees it (on a phone too); the page's own error line stays for the rest.
function showReviewError(message) {
  const e = $("review-error");
  e.textContent = message || "";
  e.hidden = !message;
}

async function openReview() {
  if (state.moves.length === 0) { showReviewError("Play some moves first: the review judges each move of the game."); return; }
  try {
    state.review = await api(apiQuery("/api/review", state.moves));
    showReviewError("");
    $("review").hidden = false;
    renderReview();
  } catch (e) { showReviewError(`The review failed: ${e.message}`); }
}

function closeReview() {
  state.review = null;
  $("review").hidden = true;
  showReviewError("");
}

// A standing from the API, from the mover's side: "win in 7", "draw", and
// under the no-removal rule a cursed win or blessed loss named.
function standingText(s) {
  const plain = s.value === "draw" ? "draw" : `${s.value} in ${s.plies}`;
  const ruled = s.category && (s.category === "cursed-win" || s.category === "blessed-loss");
  return ruled ? `${plain}, a draw under the no-removal rule (${s.category})` : plain;
}

// What a mark means for the side that made the move: a kept win that is
// not the fastest is slower, a kept loss that is not the slowest is faster.
function markWords(m) {
  if (m.mark !== "keeps") return m.mark;
  return m.before.value === "loss" ? "keeps the result, loses sooner" : "keeps the result, slower";
}

// The outcome for White of a standing from the mover's side.
function forWhite(side, s) {
  const kind = s.category === "cursed-win" || s.category === "blessed-loss" ? "draw" : s.value;
  if (kind === "draw" || side === "white") return kind;
  return kind === "win" ? "loss" : "win";
}

// Under the no-removal rule a win is played fastest to its next removal
// (dtc): where a best move is not the one that ends the game soonest, say so.
function soonerText(m) {
  if (!m.sooner) return "";
  const by = m.sooner.after.value === "loss" ? "ends later" : "ends sooner";
  return ` (best by the rule: the next removal in ${m.dtc} plies, as fast as any; ${m.sooner.move} ${by}: ${standingText(m.sooner.after)})`;
}

// The distances to the next removal that ranked a move below the best.
function dtcText(m) {
  return m.dtc !== null && m.best_dtc !== null ? ` (next removal in ${m.best_dtc} plies, this move ${m.dtc})` : "";
}

function renderReview() {
  const r = state.review;
  if (!r) return;
  const sum = (c) => Object.entries(r.summary[c]).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(", ") || "no moves";
  $("review-summary").textContent = `White: ${sum("white")}. Black: ${sum("black")}.`;
  const strip = $("review-strip");
  strip.replaceChildren();
  const ol = $("review-moves");
  ol.replaceChildren();
  r.moves.forEach((m) => {
    // the API gives `before` and `after` from the mover's side; the strip
    // shows the outcome after each ply for White
    const cell = document.createElement("div");
    cell.className = `cell ${forWhite(m.side, m.after)} ${m.mark}` + (m.ply === state.cursor ? " current" : "");
    cell.dataset.ply = String(m.ply);
    cell.title = `${m.ply}. ${m.move}: ${markWords(m)}`;
    cell.addEventListener("click", () => goTo(m.ply));
    strip.appendChild(cell);
    const li = document.createElement("li");
    li.className = `reviewed ${m.mark}` + (m.ply === state.cursor ? " current" : "");
    li.dataset.ply = String(m.ply);
    li.textContent = `${sideName(m.side)} ${m.move}: ${markWords(m)}` +
      (m.mark === "best" ? soonerText(m) : ` (${standingText(m.before)} before, ${standingText(m.after)} after${m.best ? `; best was ${m.best}${dtcText(m)}` : ""})`);
    li.addEventListener("click", () => goTo(m.ply));
    ol.appendChild(li);
  });
}

// ---- the editor ----------------------------------------------------------

function editPoint(name) {
  const p = parsePosition(state.position);
  const i = POINTS.indexOf(name);
  p.board[i] = { ".": "W", W: "B", B: "." }[p.board[i]];
  setEdited(p);
}

function setEdited(p) {
  state.position = positionString(p);
  state.answer = null;
  showError("");
  history.replaceState(null, "", `/?position=${encodeURIComponent(state.position)}`);
  render();
}

function readEditorFields(p) {
  p.side = $("ed-side").value;
  p.white = Math.max(0, Math.min(9, Number($("ed-wh").value) || 0));
  p.black = Math.max(0, Math.min(9, Number($("ed-bh").value) || 0));
  return p;
}

function toggleEditor(on) {
  state.editing = on;
  state.token++;
  $("editor").hidden = !on;
  $("edit-toggle").textContent = on ? "Stop editing" : "Edit board";
  showError("");
  if (on) {
    const p = parsePosition(state.position);
    $("ed-side").value = p.side; $("ed-wh").value = p.white; $("ed-bh").value = p.black;
    state.from = null; state.to = null;
    closeReview();
    render();
  } else {
    newGame(state.position, [], 0);
  }
}

// ---- statistics ----------------------------------------------------------

async function showStats() {
  const params = new URLSearchParams(location.search);
  const sector = params.get("sector");
  try {
    const list = await api("/api/stats");
    const rows = list.tables;
    if (list.damaged.length > 0) showError(`Damaged: ${list.damaged.map((d) => `${d.file} (${d.error})`).join("; ")}`);
    const body = $("stats-table").querySelector("tbody");
    body.replaceChildren();
    for (const r of rows) {
      const name = r.mover_hand + r.opponent_hand === 0 ? `${r.mover}-${r.opponent}` : `${r.mover}-${r.opponent}/${r.mover_hand}-${r.opponent_hand}`;
      const tr = document.createElement("tr");
      const cells = [r.classes, r.wins, r.draws, r.losses, r.max_win_plies, r.max_loss_plies, r.bytes];
      const a = document.createElement("a");
      a.href = `/stats?sector=${encodeURIComponent(name)}`;
      a.textContent = name;
      const td = document.createElement("td");
      td.appendChild(a);
      tr.appendChild(td);
      cells.forEach((c, i) => {
        const d = document.createElement("td");
        d.textContent = Number(c).toLocaleString("en");
        if (i === cells.length - 1) d.className = "wide";
        tr.appendChild(d);
      });
      body.appendChild(tr);
    }
    if (sector) await showSector(sector);
  } catch (e) { showError(e.message); }
}

// A histogram of counts by plies, with axes: ply ticks below, counts at the
// left, and each bar's count above it where there is room.
function histogram(list, kind) {
  const W = 600, H = 200, left = 56, bottom = 34, top = 16;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", `histogram ${kind}`);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.appendChild(el);
    return el;
  };
  if (list.length === 0) { add("text", { x: left, y: H / 2 }, "none"); return svg; }
  const maxPly = Math.max(...list.map((x) => x[0]));
  const most = Math.max(1, ...list.map((x) => x[1]));
  const slots = maxPly + 1;
  const bw = (W - left - 8) / slots;
  const y = (c) => H - bottom - ((H - bottom - top) * c) / most;
  add("line", { x1: left, y1: H - bottom, x2: W - 4, y2: H - bottom, class: "axis" });
  add("line", { x1: left, y1: top, x2: left, y2: H - bottom, class: "axis" });
  for (const c of [0, most / 2, most]) {
    add("text", { x: left - 6, y: y(c) + 4, class: "tick", "text-anchor": "end" }, Math.round(c).toLocaleString("en"));
  }
  const step = Math.max(1, Math.ceil(slots / 12));
  for (let n = 0; n <= maxPly; n += step) {
    add("text", { x: left + (n + 0.5) * bw, y: H - bottom + 16, class: "tick", "text-anchor": "middle" }, String(n));
  }
  add("text", { x: (W + left) / 2, y: H - 2, class: "axis-title", "text-anchor": "middle" }, "plies to the end");
  for (const [n, count] of list) {
    const bar = add("rect", { x: left + n * bw + 0.5, y: y(count), width: Math.max(1, bw - 1), height: H - bottom - y(count), class: `bar ${kind}` });
    bar.appendChild(document.createElementNS(SVG, "title")).textContent = `${plies(n)}: ${count.toLocaleString("en")}`;
    if (list.length <= 24) {
      add("text", { x: left + (n + 0.5) * bw, y: y(count) - 3, class: "count", "text-anchor": "middle" }, count.toLocaleString("en"));
    }
  }
  return svg;
}

async function showSector(sector) {
  const box = $("sector-detail");
  box.textContent = "Reading the table...";
  const r = await api(`/api/stats/${encodeURIComponent(sector)}`);
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = `${r.sector}: ${Number(r.counts.classes).toLocaleString("en")} positions`;
  box.appendChild(h);
  for (const [kind, list] of [["win", r.histogram.wins], ["loss", r.histogram.losses]]) {
    const t = document.createElement("h3");
    t.textContent = kind === "win" ? "Wins by plies to the end" : "Losses by plies to the end";
    box.append(t, histogram(list, kind));
  }
  for (const [title, list] of [["Longest wins", r.longest_wins], ["Longest losses", r.longest_losses]]) {
    const t = document.createElement("h3");
    t.textContent = title;
    const ul = document.createElement("ul");
    ul.className = "records";
    for (const rec of list) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/?position=${encodeURIComponent(rec.position)}`;
      a.textContent = `${rec.position} (${plies(rec.plies)})`;
      li.appendChild(a);
      ul.appendChild(li);
    }
    box.append(t, ul);
  }
}

// ---- start ---------------------------------------------------------------

// The game in the page's URL: ?position=START[&moves=...][&ply=N][&counter=C].
function gameFromUrl() {
  const q = new URLSearchParams(location.search);
  state.start = q.get("position") || OPENING || START;
  const moves = q.get("moves");
  state.moves = moves ? moves.trim().split(/\s+/) : [];
  const ply = q.get("ply");
  state.cursor = ply === null ? state.moves.length : Math.max(0, Math.min(Number(ply) || 0, state.moves.length));
  state.counter = Math.max(0, Number(q.get("counter")) || 0);
}

async function start() {
  try {
    const h = await api("/api/health");
    if (h.start) START = h.start;
    if (h.example) OPENING = h.example;
    const n = Number(START.split(" ")[2]);
    const opened = OPENING && !new URLSearchParams(location.search).has("position");
    $("variant").textContent = `${h.rules} rules` + (n < 9 ? `; the game with ${n} stones a side` : "") +
      (opened ? "; shown: its longest win, New game starts the game" : "");
  } catch (e) { /* the page still works without */ }
  if (location.pathname === "/stats") {
    $("stats").hidden = false;
    showStats();
    return;
  }
  $("explorer").hidden = false;
  $("best").addEventListener("click", playBest);
  $("undo").addEventListener("click", undo);
  $("start").addEventListener("click", () => newGame(START, [], 0));
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
  $("show-values").addEventListener("change", render);
  $("mainline-button").addEventListener("click", showMainline);
  $("review-button").addEventListener("click", openReview);
  $("review-close").addEventListener("click", closeReview);
  $("review-prev").addEventListener("click", () => goTo(state.cursor - 1));
  $("review-next").addEventListener("click", () => goTo(state.cursor + 1));
  $("edit-toggle").addEventListener("click", () => toggleEditor(!state.editing));
  $("versus").addEventListener("change", () => { state.token++; load(null); });
  $("human").addEventListener("change", () => { state.token++; load(null); });
  $("counter-input").addEventListener("change", () => {
    state.counter = Math.max(0, Math.min(MOVE_LIMIT - 1, Number($("counter-input").value) || 0));
    load("replace");
  });
  $("copy").addEventListener("click", () => {
    const t = $("game-text");
    t.select();
    if (navigator.clipboard) navigator.clipboard.writeText(t.value).catch(() => {});
  });
  $("load-game").addEventListener("click", () => loadGameText($("game-text").value));
  for (const id of ["ed-side", "ed-wh", "ed-bh"]) {
    $(id).addEventListener("change", () => setEdited(readEditorFields(parsePosition(state.position))));
  }
  $("ed-clear").addEventListener("click", () => setEdited(readEditorFields({ board: Array(24).fill("."), side: "w", white: 0, black: 0 })));
  $("ed-swap").addEventListener("click", () => {
    const p = parsePosition(state.position);
    p.board = p.board.map((c) => ({ W: "B", B: "W", ".": "." }[c]));
    p.side = p.side === "w" ? "b" : "w";
    [p.white, p.black] = [p.black, p.white];
    $("ed-side").value = p.side; $("ed-wh").value = p.white; $("ed-bh").value = p.black;
    setEdited(p);
  });
  $("ed-done").addEventListener("click", () => toggleEditor(false));
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "b" || e.key === " ") { e.preventDefault(); playBest(); }
    if (e.key === "ArrowLeft") undo();
  });
  window.addEventListener("popstate", () => { gameFromUrl(); closeReview(); load(null); });
  gameFromUrl();
  load("replace");
}

start();
