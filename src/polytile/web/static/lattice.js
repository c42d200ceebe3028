// The grids drawn as polygons on polytile's page (all but the square grid, which tiling.js edits as
// buttons): the grid chosen for a drawn board, the board editor (one SVG polygon per cell, click
// or drag to toggle), the grid's piece library (polyiamonds, polyhexes ...) and solutions (and
// hints) drawn on that grid. app.js calls in through a few hooks (onLattice, gridField,
// latticeBoardRows, renderLatticeBoard, renderLatticePieces, gridLibrary, drawLattice,
// restoreLattice). What each grid looks like comes from the server (grids.js).
//
// The editor's cells are (row, column) of the grid's text drawing (polytile's lattice_draw): the
// server sends each board cell's drawing point as summary.points.
"use strict";

function onLattice() {
  return !!state.tiling.grid && !editorGrid().squares;
}

function gridField() {
  return onLattice() ? { grid: state.tiling.grid } : {};
}

function gridLibrary() {
  return onLattice() ? state.info.lattice_library[state.tiling.grid] || [] : state.info.library;
}

// ---- geometry: polygons of drawing points (edge 1, y downwards) --------------------------------

function polygonBounds(polys) {
  const xs = polys.flat().map((p) => p[0]), ys = polys.flat().map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function pointsAttr(poly, scale, x0, y0, pad) {
  return poly.map(([x, y]) => `${(pad + (x - x0) * scale).toFixed(2)},${(pad + (y - y0) * scale).toFixed(2)}`).join(" ");
}

// ---- the board editor ------------------------------------------------------------------------

function latticeBoardRows() {
  // every row as wide as the last cell of the widest (one more used to add a column at each
  // share-link round trip on the hex grid)
  const t = state.tiling, g = editorGrid(), width = editorWidth(g, t.cols);
  const rows = [];
  for (let r = 0; r < t.rows; r++) {
    const row = Array(width).fill(".");
    for (let j = 0; j < t.cols; j++) if (t.on[r][j]) row[editorPoint(g, r, j)[1]] = "X";
    rows.push(row.join(""));
  }
  return rows;
}

function renderLatticeBoard() {
  const t = state.tiling, g = editorGrid(), box = $("#tiling-grid");
  const polys = [];
  for (let r = 0; r < t.rows; r++) for (let j = 0; j < t.cols; j++) polys.push([r, j, gridPolygon(g, ...editorPoint(g, r, j))]);
  const b = polygonBounds(polys.map((p) => p[2]));
  const room = Math.min(440, (box.parentElement.clientWidth || 440) - 4);
  const scale = Math.max(8, Math.min(40, room / (b.x1 - b.x0)));
  const pad = 2, W = (b.x1 - b.x0) * scale + 2 * pad, H = (b.y1 - b.y0) * scale + 2 * pad;
  const svg = el("svg:svg", { id: "lattice-editor", viewBox: `0 0 ${W} ${H}`, width: W, height: H, "data-grid": t.grid,
    role: "group", "aria-label": `${t.grid} board, ${t.rows} rows of ${t.cols} cells` });
  if (boardFocus[0] >= t.rows || boardFocus[1] >= t.cols) boardFocus = [0, 0];
  for (const [r, j, poly] of polys) {
    // each cell a focusable toggle with a label; one tab stop, arrows move inside
    const cell = el("svg:polygon", { class: "lattice-cell" + (t.on[r][j] ? " on" : ""), "data-r": r, "data-c": j,
      points: pointsAttr(poly, scale, b.x0, b.y0, pad), role: "button", "aria-label": cellLabel(r, j, t.on[r][j]),
      tabindex: r === boardFocus[0] && j === boardFocus[1] ? 0 : -1 });
    cell.addEventListener("mousedown", (e) => { e.preventDefault(); painting = !t.on[r][j]; latticePaint(cell, r, j); });
    cell.addEventListener("mouseenter", () => { if (painting !== null) latticePaint(cell, r, j); });
    cell.addEventListener("keydown", (e) => {
      if (e.key === " " || e.key === "Enter") { e.preventDefault(); painting = !t.on[r][j]; latticePaint(cell, r, j); painting = null; }
      else gridArrow(e, svg, r, j, t.rows, t.cols);
    });
    svg.append(cell);
  }
  box.style.gridTemplateColumns = "";
  box.replaceChildren(svg);
  puzzleChanged();
}

function latticePaint(cell, r, j) {
  state.tiling.on[r][j] = painting;
  cell.classList.toggle("on", painting);
  cell.setAttribute("aria-label", cellLabel(r, j, painting));
  puzzleChanged();
}

// ---- the piece library -----------------------------------------------------------------------

function latticeShapeSvg(g, points, colour, size = 12) {
  const polys = points.map(([r, c]) => gridPolygon(g, r, c));
  const b = polygonBounds(polys);
  const W = (b.x1 - b.x0) * size + 2, H = (b.y1 - b.y0) * size + 2;
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  for (const p of polys) svg.append(el("svg:polygon", { points: pointsAttr(p, size, b.x0, b.y0, 1), fill: colour, stroke: "#262626", "stroke-width": 0.8 }));
  return svg;
}

function renderLatticePieces() {
  const t = state.tiling, box = $("#tiling-pieces");
  box.replaceChildren();
  for (const p of gridLibrary().filter((p) => p.order === t.order)) {
    const input = el("input", { type: "number", min: 0, max: 60, value: t.counts[p.name] || 0, "aria-label": `copies of ${p.name}`, "data-piece": p.name });
    const card = el("label", { class: "piece-card" + (t.counts[p.name] ? " used" : ""), title: p.name },
      latticeShapeSvg(editorGrid(), p.points, pieceColour(p.name)), el("span", { class: "name", text: p.name }), input);
    input.addEventListener("input", () => {
      t.counts[p.name] = Math.max(0, Math.min(60, parseInt(input.value || "0", 10) || 0));
      card.classList.toggle("used", t.counts[p.name] > 0);
      puzzleChanged();
    });
    input.addEventListener("change", () => { input.value = t.counts[p.name] || 0; });
    box.append(card);
  }
  $$("#lattice-orders button").forEach((b) => b.classList.toggle("active", +b.dataset.order === t.order));
}

function latticeOrderButtons(g) {
  const sizes = new Set(gridLibrary().map((p) => p.order));
  $("#lattice-orders").replaceChildren(...g.size_words.map((name, i) => [i + 1, name]).filter(([n]) => sizes.has(n)).map(([n, name]) => {
    const b = el("button", { type: "button", "data-order": n, text: name });
    b.addEventListener("click", () => { state.tiling.order = n; renderLatticePieces(); });
    return b;
  }));
}

function latticeAllOfOrder() {
  const t = state.tiling;
  t.counts = Object.fromEntries(gridLibrary().filter((p) => p.order === t.order).map((p) => [p.name, 1]));
  renderLatticePieces();
  puzzleChanged();
}

// ---- choosing the grid -----------------------------------------------------------------------

function setGrid(grid, board = null) {
  const t = state.tiling, g = gridFacts(grid);
  t.grid = grid;
  $("#tiling-grid-kind").value = grid;
  const lattice = !g.squares;
  for (const id of ["#tiling-preset", "#tiling-orders", "#tiling-pentominoes"]) $(id).hidden = lattice;
  for (const id of ["#lattice-preset", "#lattice-orders", "#lattice-all"]) $(id).hidden = !lattice;
  $("#tiling-grid").classList.toggle("lattice", lattice);
  $("#tiling-pieces").classList.toggle("named", lattice);                  // names such as butterfly
  updateViewTabs();                                  // hints, statistics: grids of boxes only (app.js)
  t.counts = {};
  if (lattice) {
    latticeOrderButtons(g);
    t.order = g.library_first;
    $("#lattice-preset").replaceChildren(el("option", { value: "", text: "Preset…" }),
      ...g.presets.map((p) => el("option", { value: p.key, text: p.label })));
    if (board) setBoard(board.length, board[0].length, board);
    else setBoard(...g.editor_board);
    latticeAllOfOrder();
  } else {
    t.order = g.library_first;
    setBoard(...g.editor_board);
    pentominoes();
  }
}

function cellsOfRows(grid, rows) {          // drawing rows -> the editor's on[r][j]
  const g = gridFacts(grid), cols = Math.max(...rows.map((row, r) => editorCells(g, r, row.length)));
  return rows.slice(0, 30).map((row, r) => Array.from({ length: Math.min(30, cols) }, (_, j) => row[editorPoint(g, r, j)[1]] === "X"));
}

function latticePreset(key) {              // a published board (of any grid: it is chosen too)
  const g = editorGrids().find((x) => x.presets.some((p) => p.key === key));
  if (!g) return;
  const p = g.presets.find((x) => x.key === key);
  setGrid(g.name, cellsOfRows(g.name, p.rows));
  state.tiling.order = p.order;
  latticeAllOfOrder();
}

function restoreLattice(s) {                 // a share link's board on a grid drawn as polygons
  const g = gridFacts(s.g);
  if (!g || g.squares || !g.drawing || !Array.isArray(s.b) || !s.b.length) return;
  setGrid(s.g, cellsOfRows(s.g, s.b));
  const known = new Map(gridLibrary().map((p) => [p.name, p.order]));
  state.tiling.counts = Object.fromEntries(Object.entries(s.p || {}).filter(([name]) => known.has(name)));
  const first = Object.keys(state.tiling.counts)[0];
  if (first) state.tiling.order = known.get(first);
  renderLatticePieces();
  puzzleChanged();
}

// ---- solutions on the grid -------------------------------------------------------------------

function edgeKey(a, b) {
  const k = (p) => `${Math.round(p[0] * 1000)},${Math.round(p[1] * 1000)}`;      // -0 reads 0
  return [k(a), k(b)].sort().join("|");
}

// One SVG of a board drawn as polygons: placements coloured, thick lines where pieces meet and
// round the board. `placements`: [{piece, letter, cells, colour}] in the summary's cells.
function drawLattice(summary, placements, { highlight = -1, maxWidth = 640, maxHeight = 520, id = null } = {}) {
  const grid = summary.grid, g = gridFacts(grid, summary.dim), key = (c) => c.join(",");
  const polys = summary.points.map(([r, c]) => gridPolygon(g, r, c));
  const index = new Map(summary.cells.map((c, i) => [key(c), i]));
  const owner = new Array(polys.length).fill(-1);
  placements.forEach((p, k) => p.cells.forEach((c) => { if (index.has(key(c))) owner[index.get(key(c))] = k; }));
  const b = polygonBounds(polys);
  const scale = Math.max(6, Math.min(48, maxWidth / (b.x1 - b.x0), maxHeight / (b.y1 - b.y0)));
  const pad = 4, W = (b.x1 - b.x0) * scale + 2 * pad, H = (b.y1 - b.y0) * scale + 2 * pad;
  const svg = el("svg:svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, width: W, height: H, id, class: "board-svg", "data-grid": grid,
    "data-x0": b.x0, "data-y0": b.y0, "data-scale": scale, "data-pad": pad });       // latticeCellAttr reads them
  const edges = new Map();
  polys.forEach((poly, i) => {
    const o = owner[i];
    svg.append(el("svg:polygon", { points: pointsAttr(poly, scale, b.x0, b.y0, pad), fill: o >= 0 ? placements[o].colour : "#ffffff",
      stroke: "rgba(0,0,0,0.18)", "stroke-width": 0.6, opacity: o >= 0 && highlight >= 0 && o !== highlight ? 0.55 : 1 }));
    poly.forEach((p, k) => {
      const q = poly[(k + 1) % poly.length], e = edgeKey(p, q);
      if (!edges.has(e)) edges.set(e, { p, q, owners: [] });
      edges.get(e).owners.push(o);
    });
  });
  const xy = ([x, y]) => `${(pad + (x - b.x0) * scale).toFixed(2)} ${(pad + (y - b.y0) * scale).toFixed(2)}`;
  const path = [...edges.values()].filter((e) => e.owners.length === 1 || e.owners[0] !== e.owners[1]).map((e) => `M${xy(e.p)}L${xy(e.q)}`);
  svg.append(el("svg:path", { d: path.join(""), stroke: "#262626", "stroke-width": Math.max(1.5, scale / 14), "stroke-linecap": "round", fill: "none" }));
  placements.forEach((p) => svg.append(el("svg:g", { class: "piece", "data-piece": p.piece, "data-letter": p.letter || "", "data-cells": JSON.stringify(p.cells) })));
  return svg;
}

// The points attribute of a cell's polygon over a board drawn by drawLattice (the play preview:
// the cell need not be on the board).
function latticeCellAttr(svg, g, r, c) {
  const d = svg.dataset;
  return pointsAttr(gridPolygon(g, r, c), +d.scale, +d.x0, +d.y0, +d.pad);
}

function wireLattice() {
  $("#tiling-grid-kind").addEventListener("change", (e) => setGrid(e.target.value));
  $("#lattice-preset").addEventListener("change", (e) => { latticePreset(e.target.value); e.target.value = ""; });
  $("#lattice-all").addEventListener("click", latticeAllOfOrder);
}
wireLattice();
