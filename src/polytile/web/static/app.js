// polytile's page: edit a puzzle in one of five modes, run jobs on the server (solve, count,
// hint, statistics, slams, random solutions), poll their progress and draw the solutions as SVG.
// Plain JavaScript, no build step, nothing loaded from elsewhere: classic scripts sharing the
// page's globals, loaded in index.html's order. This one holds the state, the helpers, the
// modes and views and the start; each tab has its own script (tiling.js, katamino.js,
// boxing.js, shikaku.js, calendar.js; solutions.js, hint.js, stats.js, play.js, design_cards.js,
// design_calendar.js), jobs.js runs
// the jobs, draw.js draws, preview.js checks the puzzle, share.js makes links, files.js reads
// files.
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
// error stays in view until the user acts.
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

// ---- the puzzle of each mode ------------------------------------------------------------------

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
  if (!$("#view-design").hidden) designShow();      // design_cards.js
  puzzleChanged();
}

// Hints and statistics work on grids of boxes (squares, cubes; the grid's facts say): not offered
// on other grids nor for Shikaku.
function updateViewTabs() {
  const s = state.preview && state.preview.kind !== "shikaku" ? state.preview : null, g = s && s.grid ? gridFacts(s.grid, s.dim) : null;
  const off = state.mode === "shikaku" || state.mode === "calendar" || (state.mode === "tiling" && !editorGrid().boxes) || (!!(s && s.grid) && !(g && g.boxes));
  for (const id of ["#hint-tab", "#stats-tab"]) {
    const b = $(id);
    b.disabled = off;
    b.title = off ? "for tiling puzzles on squares or cubes only" : "";
    if (off && b.classList.contains("active")) setView("solutions");
  }
}

function setView(view) {
  $$("#views button").forEach((b) => { b.classList.toggle("active", b.dataset.view === view); b.setAttribute("aria-selected", b.dataset.view === view); });
  for (const v of ["solutions", "hint", "stats", "play", "design"]) $(`#view-${v}`).hidden = v !== view;
  if (view === "hint") drawHints();
  if (view === "play") playShow();                  // play.js
  if (view === "design") designShow();              // design_cards.js
}

// A click before the page has the server's answer (it warms up for a few seconds) is kept and
// run once the page is ready.
let pending = null, pageReady = false;
function whenReady(action) {
  if (pageReady) return false;
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

async function init() {
  $("#solve").addEventListener("click", solve);
  $("#count").addEventListener("click", count);
  $("#progress-text").textContent = "Connecting to the server…";
  // the rest of init calls into the scripts after this one (tiling.js, jobs.js, play.js, files.js...):
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
  $$("#modes button").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $$("#views button").forEach((b) => b.addEventListener("click", () => setView(b.dataset.view)));
  $("#message").addEventListener("click", () => showMessage(null));
  $("#reflect").addEventListener("change", puzzleChanged);
  // each tab's controls: tiling.js, katamino.js, boxing.js, shikaku.js, jobs.js, solutions.js,
  // hint.js, stats.js, share.js (calendar.js, files.js, play.js and lattice.js wire their own)
  for (const wire of [wireTiling, wireKatamino, wireBoxing, wireShikaku, wireJobs, wireSolutions, wireHint, wireStats]) wire();
  if (!wireShare()) setMode("tiling");             // a share link in the address bar sets the mode
  pageReady = true;
  document.body.dataset.ready = "1";
  if (pending) { const run = pending; pending = null; run(); }
}

init();
