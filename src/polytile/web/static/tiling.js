// The Tiling tab: the board editor (click or drag cells, the arrow keys), the piece library with copies,
// presets, and the switch to a puzzle file (files.js reads files).
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function tilingBoardRows() {
  if (onLattice()) return latticeBoardRows();              // grids drawn as polygons: lattice.js
  const t = state.tiling;
  const rows = [];
  for (let r = 0; r < t.rows; r++) {
    let s = "";
    for (let c = 0; c < t.cols; c++) s += t.on[r][c] ? "X" : ".";
    rows.push(s);
  }
  return rows;
}

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

function resizeBoard() {
  const t = state.tiling;
  const rows = Math.max(1, Math.min(30, +$("#tiling-rows").value || 1)), cols = Math.max(1, Math.min(30, +$("#tiling-cols").value || 1));
  const on = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => (r < t.rows && c < t.cols ? t.on[r][c] : true)));
  setBoard(rows, cols, on);
}

function wireTiling() {
  gridChooser($("#tiling-grid-kind"));                     // grids.js: the grids the server has
  $("#grid-turns").textContent = turnWords();
  $("#tiling-orders").replaceChildren(...editorGrid().size_words.map((name, i) => {
    const n = i + 1, b = el("button", { type: "button", "data-order": n, text: name });
    b.addEventListener("click", () => { state.tiling.order = n; renderPieceLibrary(); });
    return b;
  }));
  setBoard(8, 8);
  pentominoes();
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
}
