// Files in and out of the page: a BurrTools .xmpuzzle file opened with the file picker (gzip or
// plain XML; the server reads it with the CLI's reader, web/burrfile.py), its problem chosen when
// it holds several; and the shown solution downloaded as .xmpuzzle, STL or OBJ, files the server
// makes (web/downloads.py). Loaded after app.js, whose helpers ($, el, api, showMessage) it uses.
"use strict";

const BURR_MAX = 700000;           // bytes of a .xmpuzzle the page sends (web/burrfile.py MAX_FILE)
const burr = { file: null,         // {name, data (base64), problem (from 1), problems: [{number, name, line}]}
  refused: "",                     // why the last file chosen was refused (until the next file or text)
  textName: "" };                  // the name of the text file read into the text box (until it is edited)

// Whether a chosen file is a BurrTools file: its suffix, gzip's magic bytes, or XML starting <puzzle.
function looksLikeBurr(name, bytes) {
  if (/\.xmpuzzle$/i.test(name)) return true;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  const head = new TextDecoder().decode(bytes.slice(0, 200)).replace(/^\ufeff/, "").trimStart();
  return head.startsWith("<puzzle") || (head.startsWith("<?xml") && head.includes("<puzzle"));
}

function base64Of(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

// The file picker's file, when it is a BurrTools one: read, checked by the server (one line on a
// fault), its problems offered. Returns false for other files (app.js reads them as text).
async function openBurrFile(f) {
  const bytes = new Uint8Array(await f.arrayBuffer());
  if (!looksLikeBurr(f.name, bytes)) return false;
  if (bytes.length > BURR_MAX) { refuseFile(`${f.name} is too large (${bytes.length} bytes; limit ${BURR_MAX})`); return true; }
  const file = { name: f.name, data: base64Of(bytes), problem: 1, problems: [] };
  try {
    const s = await api("POST", "/api/check", { puzzle: { kind: "tiling", xmpuzzle: file.data, name: file.name, problem: 1 } });
    file.problems = s.problems || [];
  } catch (e) {
    refuseFile(e.message);
    return true;
  }
  burr.refused = "";
  setBurrFile(file);
  return true;
}

// A file refused (by the page or the server): the puzzle loaded before is gone too, so Solve
// cannot quietly solve it; the pane, the board and Solve or Count say why (puzzleRefusal).
function refuseFile(reason) {
  burr.file = null;
  burr.textName = "";
  burr.refused = reason;
  renderBurrChooser();
  $("#tiling-text").value = "";
  $("#tiling-file").value = "";
  if (state.tiling.source !== "text") setTilingSource("text");
  clearTimeout(previewTimer);                   // nothing to check (a late answer about the puzzle before is dropped)
  document.body.dataset.preview = "refused";
  $("#tiling-text-info").textContent = "No puzzle: the file was refused.";
  showRefused(reason);
  playPuzzleChanged();                          // play.js: no position of the puzzle before
}

// Why the page has no puzzle to run (a refused file, nothing typed since), or "".
function puzzleRefusal() {
  if (state.mode !== "tiling" || state.tiling.source !== "text" || burr.file || $("#tiling-text").value.trim()) return "";
  return burr.refused;
}

function setBurrFile(file) {
  burr.file = file;
  burr.textName = "";
  $("#tiling-text").value = "";
  renderBurrChooser();
  if (file && state.tiling.source !== "text") setTilingSource("text");
  else newText();
}

// The problem chooser: shown when the file holds more than one problem.
function renderBurrChooser() {
  let row = $("#burr-row");
  if (!row) {
    row = el("div", { class: "row", id: "burr-row" },
      el("label", { for: "burr-problem", text: "Problem" }), el("select", { id: "burr-problem" }),
      el("span", { id: "burr-name", class: "muted" }));
    $("#tiling-file").after(row);
    $("#burr-problem").addEventListener("change", (e) => { burr.file.problem = +e.target.value; newText(); });
  }
  const f = burr.file;
  row.hidden = !f;
  if (!f) return;
  const select = $("#burr-problem");
  select.replaceChildren(...f.problems.map((p) => el("option", { value: p.number, text: p.line, selected: p.number === f.problem })));
  select.disabled = f.problems.length < 2;
  $("#burr-name").textContent = `${f.name}: ${f.problems.length} problem${f.problems.length === 1 ? "" : "s"}`;
}

// A text file read into the text box: it replaces the open BurrTools file too.
function setTextFile(name, text) {
  burr.file = null;
  burr.refused = "";
  renderBurrChooser();
  $("#tiling-text").value = text;
  burr.textName = name;
  newText();
}

// The puzzle spec of the text box (app.js currentPuzzle), with the name of the file it was read
// from (the server names the downloads after it).
function textPuzzle(reflect) {
  const p = { kind: "tiling", text: $("#tiling-text").value, reflect };
  if (burr.textName) p.name = burr.textName;
  return p;
}

// The puzzle spec of the open BurrTools file (app.js currentPuzzle), or null.
function burrPuzzle(reflect) {
  const f = burr.file;
  return f ? { kind: "tiling", xmpuzzle: f.data, name: f.name, problem: f.problem, reflect } : null;
}

// A share link holds the open file (files up to BURR_LINK bytes of base64; larger ones are not shared).
const BURR_LINK = 100000;
function burrShared() {
  const f = burr.file;
  return f.data.length <= BURR_LINK ? { n: f.name, d: f.data, p: f.problem, l: f.problems } : undefined;
}

function restoreBurr(x) {
  if (typeof x.d !== "string" || !Array.isArray(x.l)) return;
  setBurrFile({ name: String(x.n || "shared.xmpuzzle"), data: x.d, problem: +x.p || 1, problems: x.l });
}

// ---- downloads -------------------------------------------------------------------------------

// Why a format cannot be downloaded for a job (the reason is the disabled link's title), or "".
function downloadRefusal(fmt, job) {
  const s = job.summary || {};
  if (["svg", "png", "json"].includes(fmt)) return "";
  if (s.kind === "shikaku") return "Shikaku solutions are pictures and JSON only";
  if (fmt !== "xmpuzzle") return "";
  if (s.kind === "calendar") return "a calendar puzzle is not a BurrTools puzzle";
  const g = s.grid ? gridFacts(s.grid, s.dim) : null;
  if (s.grid && !(g && g.burrtools)) return `BurrTools files hold BurrTools' grids (squares, cubes ...), not the ${s.grid} grid`;
  if (s.dim === 2 && job.puzzle && job.puzzle.reflect === false) return "BurrTools turns pieces in space, which flips flat ones: not for rotate-only puzzles";
  return "";
}

const DOWNLOAD_TITLES = { xmpuzzle: "the puzzle as a BurrTools file, this solution stored in it",
  stl: "this solution as a mesh to 3D-print (STL, 10 mm per cell)", obj: "this solution as a mesh (OBJ, a group per piece)" };

function updateDownloads(v) {
  const n = v ? v.job.solutions.length : 0;
  for (const f of ["xmpuzzle", "stl", "obj"]) {
    const a = $(`#dl-${f}`);
    if (!a) continue;
    const why = v && n ? downloadRefusal(f, v.job) : "no solution shown";
    if (!why) { a.href = `/api/jobs/${v.job.id}/solutions/${v.index}.${f}`; a.classList.remove("disabled"); a.removeAttribute("aria-disabled"); a.title = DOWNLOAD_TITLES[f]; }
    else { a.removeAttribute("href"); a.classList.add("disabled"); a.setAttribute("aria-disabled", "true"); a.title = `${DOWNLOAD_TITLES[f]}: ${why}`; }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("#tiling-text").addEventListener("input", () => { burr.refused = ""; burr.textName = ""; if (burr.file) { burr.file = null; renderBurrChooser(); } });
});
