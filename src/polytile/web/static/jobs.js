// Jobs on the server: started (one per tab), polled, cancelled; the progress bar and status line, and
// the results of Solve, Count and Random.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

let pollTimer = null;
// One job per tab: the buttons that start jobs are disabled while one starts, and the
// server refuses (409) a second job from this tab while one runs.
const TAB = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
const STARTERS = ["#solve", "#count", "#random", "#hint-next", "#stats-run", "#katamino-play", "#shikaku-new", "#calendar-year-run",
  "#design-cards-run", "#design-check-run"];
let starting = false;

function setStarting(on) {
  starting = on;
  document.body.dataset.starting = on ? "1" : "";
  for (const sel of STARTERS) {
    const b = $(sel);
    if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
    else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
  }
  if (!on) updateNav();
}

async function startJob(action, options = {}) {
  if (starting) return null;                      // a double click: the first one is starting
  setStarting(true);
  try {
    return await startJobNow(action, options);
  } finally {
    setStarting(false);
  }
}

async function startJobNow(action, options) {
  showMessage(null);
  const refused = options.puzzle ? "" : puzzleRefusal();        // files.js: a file the page refused
  if (refused) { notStarted(action, refused); return null; }
  if (state.job && ["starting", "running"].includes(state.job.state)) await cancelJob();
  const puzzle = options.puzzle || currentPuzzle();
  const path = options.path || "/api/jobs";                   // the Design tab's jobs: /api/design/...
  delete options.puzzle; delete options.path;
  let view;
  try {
    view = await api("POST", path, { action, puzzle, tab: TAB, options: { ...options, heartbeat: HEARTBEAT } });
  } catch (e) {
    notStarted(action, e.message);
    return null;
  }
  const job = { id: view.id, action, state: view.state, solutions: [], summary: view.summary, rows: [], options, result: null, puzzle };
  state.job = job;
  document.body.dataset.job = job.id;
  if (action === "solve") { state.view = { job, index: 0 }; renderView(); }   // a random draw keeps the shown solution
  updateShareUrl();
  setRunning(true, action);
  if (!["hint", "stats", "cards", "calendar_check"].includes(action)) reveal($("#status"));
  pollJob(job);
  return job;
}

async function pollJob(job) {
  clearTimeout(pollTimer);
  let view;
  try {
    view = await api("GET", `/api/jobs/${job.id}?since=${job.solutions.length}`);
  } catch (e) {
    showMessage(e.message);
    setRunning(false);
    return;
  }
  if (state.job !== job) return;                 // another job took over
  const before = job.solutions.length;
  job.solutions.push(...view.solutions);
  job.state = view.state; job.progress = view.progress; job.elapsed = view.elapsed;
  job.rows = view.rows; job.result = view.result; job.error = view.error;
  onJobUpdate(job, before);
  if (["starting", "running"].includes(view.state) || job.solutions.length < view.listed) {
    pollTimer = setTimeout(() => pollJob(job), ["starting", "running"].includes(view.state) ? 200 : 0);
  } else {
    setRunning(false);
  }
}

// Closing the tab (or leaving the page) cancels its running job: a request the browser sends even
// as the page goes away. The server also cancels a job whose page stopped polling it for
// HEARTBEAT seconds (a crashed or frozen browser; hidden tabs poll at least once a minute).
const HEARTBEAT = 90;
function abandonJob() {
  const job = state.job;
  if (!job || !["starting", "running"].includes(job.state)) return;
  fetch(`/api/jobs/${job.id}/cancel`, { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: "{}" });
}

async function cancelJob() {
  const job = state.job;
  if (!job) return;
  clearTimeout(pollTimer);
  try {
    const view = await api("POST", `/api/jobs/${job.id}/cancel`);
    job.state = view.state; job.progress = view.progress; job.elapsed = view.elapsed;
  } catch (e) { showMessage(e.message); }
  onJobUpdate(job, job.solutions.length);
  setRunning(false);
}

const VERBS = { solve: "Solve", count: "Count", hint: "Hint", stats: "Statistics", slam: "Slam", sample: "Random", generate: "New puzzle", tally: "The year's count",
  cards: "Make cards", calendar_check: "Check every date" };
// A job the server (or the page) would not start: the reason in the message and on the status
// line, so a click on Solve or Count always shows something.
function notStarted(action, reason) {
  showMessage(reason);
  $("#progress").dataset.state = "refused";
  $("#progress-text").textContent = `${VERBS[action] || action}: not started. ${reason}`;
}

function setRunning(running, action) {
  $("#cancel").disabled = !running;
  const bar = $("#progress");
  if (running) { bar.dataset.state = "running"; bar.dataset.action = action; }
}

function progressLine(job) {
  const p = job.progress || {};
  const parts = [];
  if (job.state === "starting") return "Starting (the first search of a server loads the compiled solver: a few seconds)…";
  if (job.action === "solve" && p.listed !== undefined) parts.push(`${fmt(p.listed)} solutions listed`);
  else if (p.solutions !== undefined) parts.push(`${fmt(p.solutions)} solutions so far`);
  if (p.unique !== undefined && p.unique !== null && job.options.unique) parts.push(`${fmt(p.unique)} unique`);
  if (p.nodes !== undefined) parts.push(`${fmt(p.nodes)} nodes`);
  if (p.total) parts.push(`${p.done} of ${p.total} parts`);
  if (p.wanted) parts.push(`${p.done} of ${p.wanted} cards`);
  parts.push(`${seconds(job.elapsed || 0)} elapsed`);
  if (p.eta !== undefined) parts.push(`about ${seconds(p.eta)} left`);
  else if (p.eta_low !== undefined) parts.push(`between ${seconds(p.eta_low)} and ${seconds(p.eta_high)} left (estimating)`);
  else if (p.total && job.state === "running") parts.push("estimating the time left…");
  return parts.join(" · ");
}

function onJobUpdate(job, before) {
  const bar = $("#progress"), text = $("#progress-text");
  const running = ["starting", "running"].includes(job.state);
  bar.dataset.state = job.state;
  const share = job.progress && job.progress.fraction;
  if (share) job.top = Math.max(job.top || 0, share);        // the bar never goes backwards
  const fraction = share ? job.top : 0;
  if (running && fraction) bar.setAttribute("aria-valuenow", Math.round(100 * fraction)); else bar.removeAttribute("aria-valuenow");
  bar.classList.toggle("indeterminate", running && !fraction);
  bar.querySelector(".bar").style.width = running ? (fraction ? `${(100 * fraction).toFixed(1)}%` : "") : "";
  const verb = { solve: "Solving", count: "Counting", hint: "Looking for a hint", stats: "Computing statistics", slam: "Playing the slam", sample: "Drawing a random solution", generate: "Making a puzzle", tally: "Counting every date of the year", cards: "Making cards", calendar_check: "Checking the piece set on every date" }[job.action];
  if (running) text.textContent = `${verb}: ${progressLine(job)}`;
  else if (job.state === "cancelled") text.textContent = `Cancelled after ${seconds(job.elapsed)}` + (job.progress && job.progress.nodes ? ` (${fmt(job.progress.nodes)} nodes, ${fmt(job.progress.solutions)} solutions so far).` : ".");
  else if (job.state === "failed") { text.textContent = "Failed."; showMessage(job.error); }
  else text.textContent = `${{ solve: "Solved", count: "Counted", hint: hintWord(job.result), stats: "Statistics computed", slam: "Slam played", sample: "Random solution drawn", generate: "Puzzle made", tally: "Year counted", cards: "Cards made", calendar_check: "Piece set checked" }[job.action]} in ${seconds(job.elapsed)}.`;
  if (job.action === "solve" || job.action === "sample") onSolutions(job, before);
  if (job.action === "count") onCount(job);
  if (job.action === "hint") onHint(job);
  if (job.action === "stats") onStats(job);
  if (job.action === "slam") onSlam(job);
  calendarJobUpdate(job);                                                  // calendar.js
  designJobUpdate(job);                                                    // design_cards.js, design_calendar.js
  if (job.action === "generate" && job.state === "done" && job.result && !job.shown) {
    job.shown = true;
    const g = job.result;
    setShikaku(g.width, g.height, g.rows);
    $("#shikaku-text").value = g.game_id;
    $("#shikaku-info").textContent = `new ${g.width} x ${g.height} puzzle with one solution`;
  }
}

function hintWord(r) {                 // a dead end is no "hint found"
  if (!r || r.verdict === "place") return "Hint found";
  return r.verdict === "solved" ? "Already solved: checked" : "No hint, a dead end: checked";
}

function onCount(job) {
  const r = job.result, res = $("#result");
  if (!r) {
    if (job.state === "cancelled") res.textContent = "Count cancelled: the total is unknown.";
    return;
  }
  res.replaceChildren();
  res.dataset.solutions = r.solutions; res.dataset.unique = r.unique === null ? "" : r.unique;
  res.append(el("b", { id: "count-solutions", text: fmt(r.solutions) }), ` solution${r.solutions === 1 ? "" : "s"}`);
  if (r.unique !== null && r.unique !== undefined) res.append(", ", el("b", { id: "count-unique", text: fmt(r.unique) }), " unique");
  res.append(el("span", { class: "muted", text: ` · ${fmt(r.nodes)} nodes · ${seconds(r.seconds)}` }));
  if (r.reasons && r.reasons.length) res.append(el("div", { class: "muted", text: `No solution: ${r.reasons.join("; ")}` }));
}

function onSolutions(job, before) {
  const r = job.result, res = $("#result");
  if (job.action === "sample" && job.solutions.length && (!state.view || state.view.job !== job)) {
    state.view = { job, index: 0 };             // the random solution replaces the shown one when it is there
    before = 0;
  }
  if (state.view && state.view.job === job && job.solutions.length && before === 0) renderView();
  else if (state.view && state.view.job === job) updateNav();
  if (job.state === "done" && r) {
    res.replaceChildren();
    const n = job.solutions.length;
    if (job.action === "sample") {
      res.textContent = n ? `A random solution${r.uniform ? " (drawn uniformly from all of them)" : " (randomised search, not uniform)"}.` : "No solution.";
    } else if (job.summary.kind === "shikaku") {
      const total = r.solutions;
      if (!n) res.append(el("b", { text: "No solution." }), " ", el("span", { class: "muted", text: (r.reasons || []).join("; ") }));
      else res.append(el("b", { id: "shikaku-solutions", text: fmt(total) }), ` solution${total === 1 ? " (the puzzle is sound)" : "s"}` +
        (total === 1 ? "" : n >= total ? ": browse them with ◀ ▶" : `: the first ${fmt(n)} listed to browse`),
        el("span", { class: "muted", text: ` · ${seconds(r.seconds)}` }));
    } else if (!n) {
      res.append(el("b", { text: "No solution." }));
      if (r.reasons && r.reasons.length) res.append(" ", el("span", { class: "muted", text: r.reasons.join("; ") }));
    } else {
      const u = job.options.unique;
      const all = r.complete;
      res.append(el("b", { text: fmt(n) }), ` ${u ? "unique " : ""}solution${n === 1 ? "" : "s"}${all ? "" : " listed (there are more; Count gives the total)"}`,
        el("span", { class: "muted", text: ` · ${fmt(r.nodes)} nodes · ${seconds(r.seconds)}` }));
    }
    if (!n && job.action !== "sample") renderView();
  }
  updateNav();
}

function wireJobs() {
  $("#cancel").addEventListener("click", cancelJob);
  window.addEventListener("pagehide", abandonJob);
}
