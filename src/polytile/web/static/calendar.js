// The calendar tab: DragonFjord's A-Puzzle-A-Day (classic) or its weekday variant, a date (default
// today), the date's solutions (Solve; browsed in the Solutions view as any tiling's) and the year's
// heat map of counts (one job that tallies every date at once: web/calendar_api.py), drawn here as a
// table: its numbers are the text alternative of its colours. Loaded after app.js.
"use strict";

const calendar = { tallies: {}, running: null };     // tallies: board -> {rows, summary}
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
// viridis, fewest solutions dark; the text on each cell black or white, whichever contrasts more
const HEAT = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];

function pad2(n) { return String(n).padStart(2, "0"); }

function todayIso() {
  const d = new Date();
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

function calendarPuzzle() {
  return { kind: "calendar", board: $("#calendar-board").value, date: $("#calendar-date").value || todayIso() };
}

// ---- the board --------------------------------------------------------------------------------

// A solution (or, without placements, the board with the date's cells marked) drawn as the tiling
// tab draws boards, each cell left open showing its label.
function drawCalendar(summary, placements, opts = {}) {
  const svg = drawTiling(summary, placements, opts);
  const cols = Math.max(...summary.cells.map((c) => c[1])) - Math.min(...summary.cells.map((c) => c[1])) + 1;
  const lo = [Math.min(...summary.cells.map((c) => c[0])), Math.min(...summary.cells.map((c) => c[1]))];
  const pad = 4, S = (+svg.getAttribute("width") - 2 * pad) / cols;
  const covered = new Set(placements.flatMap((p) => p.cells.map((c) => c.join(","))));
  const open = new Set(summary.open || []);
  const marks = el("svg:g", { class: "calendar-labels" });
  summary.cells.forEach((c, i) => {
    if (covered.has(c.join(","))) return;
    const x = pad + (c[1] - lo[1]) * S, y = pad + (c[0] - lo[0]) * S;
    if (open.has(i)) marks.append(el("svg:rect", { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 4, fill: "#fde68a", stroke: "#b45309", "stroke-width": 1.5 }));
    const label = summary.labels[i];
    marks.append(el("svg:text", { x: x + S / 2, y: y + S / 2 + S * 0.11, "text-anchor": "middle", "font-size": Math.round(S * (label.length > 2 ? 0.3 : 0.36)),
      fill: "#262626", "font-weight": open.has(i) ? 700 : 400, text: label }));
  });
  svg.insertBefore(marks, svg.querySelector("g.piece"));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", placements.length ? `a solution for ${summary.date_label}: ${placements.length} pieces placed, ` +
    `open: ${summary.labels.filter((_, i) => !covered.has(summary.cells[i].join(","))).join(", ")}` : `the ${summary.board} board, ${summary.date_label} marked`);
  return svg;
}

// ---- jobs -------------------------------------------------------------------------------------

function countYear() {
  if (whenReady(countYear)) return null;
  return startJob("tally", { puzzle: calendarPuzzle() });
}

// Called by app.js for every update of a job: the calendar's own words for its results.
function calendarJobUpdate(job) {
  if (!job.summary || job.summary.kind !== "calendar") return;
  if (job.action === "tally") return onTally(job);
  if (job.action === "calendar_check") return;              // design_calendar.js
  if (job.action === "sample") return;                      // app.js says "A random solution (drawn uniformly…)"
  const r = job.result;
  if (job.state !== "done" || !r) return;
  const res = $("#result");
  res.replaceChildren(el("b", { id: "calendar-count", text: fmt(r.solutions) }),
    ` solution${r.solutions === 1 ? "" : "s"} for ${job.summary.date_label} (${job.summary.board} board)` +
    (job.action === "solve" && r.solutions ? ": browse them with ◀ ▶" : ""),
    el("span", { class: "muted", text: ` · ${seconds(r.seconds)}` }));
  res.dataset.solutions = r.solutions;
}

function onTally(job) {
  const board = job.summary.board, box = $("#calendar-year");
  const running = ["starting", "running"].includes(job.state);
  box.setAttribute("aria-busy", running ? "true" : "false");
  if (running) {
    const p = job.progress || {};
    $("#calendar-year-status").textContent = `Counting every date of the ${board} board` +
      (p.total ? `: ${p.done} of ${p.total} parts of the search done` : "…");
    return;
  }
  if (job.state !== "done" || !job.result) {
    $("#calendar-year-status").textContent = job.state === "cancelled" ? "The year's count was cancelled." : "The year's count failed.";
    return;
  }
  calendar.tallies[board] = job.result;
  renderHeatMap();
}

// ---- the year's heat map ------------------------------------------------------------------------

function heatColour(v, low, high) {
  if (!v) return "#ffffff";
  const t = high > low ? (Math.log(v) - Math.log(low)) / (Math.log(high) - Math.log(low)) : 1;
  return HEAT[Math.max(0, Math.min(HEAT.length - 1, Math.round(t * (HEAT.length - 1))))];
}

function relativeLuminance(hex) {
  const v = parseInt(hex.slice(1), 16);
  const lin = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(v >> 16) + 0.7152 * lin((v >> 8) & 255) + 0.0722 * lin(v & 255);
}

// The counts of the chosen year's dates: on the weekday board each date with its weekday that year.
function yearCounts(t, year) {
  const by = new Map(t.dates.map(([m, d, w, n]) => [`${m}-${d}-${w === null ? "" : w}`, n]));
  const out = new Map();
  for (let m = 1; m <= 12; m++) for (let d = 1; d <= 31; d++) {
    const day = new Date(year, m - 1, d);
    const exists = day.getMonth() === m - 1;
    if (!t.weekday) { if (by.has(`${m}-${d}-`) && (exists || (m === 2 && d === 29))) out.set(`${m}-${d}`, by.get(`${m}-${d}-`)); continue; }
    const w = (day.getDay() + 6) % 7;
    if (exists && by.has(`${m}-${d}-${w}`)) out.set(`${m}-${d}`, by.get(`${m}-${d}-${w}`));
  }
  return out;
}

function leapFrom(year) {
  let y = year;
  while (new Date(y, 1, 29).getMonth() !== 1) y++;
  return y;
}

function renderHeatMap() {
  const board = $("#calendar-board").value, t = calendar.tallies[board];
  const box = $("#calendar-heatmap");
  if (!t) {
    box.replaceChildren();
    $("#calendar-year-status").textContent = "Not counted yet: Count the year counts every date at once.";
    return;
  }
  const year = +($("#calendar-date").value || todayIso()).slice(0, 4);
  box.replaceChildren(heatTable(t, year, "heatmap-table"));
  rovingDate(box);
  const hard = t.hardest, easy = t.easiest;
  $("#calendar-year-status").textContent = `${t.number_of_dates} dates counted in ${seconds(t.seconds)} · ` +
    `${t.every_date_solvable ? "every date has a solution" : `no solution: ${t.unsolvable.join(", ")}`} · ` +
    `fewest ${fmt(hard.solutions)} (${hard.dates.slice(0, 3).join(", ")}) · most ${fmt(easy.solutions)} (${easy.dates.slice(0, 3).join(", ")})`;
}

// A year's tally (calendar_api.tally's result) as a month x day table of counts, coloured; also the
// Design tab's check of a piece set (design_calendar.js).
function heatTable(t, year, id) {
  const counts = yearCounts(t, year);
  const values = [...counts.values()].filter((v) => v > 0);
  const low = Math.min(...values), high = Math.max(...values);
  const head = el("tr", {}, el("th", { scope: "col", text: "month" }), ...Array.from({ length: 31 }, (_, i) => el("th", { scope: "col", text: i + 1 })));
  const rows = MONTH_NAMES.map((name, mi) => el("tr", {}, el("th", { scope: "row", text: name }),
    ...Array.from({ length: 31 }, (_, di) => {
      const key = `${mi + 1}-${di + 1}`;
      if (!counts.has(key)) return el("td", { class: "none" });
      const v = counts.get(key), bg = heatColour(v, low, high);
      const ink = relativeLuminance(bg) > 0.18 ? "#000000" : "#ffffff";
      const y = mi === 1 && di === 28 ? leapFrom(year) : year;         // the classic board's Feb 29, any year
      return el("td", { "data-date": `${y}-${pad2(mi + 1)}-${pad2(di + 1)}`, "data-count": v, class: v ? "" : "zero",
        style: `background:${bg};color:${ink}`, title: `${name} ${di + 1}: ${v} solution${v === 1 ? "" : "s"}`, text: v });
    })));
  const what = t.weekday ? `each date with its weekday in ${year}` : "each date";
  return el("table", { class: "heatmap", id },
    el("caption", { text: `Solutions of ${what}, ${t.board} board (darker: fewer)` }),
    el("thead", {}, head), el("tbody", {}, ...rows));
}

// The table's dates take the focus one at a time (the chosen date's cell is in the tab order): arrows
// move by day and month, Home and End to the month's ends, Enter or Space chooses the date.
function rovingDate(box) {
  const cells = box.querySelectorAll("td[data-date]");
  if (!cells.length) return;
  const chosen = ($("#calendar-date").value || "").slice(5);
  const home = [...cells].find((c) => c.dataset.date.slice(5) === chosen) || cells[0];
  cells.forEach((c) => c.setAttribute("tabindex", c === home ? "0" : "-1"));
}

function heatMapKey(e) {
  const cell = e.target.closest("td[data-date]");
  if (!cell) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    chooseHeatDate(cell);
    return;
  }
  const [m, d] = cell.dataset.date.slice(5).split("-").map(Number);
  const box = $("#calendar-heatmap");
  const at = (mm, day) => box.querySelector(`td[data-date$="-${pad2(mm)}-${pad2(day)}"]`);
  const walk = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
  let next = null;
  if (walk) {                                            // the next date that way (skipping Feb 30...)
    for (let k = 1; k <= 31 && !next; k++) {
      const mm = m + walk[0] * k, day = d + walk[1] * k;
      if (mm < 1 || mm > 12 || day < 1 || day > 31) break;
      next = at(mm, day);
    }
  } else if (e.key === "Home") next = at(m, 1);
  else if (e.key === "End") next = at(m, 31) || at(m, 30) || at(m, 29) || at(m, 28);
  else return;
  e.preventDefault();
  e.stopPropagation();                                   // not the solutions' ◀ ▶ (app.js)
  if (!next) return;
  cell.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  next.focus();
}

function chooseHeatDate(cell) {
  $("#calendar-date").value = cell.dataset.date;
  calendarChanged();
  const again = $(`#calendar-heatmap td[data-date="${cell.dataset.date}"]`);
  if (again) again.focus();
}

// ---- wiring -------------------------------------------------------------------------------------

function calendarChanged() {
  renderHeatMap();
  puzzleChanged();
}

(function wireCalendar() {
  $("#calendar-date").value = todayIso();
  $("#calendar-date").addEventListener("change", calendarChanged);
  $("#calendar-board").addEventListener("change", calendarChanged);
  $("#calendar-year-run").addEventListener("click", countYear);
  $("#calendar-heatmap").addEventListener("click", (e) => {
    const cell = e.target.closest("td[data-date]");
    if (cell) chooseHeatDate(cell);
  });
  $("#calendar-heatmap").addEventListener("keydown", heatMapKey);
  renderHeatMap();
})();
