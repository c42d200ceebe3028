// Hand play (the Play view): drag pieces from the tray onto the board with pointer events (mouse,
// pen and touch alike), rotate (R) and flip (F) the chosen piece, drop it where it fits, pick it up
// again or undo. After each move the server counts the ways to finish (POST /api/play, capped:
// "at least N"), and "Finish it from here" shows one completion, the solver's pieces drawn pale.
// The keyboard plays on every grid: square, triangle, hex and cubes (the last three through
// play_grid.js, with the turns the server sends). Uses app.js's helpers ($, el, api, state, drawTiling, shapeSvg, currentPuzzle, TINTS).
"use strict";

const play = {
  key: null,                  // the puzzle (JSON) the position belongs to
  summary: null,
  placed: [],                 // [{piece: index, cells}]
  found: [],                  // the finish's pieces: [{piece, letter, cells, colour}]
  history: [],                // earlier positions, for Undo
  orient: [],                 // the current orientation of each piece kind: normalised cells (points)
  geo: null,                  // triangle, hex and cube boards: play_grid.js's gridGeo; null on flat squares
  turns: null,                // those boards: each piece's orientations and turning keys (from the server)
  oidx: [],                   // ... and the orientation each piece kind shows now
  chosen: -1,                 // the piece kind Rotate and Flip act on
  drag: null,                 // {piece, cells, x0, y0, moved, ghost}
  kbd: null,                  // the keyboard's piece over the board: {piece, at: [row, column]}
  asking: false, again: false, // one request at a time; the latest position wins
};

const cellKey = (c) => `${c[0]},${c[1]}`;

function normalise(cells) {
  const r0 = Math.min(...cells.map((c) => c[0])), c0 = Math.min(...cells.map((c) => c[1]));
  return cells.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function rowsOf(cells) {
  const h = 1 + Math.max(...cells.map((c) => c[0])), w = 1 + Math.max(...cells.map((c) => c[1]));
  const grid = Array.from({ length: h }, () => Array(w).fill("."));
  for (const [r, c] of cells) grid[r][c] = "X";
  return grid.map((row) => row.join(""));
}

function playColour(i) {
  const name = play.summary.pieces[i].name;
  const lib = state.info && state.info.library.find((p) => p.name === name && p.colour);
  return lib ? lib.colour : TINTS[i % TINTS.length];
}

function paler(hex) {                 // the solver's pieces: the same colour, mixed with white
  const v = parseInt(hex.slice(1), 16);
  const mix = (x) => Math.round(x + (255 - x) * 0.55).toString(16).padStart(2, "0");
  return `#${mix(v >> 16)}${mix((v >> 8) & 255)}${mix(v & 255)}`;
}

// Boards whose cells are solids of their own (prisms, balls, tetrahedra: summary.solids / balls)
// are shown in the 3D view only, not played by hand.
function playable(summary) {
  return !!(summary && summary.kind !== "shikaku" && summary.cells && summary.cells.length && !summary.solids && !summary.balls);
}

// ---- the position ------------------------------------------------------------------------------

function left(i) {
  return play.summary.pieces[i].count - play.placed.filter((p) => p.piece === i).length;
}

function setStatus(text, kind = "") {
  const s = $("#play-status");
  s.textContent = text;
  s.className = `play-status ${kind}`;
}

function remember() {
  play.history.push(JSON.stringify(play.placed));
  if (play.history.length > 200) play.history.shift();
}

function moved() {                    // the position changed: draw it and ask the server about it
  play.found = [];
  play.verdictText = "";               // the last verdict was about another position
  drawPlay();
  askServer(false);
}

// Where the piece would go, or why it cannot: every cell (point) on the board, none covered.
function fitting(cells) {
  const geo = play.geo;
  const board = geo ? geo.index : new Set(play.summary.cells.map(cellKey));
  const owner = new Map();
  play.placed.forEach((p) => (p.points || p.cells).forEach((c) => owner.set(c.join(","), p.piece)));
  for (const c of cells) {
    const where = geo ? geoWhere(geo, c) : `row ${c[0] + 1}, column ${c[1] + 1}`;
    if (!board.has(c.join(","))) return `It does not fit: ${where} is not on the board.`;
    if (owner.has(c.join(","))) return `It does not fit: ${where} is taken by ${play.summary.pieces[owner.get(c.join(","))].name}.`;
  }
  return null;
}

// ---- drawing ------------------------------------------------------------------------------------

function drawPlay() {
  const box = $("#play-board");
  if (!play.summary) { box.replaceChildren(); $("#play-tray").replaceChildren(); return; }
  const mine = play.placed.map((p) => ({ piece: play.summary.pieces[p.piece].name, letter: "", cells: p.cells, colour: playColour(p.piece) }));
  const found = play.found.map((p) => ({ ...p, letter: "", colour: paler(p.colour) }));
  const svg = drawSolution(play.summary, mine.concat(found), { maxWidth: 560, maxHeight: 420, id: "play-svg" });
  svg.querySelectorAll("g.piece").forEach((g, i) => {
    g.dataset.source = i < mine.length ? "hand" : "found";
    if (i < mine.length) g.dataset.index = i;
  });
  if (!play.geo) svg.addEventListener("pointerdown", pickUp);       // dragging: flat squares only
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `Board: ${play.geo ? geoKeysText(play.geo) : "the arrow keys move the chosen piece, R turns it, F flips it, Enter places it, Backspace undoes, Escape puts it back"}`);
  svg.addEventListener("keydown", kbdKey);
  box.replaceChildren(svg);
  drawPreview();
  drawTray();
}

function drawTray() {
  const tray = $("#play-tray"), focused = tray.contains(document.activeElement) ? document.activeElement.dataset.piece : null;
  tray.replaceChildren();
  play.summary.pieces.forEach((p, i) => {
    const n = left(i), geo = play.geo;
    const shape = !geo ? shapeSvg(rowsOf(play.orient[i]), playColour(i), 13)
      : play.turns ? geoShapeSvg(geo, play.orient[i], playColour(i)) : el("span", { class: "muted", text: "…" });
    // a focusable toggle: Enter or Space chooses it for Rotate and Flip
    const card = el("div", { class: `play-piece${i === play.chosen ? " chosen" : ""}${n ? "" : " used"}`, "data-piece": i,
      title: `${p.name}: ${n} left${p.reflect ? "" : " (may not be flipped)"}`, role: "button", tabindex: 0,
      "aria-pressed": i === play.chosen ? "true" : "false", "aria-label": `piece ${p.name}, ${n} left${p.reflect ? "" : ", may not be flipped"}` },
      shape, el("span", { class: "count", text: `${p.name} ×${n}` }));
    if (n && !geo) card.addEventListener("pointerdown", (e) => startDrag(e, i, play.orient[i]));
    if (n && geo) card.addEventListener("click", () => kbdStart(i));     // other grids: the keyboard's ghost
    card.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      if (n) kbdStart(i);
      else setStatus(`No ${p.name} left to place.`, "bad");
    });
    tray.append(card);
  });
  if (focused !== null) $(`#play-tray [data-piece="${focused}"]`).focus();     // redrawn under the keyboard's focus
  const p = play.summary.pieces[play.chosen];
  $("#play-flip").disabled = !p || !(play.geo ? play.turns && play.turns[play.chosen].keys.f : p.reflect);
  $("#play-rotate").disabled = !p;
  $("#play-undo").disabled = !play.history.length;
}

function cellSize() {
  const svg = $("#play-svg");
  const lo = boardBounds(play.summary.cells).lo, hi = boardBounds(play.summary.cells).hi;
  const box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
  const S = (svg.viewBox.baseVal.width - 8) / (hi[1] - lo[1] + 1);
  return { S: S * scale, x0: box.left + 4 * scale, y0: box.top + 4 * scale, lo };
}

function ghostFor(cells, i) {
  const { S } = cellSize();
  const g = shapeSvg(rowsOf(cells), playColour(i), S);
  g.classList.add("play-ghost");
  document.body.append(g);
  return g;
}

function moveGhost(e) {
  const d = play.drag, { S } = cellSize();
  d.ghost.style.left = `${e.clientX - (d.cells[0][1] + 0.5) * S}px`;
  d.ghost.style.top = `${e.clientY - (d.cells[0][0] + 0.5) * S}px`;
}

// ---- pointer events: drag from the tray or the board, drop on the board --------------------------

function startDrag(e, piece, cells, from = null) {
  if (e.button > 0) return;
  e.preventDefault();
  play.chosen = piece;
  play.drag = { piece, cells, x0: e.clientX, y0: e.clientY, moved: false, ghost: null, from };
  drawTray();
}

function pickUp(e) {
  const g = pieceAt(e);
  if (g === null) return;
  const p = play.placed[g];
  remember();
  play.placed.splice(g, 1);
  const grab = grabCell(e);
  const cells = normalise(p.cells);
  // keep the cell under the pointer under it while dragging: it leads the list
  const r0 = Math.min(...p.cells.map((c) => c[0])), c0 = Math.min(...p.cells.map((c) => c[1]));
  const lead = cells.findIndex((c) => c[0] === grab[0] - r0 && c[1] === grab[1] - c0);
  if (lead > 0) cells.unshift(cells.splice(lead, 1)[0]);
  startDrag(e, p.piece, cells, p);
}

function grabCell(e) {
  const { S, x0, y0, lo } = cellSize();
  return [Math.floor((e.clientY - y0) / S) + lo[0], Math.floor((e.clientX - x0) / S) + lo[1]];
}

function pieceAt(e) {
  const k = cellKey(grabCell(e));
  const i = play.placed.findIndex((p) => p.cells.some((c) => cellKey(c) === k));
  return i < 0 ? null : i;
}

function onMove(e) {
  const d = play.drag;
  if (!d) return;
  if (!d.moved && Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < 5) return;
  if (!d.moved) { d.moved = true; d.ghost = ghostFor(d.cells, d.piece); }
  moveGhost(e);
}

function onUp(e) {
  const d = play.drag;
  if (!d) return;
  play.drag = null;
  if (d.ghost) d.ghost.remove();
  if (!d.moved) {                      // a tap: choose the piece (from the board: back to the tray)
    if (d.from) moved();
    else drawTray();
    return;
  }
  const at = grabCell(e);
  const cells = d.cells.map(([r, c]) => [r - d.cells[0][0] + at[0], c - d.cells[0][1] + at[1]]);
  const why = fitting(cells);
  if (why) {
    setStatus(`${why}${d.from ? " The piece went back to the tray." : ""}`, "bad");
    if (d.from) moved(); else drawTray();
    return;
  }
  if (!d.from) remember();
  play.placed.push({ piece: d.piece, cells: cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]) });
  moved();
}

// ---- rotate, flip, undo, clear, finish ------------------------------------------------------------

function turn(flip, back = false) {
  const i = play.drag ? play.drag.piece : play.chosen;
  if (i < 0 || !play.summary) return;
  if (play.geo) return geoTurn(flip ? "f" : back ? "R" : "r");
  if (flip && !play.summary.pieces[i].reflect) { setStatus(`${play.summary.pieces[i].name} may not be flipped in this puzzle.`, "bad"); return; }
  const f = flip ? ([r, c]) => [r, -c] : back ? ([r, c]) => [-c, r] : ([r, c]) => [c, -r];
  play.orient[i] = normalise(play.orient[i].map(f));
  if (play.drag) {                     // turn about the cell held
    const held = play.drag.cells.map(f);
    play.drag.cells = held.map(([r, c]) => [r - held[0][0], c - held[0][1]]);
    play.drag.ghost && play.drag.ghost.remove();
    if (play.drag.moved) play.drag.ghost = ghostFor(normalise(play.drag.cells), i);
  }
  drawTray();
  if (play.kbd && play.kbd.piece === i) { drawPreview(); announce(flip ? ", flipped" : ", turned"); }
}

function undo() {
  if (!play.history.length) { setStatus("Nothing to undo."); return; }
  play.placed = JSON.parse(play.history.pop());
  setStatus("Undone: the last move was taken back.");
  moved();
}

async function askServer(finish) {
  if (play.asking) { play.again = finish ? "finish" : play.again || "count"; return; }   // a Finish waiting is never dropped for a count
  play.asking = true;
  const puzzle = currentPuzzle(), key = play.key;
  const placed = play.placed.map((p) => p.cells), tables = !!play.geo && !play.turns;
  try {
    if (finish) setStatus("Finishing…");
    const v = await api("POST", "/api/play", { puzzle, placed, finish, tables });
    if (v.tables && play.key === key && !play.turns) setTurns(v.tables);
    if (play.key === key && JSON.stringify(placed) === JSON.stringify(play.placed.map((p) => p.cells))) {
      if (finish) play.found = v.found || [];
      showVerdict(v, finish);
      if (finish) drawPlay();
    }
  } catch (e) {
    setStatus(e.message, "bad");
  } finally {
    play.asking = false;
    const again = play.again;
    play.again = false;
    if (again) askServer(again === "finish");
  }
}

function showVerdict(v, finish) {
  const n = fmt(v.completions);
  const status = $("#play-status");
  status.dataset.verdict = v.verdict;
  status.dataset.completions = v.completions;
  status.dataset.capped = v.capped ? "1" : "0";
  play.verdictText = "";
  if (v.verdict === "solved") return setStatus("Solved: every cell is covered.", "good");
  if (v.verdict === "dead end") return setStatus(`Dead end: ${v.reason}. Undo or pick a piece up.`, "bad");
  if (v.verdict === "unknown") return setStatus(`Not known yet: ${v.reason}.`);
  if (finish) return setStatus(`Finished: the pale pieces are the solver's (${fmt(v.found.length)} placed, ${seconds(v.seconds)}).`, "good");
  const ways = v.capped ? `at least ${n} ways` : `${n} way${v.completions === 1 ? "" : "s"}`;
  play.verdictText = `Can still be finished: ${ways} to complete this position${v.capped ? " (the count stopped early)" : ""}.`;
  if (play.kbd) return announce(play.turnedText || "");     // a piece moved by the keyboard: its place, then the verdict
  setStatus(play.verdictText, "good");
}

// ---- the hooks app.js calls ------------------------------------------------------------------------

function playPuzzleChanged() {
  const key = JSON.stringify(currentPuzzle());
  // only the preview of this very puzzle (app.js notes which): the last puzzle's, while the new
  // one's is on its way, would offer the wrong tray
  const fresh = state.previewKey === undefined || state.previewKey === key;
  const summary = fresh && playable(state.preview) ? state.preview : null;
  if (key === play.key && play.summary === summary) return;
  const same = key === play.key && play.summary !== null;
  play.key = key;
  play.summary = summary;
  if (!same) { play.placed = []; play.history = []; play.found = []; play.chosen = -1; play.kbd = null; play.turns = null; play.pending = null; }
  play.geo = gridGeo(play.summary);
  if (!play.summary) {
    const solid = state.preview && (state.preview.solids || state.preview.balls);
    setStatus(!state.preview ? "Choose a puzzle first." : !fresh ? "Reading the puzzle…"
      : solid ? `Hand play is for square, triangle, hex and cube boards, not the ${state.preview.grid} grid.` : "Hand play is for tiling puzzles.");
    drawPlay();
    return;
  }
  if (!play.geo) play.orient = play.summary.pieces.map((p) => normalise(p.cells));
  else if (!play.turns) play.orient = [];
  if (!$("#view-play").hidden) { drawPlay(); askServer(false); }
}

function playShow() {
  if (!play.summary || play.key !== JSON.stringify(currentPuzzle())) playPuzzleChanged();
  else drawPlay();
  if (play.summary) askServer(false);
}

document.addEventListener("pointermove", onMove);
document.addEventListener("pointerup", onUp);
document.addEventListener("pointercancel", (e) => { if (play.drag) onUp(e); });
document.addEventListener("keydown", (e) => {
  if ($("#view-play").hidden || e.target.matches("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Backspace" && e.target.closest("#view-play")) {    // undo, from the board or the tray
    e.preventDefault();
    const onBoard = e.target.id === "play-svg";
    undo();
    if (onBoard) $("#play-svg").focus();
    return;
  }
  if (play.geo && "tTyY".includes(e.key)) geoTurn(e.key);
  if (e.key === "r" || e.key === "R") turn(false, e.key === "R");
  if (e.key === "f" || e.key === "F") turn(true);
});
$("#play-rotate").addEventListener("click", () => turn(false));
$("#play-flip").addEventListener("click", () => turn(true));
$("#play-undo").addEventListener("click", undo);
$("#play-clear").addEventListener("click", () => { if (play.placed.length) { remember(); play.placed = []; moved(); } });
$("#play-finish").addEventListener("click", () => askServer(true));
