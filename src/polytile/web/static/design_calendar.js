// The Design view's calendar check: a piece set on a calendar board (the board's own, or names
// typed), every date counted in one job (web/design_api.py: the year's tally and the spread of
// its counts, analysis/spread.py), then whether every date has a solution (the others listed),
// the fewest, most and mean solutions, the Gini coefficient and the year's table of counts
// (calendar.js's heatTable). A wrong total area is the server's one line, shown as any refusal.
// A classic script, loaded after calendar.js and design_cards.js (index.html).
"use strict";

const OWN_PIECES = { classic: "2x3 L N P U V Y Z", weekday: "I4 L4 S4 L N P T U V Z" };

// The pieces chosen on the page: the Katamino tab's, else the Tiling tab's (each once; a name no
// calendar takes is the server's one-line refusal).
function chosenPieces() {
  if (state.mode === "katamino") return state.katamino.chosen.join(" ");
  return Object.entries(state.tiling.counts).filter(([, n]) => n > 0).map(([name]) => name).join(" ");
}

function checkPieces() {
  return $("#design-cal-pieces").value.split(/[\s,]+/).filter((name) => name);
}

function checkCalendar() {
  if (whenReady(checkCalendar)) return null;
  const pieces = checkPieces();
  if (!pieces.length) { showMessage("Name the pieces to check (such as 2x3 L N P U V Y Z)."); return null; }
  const puzzle = { kind: "calendar", board: $("#design-cal-board").value, date: $("#calendar-date").value || todayIso(), pieces };
  $("#design-check-status").textContent = "Checking the pieces on every date…";
  $("#design-check-out").replaceChildren();
  return startJob("calendar_check", { path: "/api/design/calendar", puzzle }).then((job) => {
    if (!job) $("#design-check-status").textContent = `Not checked: ${$("#message").textContent}`;   // jobs.js's notStarted
    return job;
  });
}

// Called by design_cards.js's designJobUpdate for the check's jobs.
function onCalendarCheck(job) {
  const status = $("#design-check-status"), p = job.progress || {};
  if (["starting", "running"].includes(job.state)) {
    status.textContent = "Checking the pieces on every date" + (p.total ? `: ${p.done} of ${p.total} parts of the search done` : "…");
    return;
  }
  if (job.state !== "done" || !job.result) {
    status.textContent = job.state === "cancelled" ? "The check was cancelled." : `Not checked: ${job.error || job.state}.`;
    return;
  }
  if (job.drawn) return;
  job.drawn = true;
  const r = job.result, s = r.spread;
  status.textContent = `${r.pieces.join(" ")} on the ${r.board} board: ` + (r.every_date_solvable
    ? `every one of the ${r.number_of_dates} dates has a solution`
    : `${s.unsolvable} of the ${r.number_of_dates} dates have no solution`) +
    ` · fewest ${fmt(s.min)}, most ${fmt(s.max)}, mean ${s.mean}, Gini ${s.gini}.`;
  renderCheck(r);
}

function renderCheck(r) {
  const s = r.spread, out = $("#design-check-out");
  const row = (name, value) => el("tr", {}, el("th", { scope: "row", class: "left", text: name }), el("td", { text: value }));
  const figures = el("table", { class: "table", id: "design-spread" },
    el("caption", { class: "sr-only", text: "The spread of the per-date counts" }),
    el("tbody", {}, row("dates", fmt(r.number_of_dates)), row("with no solution", fmt(s.unsolvable)),
      row("fewest solutions", `${fmt(s.min)} (${r.hardest.dates.slice(0, 3).join(", ")})`),
      row("most solutions", `${fmt(s.max)} (${r.easiest.dates.slice(0, 3).join(", ")})`),
      row("mean", String(s.mean)), row("Gini coefficient", String(s.gini)), row("solutions in all", fmt(r.solutions))));
  const missing = r.unsolvable.length
    ? el("p", { id: "design-unsolvable" }, el("b", { text: "No solution: " }), r.unsolvable.join(", "))
    : el("p", { id: "design-unsolvable", text: "Every date has a solution." });
  const year = +($("#calendar-date").value || todayIso()).slice(0, 4);
  const heat = el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Solutions of each date, a table" },
    heatTable(r, year, "design-heat-table"));                                   // calendar.js
  out.replaceChildren(missing, el("div", { class: "table-wrap" }, figures), heat);
}

(function wireDesignCalendar() {
  const own = () => { $("#design-cal-pieces").value = OWN_PIECES[$("#design-cal-board").value]; };
  $("#design-cal-board").value = $("#calendar-board").value;
  own();
  $("#design-cal-board").addEventListener("change", own);
  $("#design-cal-own").addEventListener("click", own);
  $("#design-cal-chosen").addEventListener("click", () => { $("#design-cal-pieces").value = chosenPieces(); });
  $("#design-check-run").addEventListener("click", checkCalendar);
})();
