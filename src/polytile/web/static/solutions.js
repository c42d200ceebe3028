// The Solutions view: the shown solution (or the board before a solve), browsing with the arrows,
// Go to, Random, the download links.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function renderView() {
  const pic = $("#picture");
  const v = state.view;
  if (!v || !v.job.solutions.length) {
    if (state.preview) pic.replaceChildren(drawSolution(state.preview, null, { id: "board-svg" }));
    else pic.replaceChildren();
    if (window.resetApart) resetApart();
    show3d(pic, state.preview, []);
    updateNav();
    return;
  }
  const sol = v.job.solutions[v.index];
  pic.replaceChildren(drawSolution(v.job.summary, sol, { id: "solution-svg" }));
  if (window.resetApart) resetApart();                                     // disassembly.js: a plan of this solution
  show3d(pic, v.job.summary, sol);
  updateNav();
}

function updateNav() {
  const v = state.view;
  const n = v ? v.job.solutions.length : 0;
  const busy = v && ["starting", "running"].includes(v.job.state);
  $("#prev").disabled = !v || v.index <= 0;
  $("#next").disabled = !v || v.index >= n - 1;
  $("#random").disabled = !v || !n || busy || (state.preview && state.preview.kind === "shikaku");
  const pos = $("#position"), go = $("#goto");
  go.disabled = !v || n < 2 || v.job.action === "sample";
  go.max = Math.max(1, n);
  if (document.activeElement !== go) go.value = v && n ? v.index + 1 : "";
  if (!v || !n) pos.textContent = "–";
  else {
    const more = v.job.result && !v.job.result.complete && v.job.action === "solve" ? "+" : busy ? "…" : "";
    pos.textContent = v.job.action === "sample" ? "random solution" : `${v.index + 1} / ${fmt(n)}${more}`;
  }
  for (const f of ["svg", "png", "json"]) {
    const a = $(`#dl-${f}`);
    if (v && n) { a.href = `/api/jobs/${v.job.id}/solutions/${v.index}.${f}`; a.classList.remove("disabled"); a.removeAttribute("aria-disabled"); }
    else { a.removeAttribute("href"); a.classList.add("disabled"); a.setAttribute("aria-disabled", "true"); }
  }
  updateDownloads(v);                                                      // files.js: .xmpuzzle, STL, OBJ
}

function goTo() {
  const v = state.view, go = $("#goto");
  if (!v || !v.job.solutions.length) return;
  const typed = parseInt(go.value, 10);
  if (!Number.isFinite(typed)) return;
  const n = v.job.solutions.length, k = Math.max(1, Math.min(n, typed));
  go.value = k;
  if (k - 1 !== v.index) { v.index = k - 1; renderView(); }
}

function step(d) {
  const v = state.view;
  if (!v) return;
  const n = v.job.solutions.length;
  const i = Math.max(0, Math.min(n - 1, v.index + d));
  if (i !== v.index) { v.index = i; renderView(); }
}

async function randomSolution() {
  const v = state.view;
  if (!v) return;
  const job = v.job;
  if (job.action === "solve" && job.result && job.result.complete) {    // every solution is listed
    v.index = Math.floor(Math.random() * job.solutions.length);
    renderView();
    return;
  }
  await startJob("sample", { seed: Math.floor(Math.random() * 2 ** 31), puzzle: job.puzzle });
}

// A 3D board also gets a view to turn (static/view3d.js, a module; without WebGL the SVG stays).
function show3d(pic, summary, placements, highlight = -1) {
  pic.board = { summary, placements: placements || [], highlight };
  if (window.view3d) window.view3d.update(pic);
}

function wireSolutions() {
  $("#prev").addEventListener("click", () => step(-1));
  $("#next").addEventListener("click", () => step(1));
  $("#random").addEventListener("click", randomSolution);
  $("#goto").addEventListener("change", goTo);
  $("#unique").addEventListener("change", () => { state.view = null; clearResult(); renderView(); });
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, textarea, select") || e.target.closest(".grid, #play-board, #play-tray")) return;
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  });
}
