// Hand play on every grid but the flat square one (drawn as polygons, or cubes in layers): what
// play.js needs beyond the square board, from the grid's facts (grids.js). The server sends each
// piece's orientations and, per turning key, the orientation it turns into (POST /api/play with
// tables: analysis/play_turns.py), so turning is a lookup here; this file only translates: it
// moves the keyboard's piece (the ghost) with the arrow keys, names cells for the live region,
// draws the ghost over the board and the pieces in the tray.
//
// "Points" are where the page places cells: on boards drawn as polygons the drawing's (row,
// column) of summary.points (the arrows step by translations of the grid: grids.js's arrowStep);
// on cube boards the cells [row, column, layer] themselves (PageUp and PageDown change the layer).
"use strict";

const pointKey = (p) => p.join(",");

// The grid of a board other than the flat square one, or null (play.js's own square code).
function gridGeo(summary) {
  const g = summary && gridFacts(summary.grid, summary.dim);
  if (!g || g.squares || !(g.drawing || g.layers)) return null;     // solids: no hand play (play.js)
  const lattice = !!g.drawing;
  const points = lattice ? summary.points : summary.cells;
  const index = new Map(points.map((p, i) => [pointKey(p), i]));
  const { lo, hi } = boardBounds(points);
  return { grid: summary.grid, facts: g, lattice, layers: g.layers, points, index, lo, hi };
}

// The anchor (a translation of the grid) after an arrow key, or null for keys that do not move.
function geoStep(geo, key, at) {
  if (geo.lattice) return arrowStep(geo.facts, key, at);
  const cube = {
    ArrowLeft: [0, -1, 0], ArrowRight: [0, 1, 0], ArrowUp: [-1, 0, 0], ArrowDown: [1, 0, 0],
    PageUp: [0, 0, 1], PageDown: [0, 0, -1],
  };
  const d = cube[key];
  return d ? at.map((x, i) => x + d[i]) : null;
}

// Whether a ghost at these points still touches the board's bounding box (the arrows stop there).
function geoNear(geo, points) {
  const { lo, hi } = boardBounds(points);
  return points[0].every((_, i) => lo[i] <= geo.hi[i] && hi[i] >= geo.lo[i]);
}

// A point as the live region reads it: rows and columns as the board editor counts them.
function geoWhere(geo, p) {
  if (geo.layers) return `row ${p[0] + 1}, column ${p[1] + 1}, layer ${p[2] + 1}`;
  const side = parityWord(geo.facts, p[0], p[1]);
  return `row ${p[0] + 1}, column ${editorColumn(geo.facts, p[1]) + 1}${side ? ` (${side})` : ""}`;
}

// The first cell of a ghost in reading order (the one its announcement names).
function geoFirst(geo, points) {
  const order = geo.layers ? [2, 0, 1] : [0, 1];
  return points.slice().sort((a, b) => order.map((i) => a[i] - b[i]).find((x) => x !== 0) || 0)[0];
}

// The ghost's cells drawn over the board's SVG (drawLattice or drawTiling's layers side by side).
function geoPreview(geo, svg, points, fits, colour) {
  const cls = "play-preview" + (fits ? "" : " bad");
  if (geo.lattice) {
    for (const [r, c] of points) {
      svg.append(el("svg:polygon", { class: cls, points: latticeCellAttr(svg, geo.facts, r, c), fill: colour, "data-r": r, "data-c": c }));
    }
    return;
  }
  const rows = geo.hi[0] - geo.lo[0] + 1, cols = geo.hi[1] - geo.lo[1] + 1, layers = geo.hi[2] - geo.lo[2] + 1;
  const S = (svg.viewBox.baseVal.width - 8) / (layers * cols + layers - 1), pad = 4, top = 18;
  for (const [r, c, z] of points) {
    const [rr, cc, zz] = [r - geo.lo[0], c - geo.lo[1], z - geo.lo[2]];
    if (zz < 0 || zz >= layers || cc < 0 || cc >= cols || rr < 0 || rr >= rows) continue;    // drawn inside its layer only
    svg.append(el("svg:rect", { class: cls, x: pad + (zz * (cols + 1) + cc) * S, y: pad + top + rr * S, width: S, height: S,
      fill: colour, "data-r": r, "data-c": c, "data-l": z }));
  }
}

// A piece in the tray: its polygons on a grid drawn so, its layers side by side in 3D.
function geoShapeSvg(geo, points, colour, size = 13) {
  if (geo.lattice) return latticeShapeSvg(geo.facts, points, colour, size * 1.3);
  const { lo, hi } = boardBounds(points);
  const rows = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1, layers = hi[2] - lo[2] + 1, s = size * 0.8;
  const W = (layers * cols + layers - 1) * s + 2, H = rows * s + 2;
  const svg = el("svg:svg", { viewBox: `-1 -1 ${W} ${H}`, width: W, height: H });
  for (const [r, c, z] of points) {
    svg.append(el("svg:rect", { x: ((z - lo[2]) * (cols + 1) + c - lo[1]) * s, y: (r - lo[0]) * s, width: s, height: s,
      fill: colour, stroke: "#262626", "stroke-width": 0.8 }));
  }
  return svg;
}

// The keys that turn a piece on this grid, for the board's label and the help text.
function geoKeysText(geo) {
  return geo.layers
    ? "the arrow keys move the chosen piece in its layer, Page Up and Page Down change the layer, R, T and Y turn it (Shift turns back), F mirrors it where allowed, Enter places it, Backspace undoes, Escape puts it back"
    : "the arrow keys move the chosen piece, R turns it clockwise (Shift+R back), F flips it where allowed, Enter places it, Backspace undoes, Escape puts it back";
}

// Boards other than the flat square one: a turning key looks up the orientation it leads to.
function geoTurn(key) {
  const i = play.chosen, t = play.turns && play.turns[i];
  if (!t) return;
  const name = play.summary.pieces[i].name;
  if (key === "f" && !t.keys.f) { setStatus(`${name} may not be flipped in this puzzle.`, "bad"); return; }
  if (!t.keys[key]) return;
  play.oidx[i] = t.keys[key][play.oidx[i]];
  play.orient[i] = t.orientations[play.oidx[i]];
  drawTray();
  const how = `, ${key === "f" ? "flipped" : "turned"} (orientation ${play.oidx[i] + 1} of ${t.orientations.length})`;
  if (play.kbd && play.kbd.piece === i) { drawPreview(); announce(how); }
  else setStatus(`${name}${how}.`);
}

function setTurns(tables) {
  play.turns = tables;
  play.oidx = tables.map(() => 0);
  play.orient = tables.map((t) => t.orientations[0]);
  drawTray();
  const pending = play.pending;
  play.pending = null;
  if (pending !== null && pending !== undefined && pending < tables.length) kbdStart(pending);    // Enter came first
}
