// What the page knows of each grid: the facts the server sends in /api/info (web/grid_facts.py,
// from the grids' objects), read here for the other scripts, which ask these facts and never
// compare a grid's name (a grid registered on the server appears in the board editor's chooser).
//
// A flat grid's drawing: its text drawing's (row, column) points, the polygon of each computed
// from the polygons of the four points (0..1, 0..1) ("tiles") and the shifts of two rows and two
// columns; the board editor's cell j of row r is at drawing column step j + stagger (r mod 2).
"use strict";

// The grid of a name (and number of coordinates, which tells the cube grid from the square one).
function gridFacts(name, dim = null) {
  const all = (state.info && state.info.grids) || [];
  const named = all.filter((g) => g.name === name);
  return named.find((g) => g.dim === dim) || (named.length === 1 || dim === null ? named[0] : null) || null;
}

// The grid the board editor draws on (the square editor's when none is chosen).
function editorGrid() {
  return gridFacts(state.tiling.grid) || state.info.grids.find((g) => g.squares);
}

// The grids the board editor offers: those drawn in the plane.
function editorGrids() {
  return state.info.grids.filter((g) => g.flat && g.drawing);
}

function gridChooser(select) {
  select.replaceChildren(...editorGrids().map((g) => el("option", { value: g.name, text: g.name })));
}

// The polygon of a drawing point (x right, y down, edge 1).
function gridPolygon(g, r, c) {
  const d = g.drawing, i = ((r % 2) + 2) % 2, j = ((c % 2) + 2) % 2, a = (r - i) / 2, b = (c - j) / 2;
  const dx = a * d.rows2[0] + b * d.columns2[0], dy = a * d.rows2[1] + b * d.columns2[1];
  return d.tiles[i][j].map(([x, y]) => [x + dx, y + dy]);
}

// The board editor's cell j of row r as a drawing point, and back.
function editorPoint(g, r, j) {
  return [r, g.drawing.step * j + g.drawing.stagger * (r % 2)];
}

function editorColumn(g, column) {
  return Math.floor(column / g.drawing.step);
}

// Drawing columns a row of `cols` editor cells needs; editor cells a drawing row of `length` holds.
function editorWidth(g, cols) {
  return g.drawing.step * (cols - 1) + g.drawing.stagger + 1;
}

function editorCells(g, r, length) {
  return Math.floor((length - g.drawing.stagger * (r % 2) + g.drawing.step - 1) / g.drawing.step);
}

// The words telling a drawing point's kind of cell (the triangle grid's "pointing up"), or "".
function parityWord(g, r, c) {
  const words = g.drawing.parity_words;
  return words.length ? words[(((r + c) % 2) + 2) % 2] : "";
}

// The drawing point one arrow key away (translations of the grid; null for other keys). Where a
// translation moves by an even row + column, Left and Right go two columns over and Up and Down
// zig-zag, one column right from even rows and left from odd ones, so that Up then Down comes back.
function arrowStep(g, key, at) {
  const even = g.drawing.even_moves, h = even ? 2 : 1, z = even ? (((at[0] % 2) + 2) % 2 === 1 ? -1 : 1) : 0;
  const d = { ArrowLeft: [0, -h], ArrowRight: [0, h], ArrowUp: [-1, z], ArrowDown: [1, z] }[key];
  return d ? [at[0] + d[0], at[1] + d[1]] : null;
}

// "a turn is 60°" for the help text: each flat grid's turning angle.
function turnWords() {
  return editorGrids().map((g) => `${g.name} boards turn by ${g.turn_degrees}°`).join(", ");
}
