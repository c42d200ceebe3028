// polytile's page: edit a puzzle in one of four modes, run jobs on the server (solve, count,
// hint, statistics, slams, random solutions), poll their progress and draw the solutions as SVG.
// Plain JavaScript, no build step, nothing loaded from elsewhere.
"use strict";

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));
const SVGNS = "http://www.w3.org/2000/svg";
const TINTS = ["#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9", "#fce5cd", "#d0e0e3", "#ead1dc"];
const CELL_TINTS = ["#ffffff", "#3b3b3b", "#e8d9b5", "#b5d3e8", "#d8b5e8", "#b5e8c4", "#e8b5b5"];

const state = {
  mode: "tiling",
  info: null,                 // /api/info
  tiling: { rows: 8, cols: 8, on: null, counts: {}, source: "draw", text: "", order: 5 },
  katamino: { chosen: [], height: 5 },
  shikaku: { width: 7, height: 7, rows: null },
  job: null,                  // the job being polled: {id, action, solutions, summary, ...}
  view: null,                 // what the Solutions view shows: {job, index}
  hints: [],                  // placed pieces from hints: [{piece, cells, colour}]
  preview: null,              // summary of the current puzzle (board before solving)
};

// ---- small helpers ---------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function fmt(n) {
  if (n === null || n === undefined) return "–";
  if (typeof n === "string") return n.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n.toLocaleString("en-US");
}

function seconds(s) {
  if (s === null || s === undefined) return "";
  if (s < 1) return `${(s * 1000).toFixed(0)} ms`;
  if (s < 120) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return m < 120 ? `${m} min ${Math.round(s - 60 * m)} s` : `${(s / 3600).toFixed(1)} h`;
}

// Errors and notes float at the top of the window (never below the fold); a note fades after a
// few seconds, an error stays until the next action or a click on it.
// `source` names who showed it: refreshPreview clears only its own errors, so a bad share link's
// error stays in view until the user acts (issue 27).
let messageTimer = null, messageSource = "";
function showMessage(text, kind = "error", source = "") {
  const m = $("#message");
  if (!text && source && source !== messageSource) return;
  clearTimeout(messageTimer);
  messageSource = text ? source : "";
  if (!text) { m.hidden = true; m.textContent = ""; return; }
  m.hidden = false;
  m.className = kind === "info" ? "info" : "";
  m.textContent = text;
  if (kind === "info") messageTimer = setTimeout(() => showMessage(null), 5000);
}

// Scroll an element into view when it is off screen (narrow windows: the result is below the editor).
function reveal(e) {
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.top > window.innerHeight - 40) e.scrollIntoView({ block: "start" });
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (method !== "GET") {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body === undefined ? {} : body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error("the server does not answer (is polytile serve still running?)");
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

function luminance(hex) {
  const v = parseInt(hex.slice(1), 16);
  const r = (v >> 16) / 255, g = ((v >> 8) & 255) / 255, b = (v & 255) / 255;
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function shapeSvg(rows, colour, size = 9) {
  const h = rows.length, w = Math.max(...rows.map((r) => r.length));
  const svg = el("svg:svg", { viewBox: `-1 -1 ${w * size + 2} ${h * size + 2}`, width: w * size + 2, height: h * size + 2 });
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    if (ch === "X") svg.append(el("svg:rect", { x: c * size, y: r * size, width: size, height: size, fill: colour, stroke: "#262626", "stroke-width": 0.8 }));
  }));
  return svg;
}

// ---- drawing solutions -----------------------------------------------------------------------

function boardBounds(cells) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const c of cells) c.forEach((v, i) => { lo[i] = Math.min(lo[i], v); hi[i] = Math.max(hi[i], v); });
  return { lo, hi };
}

// One SVG of a tiling board: placements (coloured, thick borders between pieces), holes hatched,
// a 3D board as its layers side by side. `placements`: [{piece, letter, cells, colour}].
function drawTiling(summary, placements, { highlight = -1, maxWidth = 640, maxHeight = 520, id = null } = {}) {
  const cells = summary.cells;
  const dim = cells[0].length;
  const { lo, hi } = boardBounds(cells);
  const rows = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1, layers = dim === 3 ? hi[2] - lo[2] + 1 : 1;
  const gap = 1;
  const totalCols = layers * cols + (layers - 1) * gap;
  const S = Math.max(8, Math.min(44, Math.floor(maxWidth / totalCols), Math.floor(maxHeight / rows)));
  const pad = 4, top = dim === 3 ? 18 : 0;
  const W = totalCols * S + 2 * pad, H = rows * S + 2 * pad + top;
  const svg = el("svg:svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, width: W, height: H, id, class: "board-svg",
    "font-family": "system-ui, sans-serif" });
  const key = (c) => c.join(",");
  const board = new Map(cells.map((c, i) => [key(c), i]));
  const owner = new Map();
  placements.forEach((p, i) => p.cells.forEach((c) => owner.set(key(c), i)));
  const xy = (c) => {
    const z = dim === 3 ? c[2] - lo[2] : 0;
    return [pad + (z * (cols + gap) + (c[1] - lo[1])) * S, pad + top + (c[0] - lo[0]) * S];
  };
  for (let z = 0; z < layers; z++) {
    const x0 = pad + z * (cols + gap) * S;
    if (dim === 3) svg.append(el("svg:text", { x: x0 + cols * S / 2, y: 13, "text-anchor": "middle", "font-size": 11, fill: "#777", text: `layer ${z + 1}` }));
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const cell = dim === 3 ? [r + lo[0], c + lo[1], z + lo[2]] : [r + lo[0], c + lo[1]];
      if (!board.has(key(cell))) {
        svg.append(el("svg:rect", { x: x0 + c * S, y: pad + top + r * S, width: S, height: S, fill: "#eeeeec" }));
      }
    }
  }
  // cells: piece colour, or the board's own colour when empty
  const cellColours = summary.cell_colours;
  const palette = cellColours ? boardPalette(cellColours) : {};
  cells.forEach((c, i) => {
    const [x, y] = xy(c);
    const o = owner.get(key(c));
    const fill = o !== undefined ? placements[o].colour : (cellColours ? palette[cellColours[i]] : "#ffffff");
    svg.append(el("svg:rect", { x, y, width: S, height: S, fill, stroke: "rgba(0,0,0,0.18)", "stroke-width": 0.6,
      opacity: o !== undefined && highlight >= 0 && o !== highlight ? 0.55 : 1 }));
    if (o !== undefined && cellColours && palette[cellColours[i]] !== "#ffffff") {      // the board's colour, under the piece
      svg.append(el("svg:circle", { cx: x + S * 0.2, cy: y + S * 0.2, r: Math.max(1.5, S * 0.09), fill: palette[cellColours[i]], stroke: "white", "stroke-width": 0.6 }));
    }
  });
  // thick lines where pieces meet and around the board
  const path = [];
  cells.forEach((c) => {
    const [x, y] = xy(c);
    const me = owner.has(key(c)) ? owner.get(key(c)) : -1;
    const nb = (dr, dc) => { const n = c.slice(); n[0] += dr; n[1] += dc; return n; };
    const sides = [[-1, 0, x, y, x + S, y], [1, 0, x, y + S, x + S, y + S], [0, -1, x, y, x, y + S], [0, 1, x + S, y, x + S, y + S]];
    for (const [dr, dc, x1, y1, x2, y2] of sides) {
      const n = key(nb(dr, dc));
      if (!board.has(n)) { path.push(`M${x1} ${y1}L${x2} ${y2}`); continue; }
      if (dr < 0 || dc < 0) continue;                          // each inner edge once
      const other = owner.has(n) ? owner.get(n) : -1;
      if (other !== me) path.push(`M${x1} ${y1}L${x2} ${y2}`);
    }
  });
  svg.append(el("svg:path", { d: path.join(""), stroke: "#262626", "stroke-width": Math.max(1.5, S / 14), "stroke-linecap": "round", fill: "none" }));
  // one group per placement, carrying its data (tests and downloads read it back)
  placements.forEach((p, i) => {
    const g = el("svg:g", { class: "piece", "data-piece": p.piece, "data-letter": p.letter || "", "data-cells": JSON.stringify(p.cells) });
    if (S >= 16 && p.letter) {
      const cx = p.cells.reduce((a, c) => a + c[0], 0) / p.cells.length, cy = p.cells.reduce((a, c) => a + c[1], 0) / p.cells.length;
      let best = p.cells[0], bd = Infinity;
      for (const c of p.cells) { const d = (c[0] - cx) ** 2 + (c[1] - cy) ** 2; if (d < bd) { bd = d; best = c; } }
      const [x, y] = xy(best);
      g.append(el("svg:text", { x: x + S / 2, y: y + S / 2 + S * 0.17, "text-anchor": "middle", "font-size": Math.round(S * 0.46),
        "font-weight": 600, fill: luminance(p.colour) > 0.55 ? "#262626" : "#ffffff", text: p.letter }));
    }
    svg.append(g);
  });
  return svg;
}

// Board colours (checkerboards): black and white where the characters say so, tints otherwise.
function boardPalette(chars) {
  const named = { B: "#3b3b3b", b: "#3b3b3b", "#": "#3b3b3b", W: "#ffffff", w: "#ffffff", X: "#ffffff", O: "#ffffff" };
  const palette = {};
  let k = 0;
  for (const ch of [...new Set(chars)].sort()) palette[ch] = named[ch] || CELL_TINTS[k++ % CELL_TINTS.length];
  return palette;
}

function drawShikaku(summary, rectangles, { maxWidth = 640, maxHeight = 560, id = null } = {}) {
  const w = summary.width, h = summary.height;
  const S = Math.max(6, Math.min(40, Math.floor(maxWidth / w), Math.floor(maxHeight / h)));
  const pad = 3;
  const svg = el("svg:svg", { xmlns: SVGNS, viewBox: `0 0 ${w * S + 2 * pad} ${h * S + 2 * pad}`, width: w * S + 2 * pad,
    height: h * S + 2 * pad, id, class: "board-svg", "font-family": "system-ui, sans-serif" });
  const g = el("svg:g", { transform: `translate(${pad},${pad})` });
  g.append(el("svg:rect", { x: 0, y: 0, width: w * S, height: h * S, fill: "white", stroke: "#bbb" }));
  for (let r = 1; r < h; r++) g.append(el("svg:line", { x1: 0, y1: r * S, x2: w * S, y2: r * S, stroke: "#e3e3e3" }));
  for (let c = 1; c < w; c++) g.append(el("svg:line", { x1: c * S, y1: 0, x2: c * S, y2: h * S, stroke: "#e3e3e3" }));
  (rectangles || []).forEach(([r, c, a, b], k) => {
    g.append(el("svg:rect", { class: "rectangle", "data-rect": JSON.stringify([r, c, a, b]), x: c * S, y: r * S, width: b * S, height: a * S,
      fill: TINTS[k % TINTS.length], stroke: "#262626", "stroke-width": Math.max(1.5, S / 14) }));
  });
  summary.rows.forEach((row, r) => row.forEach((v, c) => {
    if (v) g.append(el("svg:text", { x: c * S + S / 2, y: r * S + S * 0.68, "text-anchor": "middle", "font-size": Math.round(S * 0.5), fill: "#262626", text: v }));
  }));
  svg.append(g);
  return svg;
}

function drawSolution(summary, sol, opts) {
  if (summary.kind === "shikaku") return drawShikaku(summary, sol ? sol.rectangles : [], opts);
  if (summary.kind === "calendar") return drawCalendar(summary, sol || [], opts);       // calendar.js
  if (summary.points) return drawLattice(summary, sol || [], opts);
  return drawTiling(summary, sol || [], opts);
}

// ---- the puzzle of each mode ------------------------------------------------------------------

function tilingBoardRows() {
  if (onLattice()) return latticeBoardRows();              // triangle and hex grids: lattice.js
  const t = state.tiling;
  const rows = [];
  for (let r = 0; r < t.rows; r++) {
    let s = "";
    for (let c = 0; c < t.cols; c++) s += t.on[r][c] ? "X" : ".";
    rows.push(s);
  }
  return rows;
}

function currentPuzzle() {
  const reflect = $("#reflect").checked;
  if (state.mode === "tiling") {
    const t = state.tiling;
    if (t.source === "text") return burrPuzzle(reflect) || textPuzzle(reflect);   // files.js
    const pieces = Object.entries(t.counts).filter(([, n]) => n > 0).map(([name, count]) => ({ name, count }));
    return { kind: "tiling", board: tilingBoardRows(), pieces, reflect, ...gridField() };
  }
  if (state.mode === "katamino") {
    return { kind: "katamino", pieces: state.katamino.chosen.slice(), height: state.katamino.height, reflect };
  }
  if (state.mode === "calendar") return calendarPuzzle();                     // calendar.js
  if (state.mode === "box") {
    return { kind: "box", order: +$("#box-order").value, width: +$("#box-width").value, height: +$("#box-height").value,
      max_copies: +$("#box-max").value, min_copies: +$("#box-min").value, one_sided: $("#box-one-sided").checked };
  }
  return { kind: "shikaku", rows: shikakuRows() };
}

// ---- tiling editor ----------------------------------------------------------------------------

function setBoard(rows, cols, on = null) {
  const t = state.tiling;
  t.rows = rows; t.cols = cols;
  t.on = on || Array.from({ length: rows }, () => Array(cols).fill(true));
  $("#tiling-rows").value = rows; $("#tiling-cols").value = cols;
  renderBoardGrid();
}

let painting = null;
let boardFocus = [0, 0];             // the one cell of the board in the tab order (roving tabindex)
function renderBoardGrid() {
  if (onLattice()) return renderLatticeBoard();
  const t = state.tiling, grid = $("#tiling-grid");
  const room = Math.min(440, (grid.parentElement.clientWidth || 440) - 4);
  const size = Math.max(10, Math.min(34, Math.floor(room / Math.max(t.cols, 1))));
  if (boardFocus[0] >= t.rows || boardFocus[1] >= t.cols) boardFocus = [0, 0];
  grid.style.setProperty("--cell", `${size}px`);
  grid.style.gridTemplateColumns = `repeat(${t.cols}, ${size}px)`;
  grid.replaceChildren();
  for (let r = 0; r < t.rows; r++) for (let c = 0; c < t.cols; c++) {
    const b = el("button", { class: "cell" + (t.on[r][c] ? " on" : ""), "data-r": r, "data-c": c, type: "button",
      "aria-label": cellLabel(r, c, t.on[r][c]), tabindex: r === boardFocus[0] && c === boardFocus[1] ? 0 : -1 });
    b.addEventListener("mousedown", (e) => { e.preventDefault(); painting = !t.on[r][c]; paint(b, r, c); });
    b.addEventListener("mouseenter", () => { if (painting !== null) paint(b, r, c); });
    b.addEventListener("keydown", (e) => {
      if (e.key === " " || e.key === "Enter") { e.preventDefault(); t.on[r][c] = !t.on[r][c]; b.classList.toggle("on", t.on[r][c]); b.setAttribute("aria-label", cellLabel(r, c, t.on[r][c])); puzzleChanged(); }
      else gridArrow(e, grid, r, c, t.rows, t.cols);
    });
    grid.append(b);
  }
  puzzleChanged();
}
// Arrow keys, Home and End move the focus inside a grid of buttons; only that cell is tabbable.
function gridArrow(e, grid, r, c, rows, cols) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -c], End: [0, cols - 1 - c] };
  if (!moves[e.key]) return;
  e.preventDefault();
  const nr = Math.max(0, Math.min(rows - 1, r + moves[e.key][0])), nc = Math.max(0, Math.min(cols - 1, c + moves[e.key][1]));
  const next = grid.querySelector(`[data-r="${nr}"][data-c="${nc}"]`);
  if (!next) return;
  grid.querySelectorAll("[tabindex='0']").forEach((x) => x.setAttribute("tabindex", "-1"));
  next.setAttribute("tabindex", "0");
  boardFocus = [nr, nc];
  next.focus();
}

// A board cell as a screen reader says it: where, and whether it is a hole.
function cellLabel(r, c, on) {
  return `row ${r + 1}, column ${c + 1}: ${on ? "board cell" : "hole"}`;
}

function paint(b, r, c) {
  state.tiling.on[r][c] = painting;
  b.classList.toggle("on", painting);
  b.setAttribute("aria-label", cellLabel(r, c, painting));
  puzzleChanged();
}
document.addEventListener("mouseup", () => { painting = null; });

function renderPieceLibrary() {
  if (onLattice()) return renderLatticePieces();
  const t = state.tiling, box = $("#tiling-pieces");
  box.replaceChildren();
  for (const p of state.info.library.filter((p) => p.order === t.order)) {
    const n = t.counts[p.name] || 0;
    const input = el("input", { type: "number", min: 0, max: 60, value: n, "aria-label": `copies of ${p.name}`, "data-piece": p.name });
    input.addEventListener("input", () => { t.counts[p.name] = Math.max(0, Math.min(60, parseInt(input.value || "0", 10) || 0)); card.classList.toggle("used", t.counts[p.name] > 0); puzzleChanged(); });
    input.addEventListener("change", () => { input.value = t.counts[p.name] || 0; });      // show what is used
    const card = el("label", { class: "piece-card" + (n > 0 ? " used" : ""), title: p.colour_name ? `${p.name} (${p.colour_name})` : p.name },
      shapeSvg(p.rows, p.colour || pieceColour(p.name), 8), el("span", { class: "name", text: p.name }), input);
    box.append(card);
  }
  $$("#tiling-orders button").forEach((b) => b.classList.toggle("active", +b.dataset.order === t.order));
}

function pieceColour() {
  return "#8fb3de";        // library shapes other than pentominoes (solutions colour each placement)
}

function updateTilingArea() {
  const t = state.tiling;
  if (t.source !== "draw" || !state.info) return;
  const cells = t.on.flat().filter(Boolean).length;
  const sizes = Object.fromEntries(gridLibrary().map((p) => [p.name, p.order]));
  let area = 0, count = 0;
  for (const [name, n] of Object.entries(t.counts)) { area += (sizes[name] || 0) * n; count += n; }
  const info = $("#tiling-area");
  info.textContent = `${count} piece${count === 1 ? "" : "s"}, ${area} cells · board ${cells} cells` +
    (area === cells ? " ✓" : area > cells ? " (not all pieces will be used)" : " (too few pieces)");
}

// ---- Katamino -------------------------------------------------------------------------------

function renderKatamino() {
  const k = state.katamino, sw = $("#katamino-swatches");
  if (!sw.childElementCount) {
    const rows = Object.fromEntries(state.info.library.filter((p) => p.order === 5).map((p) => [p.name, p.rows]));
    for (const p of state.info.katamino) {
      const b = el("button", { class: "swatch", type: "button", "data-letter": p.letter, title: `${p.letter}: ${p.colour_name} (${p.number})` },
        shapeSvg(rows[p.letter], p.colour, 8), el("div", { class: "label", text: `${p.number} · ${p.colour_name}` }));
      b.addEventListener("click", () => {
        const i = k.chosen.indexOf(p.letter);
        if (i >= 0) k.chosen.splice(i, 1); else k.chosen.push(p.letter);
        renderKatamino(); puzzleChanged();
      });
      sw.append(b);
    }
  }
  $$("#katamino-swatches .swatch").forEach((b) => b.classList.toggle("chosen", k.chosen.includes(b.dataset.letter)));
  const colour = Object.fromEntries(state.info.katamino.map((p) => [p.letter, p.colour]));
  $("#katamino-chosen").replaceChildren(...(k.chosen.length ? k.chosen.map((l) => el("span", { class: "chip", text: l, style: `background:${colour[l]};color:${luminance(colour[l]) > 0.55 ? "#262626" : "#fff"}` }))
    : [el("span", { class: "muted", text: "none yet" })]));
  const area = 5 * k.chosen.length;
  $("#katamino-board").textContent = k.chosen.length
    ? (area % k.height ? `${area} cells: no board of height ${k.height}` : `board ${k.height} x ${area / k.height}`) : "";
}

// The challenge list as piece letters (numbers, letters and colour names accepted), or null
// after saying which entries are not Katamino pieces.
function slamLetters() {
  const parts = $("#katamino-slam").value.split(/[\s,]+/).filter(Boolean);
  const by = {};
  for (const p of state.info.katamino) {
    by[String(p.number)] = p.letter; by[p.letter.toLowerCase()] = p.letter; by[p.colour_name.toLowerCase()] = p.letter;
  }
  const bad = parts.filter((p) => !by[p.toLowerCase()]);
  if (!parts.length || bad.length) {
    const names = state.info.katamino.map((p) => p.colour_name).join(", ");
    showMessage(parts.length ? `Not a Katamino piece in the challenge list: ${bad.map((b) => `"${b}"`).join(", ")} ` +
      `(use numbers 1-${state.info.katamino.length}, letters or colours: ${names})` : "The challenge list is empty.");
    $("#katamino-slam").focus();
    return null;
  }
  return parts.map((p) => by[p.toLowerCase()]);
}

// ---- boxing ---------------------------------------------------------------------------------

const FREE = { 1: 1, 2: 1, 3: 2, 4: 5, 5: 12, 6: 35, 7: 108 };
function renderBox() {
  const order = +$("#box-order").value, w = +$("#box-width").value, h = +$("#box-height").value;
  const most = +$("#box-max").value, least = +$("#box-min").value, oneSided = $("#box-one-sided").checked;
  const shapes = oneSided ? "one-sided" : `${FREE[order]} free`;
  $("#box-info").textContent = `${shapes} ${order}-ominoes, ${least}..${most} copies each; the box has ${w * h} cells` +
    ((w * h) % order ? ` (not a multiple of ${order}: no solution)` : "");
  const box = $("#box-shapes");
  box.replaceChildren();
  if (order <= 6 && !oneSided) {
    for (const p of state.info.library.filter((p) => p.order === order)) {
      box.append(el("div", { class: "piece-card" }, shapeSvg(p.rows, p.colour || pieceColour(p.name), 7), el("div", { class: "name", text: p.name })));
    }
  }
}

// ---- Shikaku editor ---------------------------------------------------------------------------

function setShikaku(width, height, rows = null) {
  const s = state.shikaku;
  s.width = width; s.height = height;
  s.rows = rows || Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => (s.rows && s.rows[r] && s.rows[r][c]) || 0));
  $("#shikaku-width").value = width; $("#shikaku-height").value = height;
  const grid = $("#shikaku-grid");
  const size = Math.max(20, Math.min(36, Math.floor(440 / width)));
  grid.style.setProperty("--cell", `${size}px`);
  grid.style.gridTemplateColumns = `repeat(${width}, ${size}px)`;
  grid.replaceChildren();
  if (width * height > 900) {
    grid.append(el("div", { class: "muted", style: "padding:0.5rem", text: `${width} x ${height}: too large to edit here; it is solved as loaded.` }));
    puzzleChanged();
    return;
  }
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
    const v = s.rows[r][c];
    const input = el("input", { type: "text", inputmode: "numeric", maxlength: 4, value: v ? String(v) : "", "data-r": r, "data-c": c,
      class: v ? "clue" : "", "aria-label": `row ${r + 1} column ${c + 1}` });
    input.addEventListener("input", () => {
      const n = parseInt(input.value.replace(/\D/g, ""), 10);
      s.rows[r][c] = Number.isFinite(n) ? n : 0;
      input.classList.toggle("clue", s.rows[r][c] > 0);
      puzzleChanged();
    });
    input.addEventListener("keydown", (e) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (moves[e.key] && (e.key.startsWith("ArrowU") || e.key.startsWith("ArrowD") || input.selectionStart === (e.key === "ArrowLeft" ? 0 : input.value.length))) {
        const [dr, dc] = moves[e.key];
        const next = grid.querySelector(`input[data-r="${r + dr}"][data-c="${c + dc}"]`);
        if (next) { e.preventDefault(); next.focus(); next.select(); }
      }
    });
    grid.append(input);
  }
  puzzleChanged();
}

function shikakuRows() {
  return state.shikaku.rows.map((row) => row.slice());
}

// ---- jobs ---------------------------------------------------------------------------------------

let pollTimer = null;
// One job per tab (issue 27): the buttons that start jobs are disabled while one starts, and the
// server refuses (409) a second job from this tab while one runs.
const TAB = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
const STARTERS = ["#solve", "#count", "#random", "#hint-next", "#stats-run", "#katamino-play", "#shikaku-new", "#calendar-year-run"];
let starting = false;

function setStarting(on) {
  starting = on;
  document.body.dataset.starting = on ? "1" : "";
  for (const sel of STARTERS) {
    const b = $(sel);
    if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
    else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
  }
  if (!on) updateNav();
}

async function startJob(action, options = {}) {
  if (starting) return null;                      // a double click: the first one is starting
  setStarting(true);
  try {
    return await startJobNow(action, options);
  } finally {
    setStarting(false);
  }
}

async function startJobNow(action, options) {
  showMessage(null);
  const refused = options.puzzle ? "" : puzzleRefusal();        // files.js: a file the page refused
  if (refused) { notStarted(action, refused); return null; }
  if (state.job && ["starting", "running"].includes(state.job.state)) await cancelJob();
  const puzzle = options.puzzle || currentPuzzle();
  delete options.puzzle;
  let view;
  try {
    view = await api("POST", "/api/jobs", { action, puzzle, tab: TAB, options: { ...options, heartbeat: HEARTBEAT } });
  } catch (e) {
    notStarted(action, e.message);
    return null;
  }
  const job = { id: view.id, action, state: view.state, solutions: [], summary: view.summary, rows: [], options, result: null, puzzle };
  state.job = job;
  document.body.dataset.job = job.id;
  if (action === "solve") { state.view = { job, index: 0 }; renderView(); }   // a random draw keeps the shown solution
  updateShareUrl();
  setRunning(true, action);
  if (action !== "hint" && action !== "stats") reveal($("#status"));
  pollJob(job);
  return job;
}

async function pollJob(job) {
  clearTimeout(pollTimer);
  let view;
  try {
    view = await api("GET", `/api/jobs/${job.id}?since=${job.solutions.length}`);
  } catch (e) {
    showMessage(e.message);
    setRunning(false);
    return;
  }
  if (state.job !== job) return;                 // another job took over
  const before = job.solutions.length;
  job.solutions.push(...view.solutions);
  job.state = view.state; job.progress = view.progress; job.elapsed = view.elapsed;
  job.rows = view.rows; job.result = view.result; job.error = view.error;
  onJobUpdate(job, before);
  if (["starting", "running"].includes(view.state) || job.solutions.length < view.listed) {
    pollTimer = setTimeout(() => pollJob(job), ["starting", "running"].includes(view.state) ? 200 : 0);
  } else {
    setRunning(false);
  }
}

// Closing the tab (or leaving the page) cancels its running job: a request the browser sends even
// as the page goes away. The server also cancels a job whose page stopped polling it for
// HEARTBEAT seconds (a crashed or frozen browser; hidden tabs poll at least once a minute).
const HEARTBEAT = 90;
function abandonJob() {
  const job = state.job;
  if (!job || !["starting", "running"].includes(job.state)) return;
  fetch(`/api/jobs/${job.id}/cancel`, { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: "{}" });
}

async function cancelJob() {
  const job = state.job;
  if (!job) return;
  clearTimeout(pollTimer);
  try {
    const view = await api("POST", `/api/jobs/${job.id}/cancel`);
    job.state = view.state; job.progress = view.progress; job.elapsed = view.elapsed;
  } catch (e) { showMessage(e.message); }
  onJobUpdate(job, job.solutions.length);
  setRunning(false);
}

const VERBS = { solve: "Solve", count: "Count", hint: "Hint", stats: "Statistics", slam: "Slam", sample: "Random", generate: "New puzzle", tally: "The year's count" };
// A job the server (or the page) would not start: the reason in the message and on the status
// line, so a click on Solve or Count always shows something.
function notStarted(action, reason) {
  showMessage(reason);
  $("#progress").dataset.state = "refused";
  $("#progress-text").textContent = `${VERBS[action] || action}: not started. ${reason}`;
}

function setRunning(running, action) {
  $("#cancel").disabled = !running;
  const bar = $("#progress");
  if (running) { bar.dataset.state = "running"; bar.dataset.action = action; }
}

function progressLine(job) {
  const p = job.progress || {};
  const parts = [];
  if (job.state === "starting") return "Starting (the first search of a server loads the compiled solver: a few seconds)…";
  if (job.action === "solve" && p.listed !== undefined) parts.push(`${fmt(p.listed)} solutions listed`);
  else if (p.solutions !== undefined) parts.push(`${fmt(p.solutions)} solutions so far`);
  if (p.unique !== undefined && p.unique !== null && job.options.unique) parts.push(`${fmt(p.unique)} unique`);
  if (p.nodes !== undefined) parts.push(`${fmt(p.nodes)} nodes`);
  if (p.total) parts.push(`${p.done} of ${p.total} parts`);
  parts.push(`${seconds(job.elapsed || 0)} elapsed`);
  if (p.eta !== undefined) parts.push(`about ${seconds(p.eta)} left`);
  else if (p.eta_low !== undefined) parts.push(`between ${seconds(p.eta_low)} and ${seconds(p.eta_high)} left (estimating)`);
  else if (p.total && job.state === "running") parts.push("estimating the time left…");
  return parts.join(" · ");
}

function onJobUpdate(job, before) {
  const bar = $("#progress"), text = $("#progress-text");
  const running = ["starting", "running"].includes(job.state);
  bar.dataset.state = job.state;
  const share = job.progress && job.progress.fraction;
  if (share) job.top = Math.max(job.top || 0, share);        // the bar never goes backwards
  const fraction = share ? job.top : 0;
  if (running && fraction) bar.setAttribute("aria-valuenow", Math.round(100 * fraction)); else bar.removeAttribute("aria-valuenow");
  bar.classList.toggle("indeterminate", running && !fraction);
  bar.querySelector(".bar").style.width = running ? (fraction ? `${(100 * fraction).toFixed(1)}%` : "") : "";
  const verb = { solve: "Solving", count: "Counting", hint: "Looking for a hint", stats: "Computing statistics", slam: "Playing the slam", sample: "Drawing a random solution", generate: "Making a puzzle", tally: "Counting every date of the year" }[job.action];
  if (running) text.textContent = `${verb}: ${progressLine(job)}`;
  else if (job.state === "cancelled") text.textContent = `Cancelled after ${seconds(job.elapsed)}` + (job.progress && job.progress.nodes ? ` (${fmt(job.progress.nodes)} nodes, ${fmt(job.progress.solutions)} solutions so far).` : ".");
  else if (job.state === "failed") { text.textContent = "Failed."; showMessage(job.error); }
  else text.textContent = `${{ solve: "Solved", count: "Counted", hint: hintWord(job.result), stats: "Statistics computed", slam: "Slam played", sample: "Random solution drawn", generate: "Puzzle made", tally: "Year counted" }[job.action]} in ${seconds(job.elapsed)}.`;
  if (job.action === "solve" || job.action === "sample") onSolutions(job, before);
  if (job.action === "count") onCount(job);
  if (job.action === "hint") onHint(job);
  if (job.action === "stats") onStats(job);
  if (job.action === "slam") onSlam(job);
  calendarJobUpdate(job);                                                  // calendar.js
  if (job.action === "generate" && job.state === "done" && job.result && !job.shown) {
    job.shown = true;
    const g = job.result;
    setShikaku(g.width, g.height, g.rows);
    $("#shikaku-text").value = g.game_id;
    $("#shikaku-info").textContent = `new ${g.width} x ${g.height} puzzle with one solution`;
  }
}

function hintWord(r) {                 // a dead end is no "hint found"
  if (!r || r.verdict === "place") return "Hint found";
  return r.verdict === "solved" ? "Already solved: checked" : "No hint, a dead end: checked";
}

function onCount(job) {
  const r = job.result, res = $("#result");
  if (!r) {
    if (job.state === "cancelled") res.textContent = "Count cancelled: the total is unknown.";
    return;
  }
  res.replaceChildren();
  res.dataset.solutions = r.solutions; res.dataset.unique = r.unique === null ? "" : r.unique;
  res.append(el("b", { id: "count-solutions", text: fmt(r.solutions) }), ` solution${r.solutions === 1 ? "" : "s"}`);
  if (r.unique !== null && r.unique !== undefined) res.append(", ", el("b", { id: "count-unique", text: fmt(r.unique) }), " unique");
  res.append(el("span", { class: "muted", text: ` · ${fmt(r.nodes)} nodes · ${seconds(r.seconds)}` }));
  if (r.reasons && r.reasons.length) res.append(el("div", { class: "muted", text: `No solution: ${r.reasons.join("; ")}` }));
}

function onSolutions(job, before) {
  const r = job.result, res = $("#result");
  if (job.action === "sample" && job.solutions.length && (!state.view || state.view.job !== job)) {
    state.view = { job, index: 0 };             // the random solution replaces the shown one when it is there
    before = 0;
  }
  if (state.view && state.view.job === job && job.solutions.length && before === 0) renderView();
  else if (state.view && state.view.job === job) updateNav();
  if (job.state === "done" && r) {
    res.replaceChildren();
    const n = job.solutions.length;
    if (job.action === "sample") {
      res.textContent = n ? `A random solution${r.uniform ? " (drawn uniformly from all of them)" : " (randomised search, not uniform)"}.` : "No solution.";
    } else if (job.summary.kind === "shikaku") {
      const total = r.solutions;
      if (!n) res.append(el("b", { text: "No solution." }), " ", el("span", { class: "muted", text: (r.reasons || []).join("; ") }));
      else res.append(el("b", { id: "shikaku-solutions", text: fmt(total) }), ` solution${total === 1 ? " (the puzzle is sound)" : "s"}` +
        (total === 1 ? "" : n >= total ? ": browse them with ◀ ▶" : `: the first ${fmt(n)} listed to browse`),
        el("span", { class: "muted", text: ` · ${seconds(r.seconds)}` }));
    } else if (!n) {
      res.append(el("b", { text: "No solution." }));
      if (r.reasons && r.reasons.length) res.append(" ", el("span", { class: "muted", text: r.reasons.join("; ") }));
    } else {
      const u = job.options.unique;
      const all = r.complete;
      res.append(el("b", { text: fmt(n) }), ` ${u ? "unique " : ""}solution${n === 1 ? "" : "s"}${all ? "" : " listed (there are more; Count gives the total)"}`,
        el("span", { class: "muted", text: ` · ${fmt(r.nodes)} nodes · ${seconds(r.seconds)}` }));
    }
    if (!n && job.action !== "sample") renderView();
  }
  updateNav();
}

function renderView() {
  const pic = $("#picture");
  const v = state.view;
  if (!v || !v.job.solutions.length) {
    if (state.preview) pic.replaceChildren(drawSolution(state.preview, null, { id: "board-svg" }));
    else pic.replaceChildren();
    show3d(pic, state.preview, []);
    updateNav();
    return;
  }
  const sol = v.job.solutions[v.index];
  pic.replaceChildren(drawSolution(v.job.summary, sol, { id: "solution-svg" }));
  show3d(pic, v.job.summary, sol);
  updateNav();
}

function updateNav() {
  const v = state.view;
  const n = v ? v.job.solutions.length : 0;
  const busy = v && ["starting", "running"].includes(v.job.state);
  $("#prev").disabled = !v || v.index <= 0;
  $("#next").disabled = !v || v.index >= n - 1;
  $("#random").disabled = !v || !n || busy || (state.preview && state.preview.kind === "shikaku");
  const pos = $("#position"), go = $("#goto");
  go.disabled = !v || n < 2 || v.job.action === "sample";
  go.max = Math.max(1, n);
  if (document.activeElement !== go) go.value = v && n ? v.index + 1 : "";
  if (!v || !n) pos.textContent = "–";
  else {
    const more = v.job.result && !v.job.result.complete && v.job.action === "solve" ? "+" : busy ? "…" : "";
    pos.textContent = v.job.action === "sample" ? "random solution" : `${v.index + 1} / ${fmt(n)}${more}`;
  }
  for (const f of ["svg", "png", "json"]) {
    const a = $(`#dl-${f}`);
    if (v && n) { a.href = `/api/jobs/${v.job.id}/solutions/${v.index}.${f}`; a.classList.remove("disabled"); a.removeAttribute("aria-disabled"); }
    else { a.removeAttribute("href"); a.classList.add("disabled"); a.setAttribute("aria-disabled", "true"); }
  }
  updateDownloads(v);                                                      // files.js: .xmpuzzle, STL, OBJ
}

function goTo() {
  const v = state.view, go = $("#goto");
  if (!v || !v.job.solutions.length) return;
  const typed = parseInt(go.value, 10);
  if (!Number.isFinite(typed)) return;
  const n = v.job.solutions.length, k = Math.max(1, Math.min(n, typed));
  go.value = k;
  if (k - 1 !== v.index) { v.index = k - 1; renderView(); }
}

function step(d) {
  const v = state.view;
  if (!v) return;
  const n = v.job.solutions.length;
  const i = Math.max(0, Math.min(n - 1, v.index + d));
  if (i !== v.index) { v.index = i; renderView(); }
}

async function randomSolution() {
  const v = state.view;
  if (!v) return;
  const job = v.job;
  if (job.action === "solve" && job.result && job.result.complete) {    // every solution is listed
    v.index = Math.floor(Math.random() * job.solutions.length);
    renderView();
    return;
  }
  await startJob("sample", { seed: Math.floor(Math.random() * 2 ** 31), puzzle: job.puzzle });
}

// ---- hints and statistics ------------------------------------------------------------------------

function onHint(job) {
  const r = job.result, text = $("#hint-text");
  if (job.state !== "done" || !r) { if (job.state === "cancelled") text.textContent = "Hint cancelled."; return; }
  if (r.verdict === "place") {
    state.hints.push({ piece: r.piece, letter: r.piece.length <= 2 ? r.piece : (r.letter || ""), cells: r.cells, colour: r.colour });
    text.replaceChildren(el("b", { text: `Place ${r.piece}` }), ` (hint ${state.hints.length}): ${r.reason}.`);
  } else {
    text.replaceChildren(el("b", { text: r.verdict === "solved" ? "Solved." : "Dead end: " }), r.verdict === "solved" ? " Every cell is covered." : r.reason);
  }
  drawHints();
}

function drawHints() {
  const pic = $("#hint-picture");
  const summary = (state.job && state.job.action === "hint" && state.job.summary) || state.preview;
  if (!summary || summary.kind === "shikaku") { pic.replaceChildren(); return; }
  pic.replaceChildren(drawSolution(summary, state.hints, { highlight: state.hints.length - 1, id: "hint-svg" }));
  show3d(pic, summary, state.hints, state.hints.length - 1);
}

// A 3D board also gets a view to turn (static/view3d.js, a module; without WebGL the SVG stays).
function show3d(pic, summary, placements, highlight = -1) {
  pic.board = { summary, placements: placements || [], highlight };
  if (window.view3d) window.view3d.update(pic);
}

function onStats(job) {
  const out = $("#stats-out"), r = job.result;
  if (job.state !== "done" || !r) return;
  const table = (head, rows, left = 1) => el("table", { class: "table" },
    el("thead", {}, el("tr", {}, ...head.map((h, i) => el("th", { class: i < left ? "left" : "", text: h })))),
    el("tbody", {}, ...rows.map((row) => el("tr", {}, ...row.map((c, i) => el("td", { class: i < left ? "left" : "", text: c }))))));
  const share = (n) => (n === null || n === undefined ? "–" : r.examined ? `${fmt(n)} (${(100 * n / r.examined).toFixed(0)}%)` : fmt(n));
  const d = r.difficulty;
  out.replaceChildren(
    el("p", {}, el("b", { text: `${fmt(r.solutions)} solutions` }), `, ${fmt(r.unique)} unique · board ${r.shape.join(" x ")}, ${r.cells} cells (${r.boundary_cells.corner} corners, ${r.boundary_cells.edge} on edges) · ${r.reflect ? "pieces may be flipped" : "rotate only"}`),
    el("h3", { text: `Pieces: in how many of ${r.complete ? "all" : "the first"} ${fmt(r.examined)} solutions they touch a corner, an edge` }),
    table(["piece", "placements", "corner", "edge"], r.pieces.map((p) => [p.letter, fmt(p.placements), share(p.corner), share(p.edge)])),
    el("h3", { text: "Hardest cells (fewest placements cover them)" }),
    table(["cell (row, column)", "placements"], r.hardest_cells.map((h) => [`(${h.cell.map((x) => x + 1).join(", ")})`, fmt(h.placements)])),
    el("h3", { text: "Difficulty" }),
    table(["", ""], [
      ["nodes to the first solution", `${fmt(d.nodes_to_first)} (${seconds(d.seconds_to_first)})`],
      [`search tree, Knuth's estimate (${fmt(d.tree_estimate.probes)} probes)`, `${fmt(Math.round(d.tree_estimate.nodes))} ± ${d.tree_estimate.nodes ? Math.round(100 * d.tree_estimate.stderr / d.tree_estimate.nodes) : 0}%`],
      ["search tree, counted", d.tree_nodes === null ? "not run (too large)" : fmt(d.tree_nodes)],
    ]),
  );
}

function onSlam(job) {
  const table = $("#slam-table"), body = table.querySelector("tbody");
  table.hidden = false;
  body.replaceChildren(...job.rows.map((row) => {
    const show = el("button", { type: "button", text: "Solve" });
    show.addEventListener("click", () => {
      state.katamino.chosen = row.pieces.slice(); state.katamino.height = row.height;
      $("#katamino-height").value = row.height;
      renderKatamino(); puzzleChanged(); solve();
    });
    return el("tr", {}, el("td", { text: row.n }), el("td", { text: `${row.height}x${row.width}` }), el("td", { class: "left", text: row.pieces.join("") }),
      el("td", { text: row.solvable ? "yes" : "no" }), el("td", { text: fmt(row.solutions) }), el("td", { text: fmt(row.unique) }), el("td", {}, show));
  }));
  if (job.state === "done") $("#result").textContent = `Slam: ${job.rows.filter((r) => r.solvable).length} of ${job.rows.length} boards solvable.`;
}

// ---- preview of the puzzle, share links -------------------------------------------------------------

let previewTimer = null;
function puzzleChanged() {
  if (state.mode === "tiling") updateTilingArea();
  if (state.mode === "box") renderBox();
  state.hints = [];
  clearTimeout(previewTimer);
  previewTimer = setTimeout(refreshPreview, 150);
  document.body.dataset.preview = "pending";
}

// The board of the puzzle on the page, from the server's check; body[data-preview] says where it
// is: pending (a change not yet checked), shown, refused, or none (nothing to check).
async function refreshPreview() {
  if (!state.info) return;
  const puzzle = currentPuzzle(), key = JSON.stringify(puzzle);
  const none = (puzzle.kind === "tiling" && puzzle.text !== undefined && !puzzle.text.trim()) ||
    (puzzle.kind === "katamino" && !puzzle.pieces.length);
  if (none) {
    if (puzzle.kind === "katamino") state.preview = null;
    document.body.dataset.preview = puzzleRefusal() ? "refused" : "none";      // files.js
    return;
  }
  let answer = null, error = null;
  try { answer = await api("POST", "/api/check", { puzzle }); } catch (e) { error = e; }
  if (JSON.stringify(currentPuzzle()) !== key) {        // changed while it was checked: check the new one
    clearTimeout(previewTimer);
    previewTimer = setTimeout(refreshPreview, 150);
    return;
  }
  if (error) {
    state.preview = null;
    document.body.dataset.preview = "refused";
    if (puzzle.kind === "katamino" || (puzzle.kind === "tiling" && puzzle.pieces && !puzzle.pieces.length)) return;
    showRefused(error.message);
    return;
  }
  state.preview = answer;
  state.previewKey = key;                           // which puzzle it shows (play.js)
  showMessage(null, "error", "preview");
  if (puzzle.kind === "tiling" && (puzzle.text !== undefined || puzzle.xmpuzzle !== undefined)) {
    const s = state.preview;
    const box = $("#reflect");
    if (!s.reflect && box.checked) {          // the file says rotate only (solid pieces, for one)
      box.checked = false; box.disabled = true;
      $("#reflect-label").title = "this puzzle file says: rotate only";
      state.previewKey = JSON.stringify({ ...puzzle, reflect: false });     // the same puzzle, as the page now says it
    }
    $("#tiling-text-info").textContent = `board ${s.shape.join(" x ")}, ${s.area} cells; ${s.pieces.length} piece kinds, ${s.tiles_area} cells of tiles` + (s.notes.length ? ` (${s.notes.join("; ")})` : "");
  }
  if (!state.view || state.view.job.summary.kind !== state.preview.kind || !sameBoard(state.view.job, puzzle)) {
    state.view = null;
    $("#result").textContent = "";
    renderView();
  }
  drawHints();
  updateViewTabs();
  playPuzzleChanged();                              // play.js
  document.body.dataset.preview = "shown";
}

// A puzzle the server refused (or a file the page refused): the error in place of the board, and
// no board, listing or count of another puzzle left on show.
function showRefused(message) {
  state.preview = null;
  showMessage(message, "error", "preview");
  state.view = null;
  clearResult();
  $("#picture").replaceChildren(el("p", { class: "picture-error", id: "board-error", text: `No board to show: ${message}` }));
  updateNav();
}

function clearResult() {              // a count or listing that no longer answers the puzzle shown
  const res = $("#result");
  res.replaceChildren();
  delete res.dataset.solutions; delete res.dataset.unique;
}

function sameBoard(job, puzzle) {
  return JSON.stringify(job.puzzle) === JSON.stringify(puzzle);
}

function encodeState() {
  const s = { m: state.mode, r: $("#reflect").checked ? 1 : 0, u: $("#unique").checked ? 1 : 0 };
  if (state.mode === "tiling") {
    if (state.tiling.source === "text") { s.t = $("#tiling-text").value; s.tn = burr.textName || undefined; if (burr.file) s.xm = burrShared(); }   // files.js
    else { s.b = tilingBoardRows(); s.p = Object.fromEntries(Object.entries(state.tiling.counts).filter(([, n]) => n > 0)); }
    if (onLattice() && state.tiling.source !== "text") s.g = state.tiling.grid;     // lattice.js
  } else if (state.mode === "katamino") { s.k = state.katamino.chosen; s.h = state.katamino.height; s.l = $("#katamino-slam").value; }
  else if (state.mode === "box") { s.x = currentPuzzle(); }
  else if (state.mode === "calendar") { s.c = calendarPuzzle(); }
  else { s.s = state.shikaku.rows; }
  const bytes = new TextEncoder().encode(JSON.stringify(s));
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeState(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function updateShareUrl() {
  history.replaceState(null, "", `#p=${encodeState()}`);
}

function restoreState(s) {
  $("#reflect").checked = s.r !== 0;
  $("#unique").checked = !!s.u;
  if (s.m === "tiling") {
    if (s.xm) restoreBurr(s.xm);                                               // files.js
    else if (typeof s.t === "string") { $("#tiling-text").value = s.t; burr.textName = typeof s.tn === "string" ? s.tn : ""; setTilingSource("text"); }
    else if (typeof s.g === "string") restoreLattice(s);                          // lattice.js
    else if (Array.isArray(s.b) && s.b.length) {
      state.tiling.counts = s.p || {};
      const rows = Math.min(30, s.b.length), cols = Math.min(30, Math.max(...s.b.map((r) => r.length)));
      setBoard(rows, cols, Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => s.b[r][c] === "X")));
      renderPieceLibrary();
    }
  } else if (s.m === "katamino") {
    const known = new Set(state.info.katamino.map((p) => p.letter));
    state.katamino.chosen = Array.isArray(s.k) ? s.k.filter((l) => known.has(l)) : [];
    state.katamino.height = +s.h || 5; $("#katamino-height").value = state.katamino.height;
    if (typeof s.l === "string") $("#katamino-slam").value = s.l;
    renderKatamino();
  } else if (s.m === "box" && s.x) {
    $("#box-order").value = s.x.order; $("#box-width").value = s.x.width; $("#box-height").value = s.x.height;
    $("#box-max").value = s.x.max_copies; $("#box-min").value = s.x.min_copies; $("#box-one-sided").checked = !!s.x.one_sided;
  } else if (s.m === "calendar" && s.c) {
    $("#calendar-board").value = s.c.board === "weekday" ? "weekday" : "classic";
    if (typeof s.c.date === "string") $("#calendar-date").value = s.c.date;
  } else if (s.m === "shikaku" && Array.isArray(s.s) && s.s.length) {
    setShikaku(s.s[0].length, s.s.length, s.s);
  }
  setMode(s.m || "tiling");
}

// ---- modes, views, wiring -------------------------------------------------------------------------

function setMode(mode) {
  state.mode = mode;
  $$("#modes button").forEach((b) => { b.classList.toggle("active", b.dataset.mode === mode); b.setAttribute("aria-selected", b.dataset.mode === mode); });
  for (const m of ["tiling", "katamino", "box", "shikaku", "calendar"]) $(`#mode-${m}`).hidden = m !== mode;
  $("#reflect-label").hidden = mode === "box" || mode === "shikaku" || mode === "calendar";
  $("#unique-label").hidden = mode === "shikaku" || mode === "calendar";
  $("#play-tab").disabled = mode === "shikaku" || mode === "calendar";
  updateViewTabs();
  if (mode === "shikaku" || mode === "calendar") setView("solutions");
  if (mode === "katamino") renderKatamino();
  state.view = null;
  $("#result").textContent = "";
  puzzleChanged();
}

// Hints and statistics work on the square grid (flat or cubes): not offered on triangle and hex
// boards nor for Shikaku (issue 27).
function updateViewTabs() {
  const grid = state.preview && state.preview.kind !== "shikaku" ? state.preview.grid : null;
  const off = state.mode === "shikaku" || state.mode === "calendar" || (state.mode === "tiling" && onLattice()) || (!!grid && grid !== "square");
  for (const id of ["#hint-tab", "#stats-tab"]) {
    const b = $(id);
    b.disabled = off;
    b.title = off ? "for square-grid tiling puzzles only" : "";
    if (off && b.classList.contains("active")) setView("solutions");
  }
}

function setView(view) {
  $$("#views button").forEach((b) => { b.classList.toggle("active", b.dataset.view === view); b.setAttribute("aria-selected", b.dataset.view === view); });
  for (const v of ["solutions", "hint", "stats", "play"]) $(`#view-${v}`).hidden = v !== view;
  if (view === "hint") drawHints();
  if (view === "play") playShow();                  // play.js
}

function newText() {                       // another file: its own reflection policy again
  if ($("#reflect").disabled) { $("#reflect").disabled = false; $("#reflect").checked = true; $("#reflect-label").title = ""; }
  puzzleChanged();
}

function setTilingSource(source) {
  state.tiling.source = source;
  if ($("#reflect").disabled) { $("#reflect").disabled = false; $("#reflect").checked = true; $("#reflect-label").title = ""; }
  $("#tiling-draw").hidden = source !== "draw";
  $("#tiling-text-pane").hidden = source !== "text";
  $("#tiling-draw-tab").classList.toggle("active", source === "draw");
  $("#tiling-text-tab").classList.toggle("active", source === "text");
  $("#tiling-draw-tab").setAttribute("aria-pressed", source === "draw");
  $("#tiling-text-tab").setAttribute("aria-pressed", source === "text");
  puzzleChanged();
}

// A click before the page has the server's answer (it warms up for a few seconds) is kept and
// run once the page is ready (issue 27).
let pending = null;
function whenReady(action) {
  if (state.info) return false;
  pending = action;
  $("#progress-text").textContent = `Waiting for the server to be ready: your ${action === solve ? "Solve" : "Count"} will start then…`;
  return true;
}

function solve() {
  if (whenReady(solve)) return null;
  setView("solutions");
  $("#result").textContent = "";
  const limit = state.info ? Math.min(1000, state.info.limits.listed_solutions) : 1000;
  return startJob("solve", { unique: $("#unique").checked, limit });
}

function count() {
  if (whenReady(count)) return null;
  $("#result").textContent = "";
  return startJob("count", { unique: $("#unique").checked });
}

const PRESETS = {
  "8x8-centre": () => { setBoard(8, 8); [[3, 3], [3, 4], [4, 3], [4, 4]].forEach(([r, c]) => { state.tiling.on[r][c] = false; }); renderBoardGrid(); pentominoes(); },
  "6x10": () => { setBoard(6, 10); pentominoes(); },
  "5x12": () => { setBoard(5, 12); pentominoes(); },
  "4x15": () => { setBoard(4, 15); pentominoes(); },
  "3x20": () => { setBoard(3, 20); pentominoes(); },
  "8x8-full-dominoes": () => { setBoard(8, 8); state.tiling.counts = { "2-1": 32 }; state.tiling.order = 2; renderPieceLibrary(); puzzleChanged(); },
};

function pentominoes() {
  state.tiling.counts = Object.fromEntries("FILNPTUVWXYZ".split("").map((l) => [l, 1]));
  state.tiling.order = 5;
  renderPieceLibrary();
  puzzleChanged();
}

async function init() {
  $("#solve").addEventListener("click", solve);
  $("#count").addEventListener("click", count);
  $("#progress-text").textContent = "Connecting to the server…";
  // the rest of init calls into the scripts after this one (lattice.js, play.js, files.js...):
  // the server's answer may come before the parser has run them (a busy machine), so wait for both
  const parsed = document.readyState === "loading"
    ? new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }))
    : null;
  try {
    state.info = await api("GET", "/api/info");
  } catch (e) {
    showMessage(e.message);
    $("#progress-text").textContent = "The server does not answer.";
    return;
  }
  await parsed;
  if (!pending) $("#progress-text").textContent = "Draw a puzzle and press Solve or Count.";
  $("#footer").textContent = `polytile ${state.info.version} — exact tiling solver. Everything runs on this computer; ` +
    `limits: ${state.info.limits.board_cells} board cells drawn here (${fmt(state.info.limits.file_cells)} in a file), ` +
    `${Math.round(state.info.limits.memory_bytes / 2 ** 20)} MB per search, ${state.info.limits.jobs_per_client} jobs at a time.`;
  $("#tiling-orders").replaceChildren(...[1, 2, 3, 4, 5, 6].map((n) => {
    const b = el("button", { type: "button", "data-order": n, text: ["", "monomino", "dominoes", "trominoes", "tetrominoes", "pentominoes", "hexominoes"][n] });
    b.addEventListener("click", () => { state.tiling.order = n; renderPieceLibrary(); });
    return b;
  }));
  setBoard(8, 8);
  pentominoes();
  setShikaku(7, 7);

  $$("#modes button").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $$("#views button").forEach((b) => b.addEventListener("click", () => setView(b.dataset.view)));
  $("#tiling-rows").addEventListener("change", () => resizeBoard());
  $("#tiling-cols").addEventListener("change", () => resizeBoard());
  $("#tiling-fill").addEventListener("click", () => setBoard(state.tiling.rows, state.tiling.cols));
  $("#tiling-clear").addEventListener("click", () => setBoard(state.tiling.rows, state.tiling.cols, Array.from({ length: state.tiling.rows }, () => Array(state.tiling.cols).fill(false))));
  $("#tiling-preset").addEventListener("change", (e) => { const f = PRESETS[e.target.value]; if (f) f(); e.target.value = ""; });
  $("#tiling-pentominoes").addEventListener("click", pentominoes);
  $("#tiling-none").addEventListener("click", () => { state.tiling.counts = {}; renderPieceLibrary(); puzzleChanged(); });
  $("#tiling-draw-tab").addEventListener("click", () => setTilingSource("draw"));
  $("#tiling-text-tab").addEventListener("click", () => setTilingSource("text"));
  $("#tiling-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (await openBurrFile(f)) return;                                     // files.js: a BurrTools file
    if (f.size > 200000) { refuseFile(`${f.name} is too large (${f.size} bytes; limit 200000)`); return; }   // files.js
    setTextFile(f.name, await f.text());                                   // files.js
  });
  $("#tiling-text").addEventListener("input", newText);
  $("#tiling-check").addEventListener("click", refreshPreview);
  $("#katamino-height").addEventListener("change", (e) => { state.katamino.height = +e.target.value; renderKatamino(); puzzleChanged(); });
  $("#katamino-clear").addEventListener("click", () => { state.katamino.chosen = []; renderKatamino(); puzzleChanged(); });
  $("#katamino-use").addEventListener("click", () => {
    const letters = slamLetters();
    if (letters) { state.katamino.chosen = [...new Set(letters)]; renderKatamino(); puzzleChanged(); }
  });
  $("#katamino-play").addEventListener("click", () => {
    const letters = slamLetters();
    if (letters) startJob("slam", { puzzle: { kind: "katamino", pieces: letters, height: state.katamino.height, reflect: $("#reflect").checked } });
  });
  for (const id of ["#box-order", "#box-width", "#box-height", "#box-max", "#box-min", "#box-one-sided"]) $(id).addEventListener("change", puzzleChanged);
  $("#shikaku-resize").addEventListener("click", () => setShikaku(Math.max(1, Math.min(30, +$("#shikaku-width").value || 1)), Math.max(1, Math.min(30, +$("#shikaku-height").value || 1))));
  $("#shikaku-clear").addEventListener("click", () => { state.shikaku.rows = null; setShikaku(state.shikaku.width, state.shikaku.height); });
  $("#shikaku-new").addEventListener("click", () => {
    const w = Math.max(2, Math.min(30, +$("#shikaku-width").value || 7)), h = Math.max(2, Math.min(30, +$("#shikaku-height").value || 7));
    startJob("generate", { seed: Math.floor(Math.random() * 2 ** 31), puzzle: { kind: "shikaku", rows: Array.from({ length: h }, () => Array(w).fill(0)) } });
  });
  $("#shikaku-load").addEventListener("click", async () => {
    try {
      const s = await api("POST", "/api/check", { puzzle: { kind: "shikaku", text: $("#shikaku-text").value } });
      setShikaku(s.width, s.height, s.rows);
      $("#shikaku-info").textContent = `${s.width} x ${s.height}, ${s.clues} numbers`;
      showMessage(null);
    } catch (e) { showMessage(e.message); }
  });
  $("#cancel").addEventListener("click", cancelJob);
  $("#prev").addEventListener("click", () => step(-1));
  $("#next").addEventListener("click", () => step(1));
  $("#random").addEventListener("click", randomSolution);
  $("#goto").addEventListener("change", goTo);
  $("#message").addEventListener("click", () => showMessage(null));
  window.addEventListener("pagehide", abandonJob);
  $("#unique").addEventListener("change", () => { state.view = null; clearResult(); renderView(); });
  $("#reflect").addEventListener("change", puzzleChanged);
  // not tied to the preview: a click while its check is on its way (a busy server) asks all the same
  $("#hint-next").addEventListener("click", () => { if (state.mode !== "shikaku") startJob("hint", { placed: state.hints.map((h) => h.cells) }); });
  $("#hint-reset").addEventListener("click", () => { state.hints = []; $("#hint-text").textContent = "Start over: no piece placed."; drawHints(); });
  $("#stats-run").addEventListener("click", () => startJob("stats"));
  $("#share").addEventListener("click", async () => {
    updateShareUrl();
    try { await navigator.clipboard.writeText(location.href); showMessage("Link copied: it opens this puzzle.", "info"); }
    catch (e) { showMessage("The link is in the address bar.", "info"); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, textarea, select") || e.target.closest(".grid, #play-board, #play-tray")) return;
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  });
  if (!(location.hash.startsWith("#p=") && restoreFromHash())) setMode("tiling");
  window.addEventListener("hashchange", () => { if (location.hash.startsWith("#p=")) restoreFromHash(); });
  document.body.dataset.ready = "1";
  if (pending) { const run = pending; pending = null; run(); }
}

// A share link, opened at load or pasted into this tab's address bar (only the hash changes).
function restoreFromHash() {
  try { restoreState(decodeState(location.hash.slice(3))); return true; }
  catch (e) { showMessage("The link's puzzle could not be read (a share link starts #p= and was cut or changed).", "error", "link"); return false; }
}

function resizeBoard() {
  const t = state.tiling;
  const rows = Math.max(1, Math.min(30, +$("#tiling-rows").value || 1)), cols = Math.max(1, Math.min(30, +$("#tiling-cols").value || 1));
  const on = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => (r < t.rows && c < t.cols ? t.on[r][c] : true)));
  setBoard(rows, cols, on);
}

init();
