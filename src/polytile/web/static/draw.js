// Drawing boards and solutions as SVG: tiling boards (flat, or a cube's layers side by side), Shikaku
// grids; the triangle and hex grids are lattice.js's, calendars calendar.js's.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

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

// Grids whose cells are solids of their own (prisms, balls, tetrahedra) are drawn by the 3D view
// only (view3d.js hides this picture when WebGL works): a note in its place otherwise.
function drawSolidsNote(summary, { id = null } = {}) {
  const svg = el("svg:svg", { xmlns: SVGNS, viewBox: "0 0 420 60", width: 420, height: 60, id, class: "board-svg",
    "font-family": "system-ui, sans-serif", role: "img", "aria-label": `A board of the ${summary.grid} grid` });
  svg.append(el("svg:text", { x: 210, y: 34, "text-anchor": "middle", "font-size": 13, fill: "#555",
    text: `The ${summary.grid} grid is drawn in the 3D view (it needs WebGL).` }));
  return svg;
}

function drawSolution(summary, sol, opts) {
  if (summary.kind === "shikaku") return drawShikaku(summary, sol ? sol.rectangles : [], opts);
  if (summary.kind === "calendar") return drawCalendar(summary, sol || [], opts);       // calendar.js
  if (summary.solids || summary.balls) return drawSolidsNote(summary, opts);
  if (summary.points) return drawLattice(summary, sol || [], opts);
  return drawTiling(summary, sol || [], opts);
}
