// The Boxing tab: a box of width x height filled with n-ominoes, each used min..max times.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

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

function wireBoxing() {
  for (const id of ["#box-order", "#box-width", "#box-height", "#box-max", "#box-min", "#box-one-sided"]) $(id).addEventListener("change", puzzleChanged);
}
