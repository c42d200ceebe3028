// Hand play by keyboard alone, on every grid: the play view's board takes the focus
// and moves a ghost of the chosen piece; play.js holds the position and asks the server about it,
// play_grid.js knows the triangle, hex and cube grids.
"use strict";

// ---- the keyboard: Enter on a tray piece brings it onto the board as a preview; the arrows
// move it, R and F turn it, Enter places it, Backspace undoes, Escape puts it back.
// Each step is announced through the play status (a live region).

function kbdStart(i) {
  const { lo } = boardBounds(play.summary.cells), geo = play.geo;
  if (geo && !play.turns) { play.pending = i; setStatus("The pieces' turns are on their way: the piece comes in a moment."); return; }
  play.chosen = i;
  const start = !geo ? [lo[0], lo[1]] : geo.lattice ? [0, 0] : geo.lo.slice(0, 3);
  play.kbd = { piece: i, at: play.kbd ? play.kbd.at : start };
  drawPlay();
  $("#play-svg").focus();
  announce();
}

function kbdCells() {
  const k = play.kbd;
  return play.orient[k.piece].map((p) => p.map((x, j) => x + k.at[j]));
}

function announce(turned = "") {
  play.turnedText = turned;                 // a verdict arriving later says it again (showVerdict)
  const k = play.kbd, why = fitting(kbdCells()), name = play.summary.pieces[k.piece].name;
  const where = play.geo ? `${name}${turned} at ${geoWhere(play.geo, geoFirst(play.geo, kbdCells()))}`
    : `${name}${turned} at row ${k.at[0] + 1}, column ${k.at[1] + 1}`;
  // the position's verdict follows the move (a verdict arriving late must not hide the move)
  const verdict = play.verdictText ? ` ${play.verdictText}` : "";
  setStatus(why ? `${where}. ${why}${verdict}` : `${where}: it fits. Enter places it.${verdict}`, why ? "bad" : "");
}

// The preview: the chosen piece's cells over the board, drawn from the SVG's own cell size.
function drawPreview() {
  const svg = $("#play-svg");
  if (!svg || !play.kbd) return;
  svg.querySelectorAll(".play-preview").forEach((x) => x.remove());
  svg.dataset.ghost = JSON.stringify(kbdCells());             // where the ghost is, whole (tests read it)
  if (play.geo) return geoPreview(play.geo, svg, kbdCells(), !fitting(kbdCells()), playColour(play.kbd.piece));
  const { lo, hi } = boardBounds(play.summary.cells);
  const S = (svg.viewBox.baseVal.width - 8) / (hi[1] - lo[1] + 1), fits = !fitting(kbdCells());
  for (const [r, c] of kbdCells()) {
    svg.append(el("svg:rect", { class: "play-preview" + (fits ? "" : " bad"), x: 4 + (c - lo[1]) * S, y: 4 + (r - lo[0]) * S,
      width: S, height: S, fill: playColour(play.kbd.piece), "data-r": r, "data-c": c }));
  }
}

function kbdKey(e) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const k = play.kbd;
  if (!k) return;
  const next = play.geo && geoStep(play.geo, e.key, k.at);
  if (next) {
    e.preventDefault();
    const moved = play.orient[k.piece].map((p) => p.map((x, j) => x + next[j]));
    if (!geoNear(play.geo, moved)) { setStatus(`${play.summary.pieces[k.piece].name} is at the edge of the board: it goes no further that way.`, "bad"); return; }
    k.at = next;
    drawPreview();
    announce();
  } else if (moves[e.key] && !play.geo) {
    e.preventDefault();
    const { lo, hi } = boardBounds(play.summary.cells);
    k.at = [Math.max(lo[0] - 4, Math.min(hi[0], k.at[0] + moves[e.key][0])), Math.max(lo[1] - 4, Math.min(hi[1], k.at[1] + moves[e.key][1]))];
    drawPreview();
    announce();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    kbdPlace();
  } else if (e.key === "Escape") {
    play.kbd = null;
    drawPlay();
    setStatus("The piece went back to the tray.");
  }
}

function kbdPlace() {
  const k = play.kbd, cells = kbdCells(), why = fitting(cells), geo = play.geo;
  if (why) { setStatus(why, "bad"); return; }
  remember();
  if (geo) play.placed.push({ piece: k.piece, cells: cells.map((p) => play.summary.cells[geo.index.get(p.join(","))]), points: cells });
  else play.placed.push({ piece: k.piece, cells: cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]) });
  if (!left(k.piece)) play.kbd = null;
  moved();
  setStatus(`${play.summary.pieces[k.piece].name} placed; asking whether the board can still be finished…`);
  const next = play.kbd ? $("#play-svg") : $("#play-tray .play-piece:not(.used)");
  if (next) next.focus();
}
