// "Take apart": the shown solution of a cube-grid puzzle taken apart as BurrTools does it (a
// "disassemble" job on the server, web/disassembly_api.py), its level string shown and its plan
// played in the 3D view step by step: buttons, or the keys . and , (next, previous), Home and End;
// each step announced in #apart-status (a live region). A part that comes out is moved well away,
// as BurrTools shows it, and its own later moves played there.
// A classic script, loaded after solutions.js (index.html), sharing the page's globals ($, api, state...).
"use strict";

const apart = { plan: null, step: 0, job: null, key: null, timer: null };

function apartPossible() {
  const v = state.view, s = v && v.job.summary;
  const g = s && gridFacts(s.grid, s.dim);                      // cubes: unit steps along the axes
  return !!(g && g.boxes && v.job.solutions.length && s.dim === 3 && !s.solids && !s.balls);
}

// Called by renderView: a new solution (or none) forgets the plan and puts the pieces back.
function resetApart() {
  const v = state.view, sol = v && v.job.solutions[v.index];
  const key = sol ? `${v.job.id}/${v.index}` : null;
  $("#apart").hidden = !apartPossible();
  if (key === apart.key) { applyStep(); return; }
  if (apart.job) stopApart();
  const pic = $("#picture");
  if (pic.reach) { pic.reach = 0; pic.moved = null; }
  apart.key = key; apart.plan = null; apart.step = 0;
  $("#apart-level").textContent = "";
  $("#apart-status").textContent = "";
  showSteps();
}

function showSteps() {
  const p = apart.plan, n = p && p.apart ? p.moves.length : 0;
  $("#apart-steps").hidden = !n;
  $("#apart-first").disabled = $("#apart-prev").disabled = !n || apart.step <= 0;
  $("#apart-last").disabled = $("#apart-next").disabled = !n || apart.step >= n;
  $("#apart-run").disabled = !!apart.job;
  $("#apart-stop").hidden = !apart.job;
  $("#apart").dataset.step = n ? apart.step : "";
}

async function runApart() {
  const v = state.view;
  if (!apartPossible() || apart.job) return;
  const sol = v.job.solutions[v.index], key = apart.key;
  const placed = sol.map((p) => ({ piece: p.piece, cells: p.cells }));
  $("#apart-status").textContent = "Taking the solution apart…";
  let view;
  try {
    view = await api("POST", "/api/jobs", { action: "disassemble", puzzle: v.job.puzzle, tab: TAB,
      options: { placed, heartbeat: HEARTBEAT } });
  } catch (e) {
    $("#apart-status").textContent = `Not taken apart: ${e.message}`;
    return;
  }
  apart.job = view.id;
  showSteps();
  pollApart(view.id, key);
}

async function pollApart(id, key) {
  let view;
  try { view = await api("GET", `/api/jobs/${id}`); } catch (e) { view = { state: "failed", error: e.message }; }
  if (apart.job !== id) return;                                 // stopped, or another solution shown
  if (["starting", "running"].includes(view.state)) {
    const t = view.elapsed ? ` (${view.elapsed.toFixed(0)} s)` : "";
    $("#apart-status").textContent = `Taking the solution apart…${t}`;
    apart.timer = setTimeout(() => pollApart(id, key), 200);
    return;
  }
  apart.job = null;
  if (view.state !== "done") $("#apart-status").textContent = `Not taken apart: ${view.error || view.state}`;
  else if (key === apart.key) planReady(view.result);
  showSteps();
}

function stopApart() {
  const id = apart.job;
  clearTimeout(apart.timer);
  apart.job = null;
  if (id) api("POST", `/api/jobs/${id}/cancel`).catch(() => {});
  $("#apart-status").textContent = "Stopped.";
  showSteps();
}

function planReady(plan) {
  apart.plan = plan; apart.step = 0;
  if (!plan.apart) {
    $("#apart-level").textContent = "";
    $("#apart-status").textContent = "This assembly cannot be taken apart (by moving pieces without turning them).";
    return;
  }
  $("#apart-level").textContent = `Level ${plan.level} · ${plan.moves.length} moves`;
  $("#apart-status").textContent = `Comes apart: level ${plan.level}, ${plan.moves.length} moves. Press Next step (or .) to play it.`;
  const reach = Math.max(...offsets(plan.moves.length).flat().map(Math.abs));
  if (window.view3d && window.view3d.move) window.view3d.move($("#picture"), offsets(0), reach);
  applyStep();
}

function names(list) {
  const sol = state.view.job.solutions[state.view.index];
  const n = list.map((i) => sol[i].piece || sol[i].letter);
  const joined = n.length < 2 ? n[0] : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
  return `${n.length < 2 ? "piece" : "pieces"} ${joined}`;
}

function direction(v) {
  const a = v.findIndex((x) => x !== 0), steps = Math.abs(v[a]);
  return `${v[a] > 0 ? "+" : "−"}${"xyz"[a]}${steps > 1 ? ` ${steps} steps` : ""}`;
}

// Each placement's translation after the first `step` moves (a part taken out goes `far` away).
function offsets(step) {
  const sol = state.view.job.solutions[state.view.index], cells = state.view.job.summary.cells;
  const far = 2 + Math.max(...[0, 1, 2].map((k) => Math.max(...cells.map((c) => c[k])) - Math.min(...cells.map((c) => c[k])) + 1));
  const at = sol.map(() => [0, 0, 0]);
  for (const m of apart.plan.moves.slice(0, step)) {
    const by = m.out ? far : 1;
    for (const i of m.pieces) at[i] = at[i].map((x, k) => x + by * m.vector[k]);
  }
  return at;
}

function applyStep() {
  const p = apart.plan;
  if (!p || !p.apart || !state.view) return;
  const pic = $("#picture");
  if (window.view3d && window.view3d.move) window.view3d.move(pic, offsets(apart.step));
  else pic.moved = offsets(apart.step);
  showSteps();
}

function goStep(to) {
  const p = apart.plan;
  if (!p || !p.apart) return;
  const n = p.moves.length, k = Math.max(0, Math.min(n, to));
  apart.step = k;
  applyStep();
  let text;
  if (k === 0) text = `Step 0 of ${n}: assembled.`;
  else {
    const m = p.moves[k - 1];
    const one = m.pieces.length < 2;
    const what = m.out ? `${one ? "comes" : "come"} out along ${direction(m.vector)}` : `${one ? "moves" : "move"} ${direction(m.vector)}`;
    text = `Step ${k} of ${n}: ${names(m.pieces)} ${what}.`;
    if (k === n) text += " Every piece is apart.";
  }
  $("#apart-status").textContent = text;
}

function wireApart() {
  $("#apart-run").addEventListener("click", runApart);
  $("#apart-stop").addEventListener("click", stopApart);
  $("#apart-first").addEventListener("click", () => goStep(0));
  $("#apart-prev").addEventListener("click", () => goStep(apart.step - 1));
  $("#apart-next").addEventListener("click", () => goStep(apart.step + 1));
  $("#apart-last").addEventListener("click", () => goStep(Infinity));
  document.addEventListener("keydown", (e) => {
    if (!apart.plan || !apart.plan.apart || $("#view-solutions").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.matches("input, textarea, select")) return;
    const to = { ".": apart.step + 1, ",": apart.step - 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goStep(to);
  });
}

wireApart();
