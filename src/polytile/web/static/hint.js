// The Hint view: hints placed one after the other on the board, each with its reason.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function onHint(job) {
  const r = job.result, text = $("#hint-text");
  if (job.state !== "done" || !r) { if (job.state === "cancelled") text.textContent = "Hint cancelled."; return; }
  if (r.verdict === "place") {
    state.hints.push({ piece: r.piece, letter: r.piece.length <= 2 ? r.piece : (r.letter || ""), cells: r.cells, colour: r.colour });
    text.replaceChildren(el("b", { text: `Place ${r.piece}` }), ` (hint ${state.hints.length}): ${r.reason}.`);
  } else {
    text.replaceChildren(el("b", { text: r.verdict === "solved" ? "Solved." : "Dead end: " }), r.verdict === "solved" ? " Every cell is covered." : r.reason);
  }
  drawHints();
}

function drawHints() {
  const pic = $("#hint-picture");
  const summary = (state.job && state.job.action === "hint" && state.job.summary) || state.preview;
  if (!summary || summary.kind === "shikaku") { pic.replaceChildren(); return; }
  pic.replaceChildren(drawSolution(summary, state.hints, { highlight: state.hints.length - 1, id: "hint-svg" }));
  show3d(pic, summary, state.hints, state.hints.length - 1);
}

function wireHint() {
  // not tied to the preview: a click while its check is on its way (a busy server) asks all the same
  $("#hint-next").addEventListener("click", () => { if (state.mode !== "shikaku") startJob("hint", { placed: state.hints.map((h) => h.cells) }); });
  $("#hint-reset").addEventListener("click", () => { state.hints = []; $("#hint-text").textContent = "Start over: no piece placed."; drawHints(); });
}
