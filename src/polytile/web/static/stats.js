// The Statistics view: counts, where each piece goes, the hardest cells, the search's size.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

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

function wireStats() {
  $("#stats-run").addEventListener("click", () => startJob("stats"));
}
