// millbase explorer: the board, its moves from /api/query, and the statistics
// pages. No build step: this file is served as it is.
"use strict";

const POINTS = ["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4",
  "e4", "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"];
const LINES = [["a1", "g1"], ["b2", "f2"], ["c3", "e3"], ["a4", "c4"], ["e4", "g4"],
  ["c5", "e5"], ["b6", "f6"], ["a7", "g7"], ["a1", "a7"], ["b2", "b6"], ["c3", "c5"],
  ["d1", "d3"], ["d5", "d7"], ["e3", "e5"], ["f2", "f6"], ["g1", "g7"]];
// the initial position of the largest game the database holds (/api/health)
let START = "........................ w 9 9";
const SVG = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const xy = (name) => [name.charCodeAt(0) - 97, 7 - Number(name[1])];

const state = {
  position: START,   // the position string shown
  answer: null,      // its /api/query answer
  from: null,        // a selected stone to move
  to: null,          // a chosen target whose moves remove a stone
  editing: false,
  busy: false,
};

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

const sideName = (s) => (s === "w" ? "White" : "Black");

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
    add("text", { x: c - 0.08, y: 6.55 }).textContent = "abcdefg"[c];
    add("text", { x: -0.55, y: 6 - c + 0.1 }).textContent = String(c + 1);
  }
  const p = parsePosition(state.position);
  const moves = legalMoves();
  const removable = new Set(state.to ? moves.filter((m) => m.to === state.to && m.from === state.from && m.remove).map((m) => m.remove) : []);
  const targets = new Set(state.from ? moves.filter((m) => m.from === state.from).map((m) => m.to) : []);
  POINTS.forEach((name, i) => {
    const [x, y] = xy(name);
    add("circle", { cx: x, cy: y, r: 0.1, class: "point" });
    const c = p.board[i];
    if (c === "W" || c === "B") {
      let cls = `stone ${c === "W" ? "white" : "black"}`;
      if (state.from === name) cls += " selected";
      if (removable.has(name)) cls += " removable";
      add("circle", { cx: x, cy: y, r: 0.32, class: cls, "data-stone": name });
    } else if (targets.has(name) || state.to === name) {
      add("circle", { cx: x, cy: y, r: 0.2, class: "target" });
    }
    const hit = add("circle", { cx: x, cy: y, r: 0.45, class: "hit", "data-point": name });
    hit.addEventListener("click", () => clickPoint(name));
  });
  let hint = "";
  if (state.editing) hint = "Editing: click points to cycle empty, white, black.";
  else if (state.to) hint = "Choose a stone to remove.";
  else if (state.from) hint = `Move the stone on ${state.from}: choose where.`;
  $("hint").textContent = hint;
}

function legalMoves() {
  if (!state.answer) return [];
  return state.answer.moves.map((m) => ({ ...parseMove(m.move), entry: m }));
}

function clickPoint(name) {
  if (state.busy) return;
  if (state.editing) return editPoint(name);
  const moves = legalMoves();
  if (state.to) {
    // choosing the stone a mill removes
    const m = moves.find((m) => m.from === state.from && m.to === state.to && m.remove === name);
    if (m) return play(m.entry);
    state.to = null; state.from = null;
    return drawBoard();
  }
  const ending = moves.filter((m) => m.to === name && m.from === state.from);
  if (ending.length > 0) {
    if (ending.length === 1 && !ending[0].remove) return play(ending[0].entry);
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

// ---- positions and moves -------------------------------------------------

function urlFor(position) { return `/?position=${encodeURIComponent(position)}`; }

async function load(position, push) {
  state.busy = true;
  state.from = null; state.to = null;
  try {
    const answer = await api(`/api/query?position=${encodeURIComponent(position)}`);
    state.position = answer.position;
    state.answer = answer;
    showError("");
    if (push === "push") history.pushState({ position: answer.position }, "", urlFor(answer.position));
    else if (push === "replace") history.replaceState({ position: answer.position }, "", urlFor(answer.position));
  } catch (e) {
    showError(e.message);
    state.position = position;
    state.answer = null;
  } finally {
    state.busy = false;
  }
  render();
  maybeComputerMoves();
}

function play(entry) { return load(entry.position, "push"); }

function playBest() {
  if (state.answer && state.answer.moves.length > 0) play(state.answer.moves[0]);
}

function maybeComputerMoves() {
  if (!$("versus").checked || !state.answer || state.editing) return;
  const side = parsePosition(state.position).side;
  if (side !== $("human").value && state.answer.moves.length > 0) {
    setTimeout(() => { if (!state.busy) playBest(); }, 400);
  }
}

// who has won a finished game and why, in words
function gameOverText(result, side) {
  const loser = sideName(side);
  if (result && result.reason === "stones") {
    return `${loser} has fewer than 3 stones: ${sideName(result.winner === "white" ? "w" : "b")} has won.`;
  }
  return `${loser} cannot move: ${loser} has lost.`;
}

function render() {
  drawBoard();
  const p = parsePosition(state.position);
  $("position-text").textContent = state.position;
  $("status").textContent = `${sideName(p.side)} to move. In hand: White ${p.white}, Black ${p.black}.`;
  const a = state.answer;
  $("value").textContent = a ? `${sideName(p.side)} ${valueText(a.value, a.plies)}` : "";
  const list = $("moves");
  list.replaceChildren();
  $("mainline").replaceChildren();
  if (!a) return;
  if (a.moves.length === 0) {
    const d = document.createElement("p");
    d.id = "game-over";
    d.textContent = gameOverText(a.result, p.side);
    list.appendChild(d);
    return;
  }
  for (const [kind, title] of [["win", "Winning moves"], ["draw", "Drawing moves"], ["loss", "Losing moves"]]) {
    const group = a.moves.filter((m) => moveOutcome(m).kind === kind);
    if (group.length === 0) continue;
    const g = document.createElement("div");
    g.className = "group";
    const h = document.createElement("h3");
    h.textContent = `${title} (${group.length})`;
    g.appendChild(h);
    for (const m of group) {
      const row = document.createElement("div");
      row.className = `move ${kind}`;
      row.dataset.move = m.move;
      const name = document.createElement("span");
      name.textContent = m.move;
      const out = document.createElement("span");
      out.textContent = moveOutcome(m).text;
      row.append(name, out);
      row.addEventListener("click", () => play(m));
      g.appendChild(row);
    }
    list.appendChild(g);
  }
}

async function showMainline() {
  try {
    const line = await api(`/api/mainline?position=${encodeURIComponent(state.position)}`);
    const ol = $("mainline");
    ol.replaceChildren();
    for (const step of line.line) {
      const li = document.createElement("li");
      li.textContent = `${step.move}  (${step.value}${step.plies === null ? "" : " " + step.plies})`;
      li.addEventListener("click", () => load(step.position, "push"));
      ol.appendChild(li);
    }
    if (line.line.length === 0) ol.textContent = "No moves: the game is over.";
  } catch (e) { showError(e.message); }
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
  history.replaceState({ position: state.position }, "", urlFor(state.position));
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
  $("editor").hidden = !on;
  $("edit-toggle").textContent = on ? "Stop editing" : "Edit board";
  if (on) {
    const p = parsePosition(state.position);
    $("ed-side").value = p.side; $("ed-wh").value = p.white; $("ed-bh").value = p.black;
    state.from = null; state.to = null;
    render();
  } else {
    load(state.position, "replace");
  }
}

// ---- statistics ----------------------------------------------------------

async function showStats() {
  const params = new URLSearchParams(location.search);
  const sector = params.get("sector");
  try {
    const rows = await api("/api/stats");
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
      for (const c of cells) {
        const d = document.createElement("td");
        d.textContent = Number(c).toLocaleString("en");
        tr.appendChild(d);
      }
      body.appendChild(tr);
    }
    if (sector) await showSector(sector);
  } catch (e) { showError(e.message); }
}

async function showSector(sector) {
  const box = $("sector-detail");
  box.textContent = "Reading the table...";
  const r = await api(`/api/stats/${encodeURIComponent(sector)}`);
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = `${r.sector}: ${Number(r.counts.classes).toLocaleString("en")} classes`;
  box.appendChild(h);
  for (const [kind, list] of [["win", r.histogram.wins], ["loss", r.histogram.losses]]) {
    const t = document.createElement("h3");
    t.textContent = kind === "win" ? "Wins by plies" : "Losses by plies";
    box.appendChild(t);
    const bars = document.createElement("div");
    bars.className = "bars";
    const most = Math.max(1, ...list.map((x) => x[1]));
    for (const [n, count] of list) {
      const b = document.createElement("div");
      b.className = kind;
      b.style.height = `${Math.max(1, (100 * count) / most)}%`;
      b.title = `${plies(n)}: ${count}`;
      bars.appendChild(b);
    }
    box.appendChild(bars);
  }
  for (const [title, list] of [["Longest wins", r.longest_wins], ["Longest losses", r.longest_losses]]) {
    const t = document.createElement("h3");
    t.textContent = title;
    const ul = document.createElement("ul");
    ul.className = "records";
    for (const rec of list) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = urlFor(rec.position);
      a.textContent = `${rec.position} (${plies(rec.plies)})`;
      li.appendChild(a);
      ul.appendChild(li);
    }
    box.append(t, ul);
  }
}

// ---- start ---------------------------------------------------------------

function positionFromUrl() {
  return new URLSearchParams(location.search).get("position") || START;
}

async function start() {
  try {
    const h = await api("/api/health");
    if (h.start) START = h.start;
    const n = Number(START.split(" ")[2]);
    $("variant").textContent = `${h.rules} rules` + (n < 9 ? `; the game with ${n} stones a side` : "");
  } catch (e) { /* the page still works without */ }
  if (location.pathname === "/stats") {
    $("stats").hidden = false;
    showStats();
    return;
  }
  $("explorer").hidden = false;
  $("best").addEventListener("click", playBest);
  $("back").addEventListener("click", () => history.back());
  $("start").addEventListener("click", () => load(START, "push"));
  $("mainline-button").addEventListener("click", showMainline);
  $("edit-toggle").addEventListener("click", () => toggleEditor(!state.editing));
  $("versus").addEventListener("change", maybeComputerMoves);
  $("human").addEventListener("change", maybeComputerMoves);
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
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "b" || e.key === " ") { e.preventDefault(); playBest(); }
    if (e.key === "ArrowLeft") history.back();
  });
  window.addEventListener("popstate", (e) => load((e.state && e.state.position) || positionFromUrl(), null));
  load(positionFromUrl(), "replace");
}

start();
