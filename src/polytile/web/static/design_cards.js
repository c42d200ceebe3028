// The Design view's challenge cards: "Make cards" runs a cards job on the puzzle of the editor
// (web/design_api.py; progress on the page's bar, Cancel stops it), then each card is drawn (the
// placed pieces filled, the free cells white inside the board's outline) with its level and a
// "Show solution" toggle, and the cards' JSON and printable sheet are offered for download.
// A classic script, loaded after jobs.js (index.html), sharing the page's globals ($, el, state...).
"use strict";

const CARD_MODES = ["tiling", "katamino", "box"];
const designCards = { job: null, shown: new Set() };

// Called by app.js when the Design view is shown: cards only for tiling puzzles.
function designShow() {
  const ok = CARD_MODES.includes(state.mode);
  $("#design-cards-run").disabled = !ok || starting;
  $("#design-cards-run").title = ok ? "" : "cards are made of tiling puzzles (Tiling, Katamino, Boxing)";
  if (!ok && !designCards.job) $("#design-cards-status").textContent = "Cards are made of tiling puzzles: choose the Tiling, Katamino or Boxing tab.";
  else if (!designCards.job) $("#design-cards-status").textContent = "";
}

function makeCards() {
  if (whenReady(makeCards)) return null;
  const n = Math.round(+$("#design-cards-n").value);
  if (!(n >= 1 && n <= 40)) { showMessage("Cards: a number from 1 to 40."); return null; }
  designCards.shown = new Set();
  $("#design-cards-status").textContent = `Making ${n} cards…`;
  return startJob("cards", { path: "/api/design/cards", cards: n, levels: +$("#design-levels").value }).then((job) => {
    if (!job) $("#design-cards-status").textContent = `No cards: ${$("#message").textContent}`;   // jobs.js's notStarted
    return job;
  });
}

// Called by jobs.js for every update of a job.
function designJobUpdate(job) {
  const mine = job.action === "cards" || job.action === "calendar_check";
  const running = ["starting", "running"].includes(job.state);
  $("#design-cancel").disabled = !(mine && running);
  if (job.action === "calendar_check") return onCalendarCheck(job);   // design_calendar.js
  if (job.action !== "cards") return;
  designCards.job = job;
  const status = $("#design-cards-status"), p = job.progress || {};
  if (running) { status.textContent = `Making cards: ${p.done || 0} of ${p.wanted || "?"} made…`; return; }
  if (job.state !== "done" || !job.result) {
    status.textContent = job.state === "cancelled" ? "Cards cancelled." : `No cards: ${job.error || job.state}.`;
    return;
  }
  if (job.drawn) return;
  job.drawn = true;
  const r = job.result, levels = Object.entries(r.levels).map(([lv, k]) => `level ${lv}: ${k}`).join(", ");
  status.textContent = `${r.cards.length} card${r.cards.length === 1 ? "" : "s"} made (${levels})` +
    (r.complete ? "." : "; stopped early: the time limit, or no more positions with one completion.");
  renderCards(job);
}

function cardPieces(pieces, colours) {
  return pieces.map((p) => ({ piece: p.piece, letter: p.piece, cells: p.cells, colour: colours[p.piece] || "#8fb3de" }));
}

function renderCards(job) {
  const r = job.result, box = $("#design-cards");
  box.replaceChildren(...r.cards.map((card, i) => {
    const fig = el("figure", { class: "design-card", "data-level": card.level, "data-card": i });
    fig.append(el("figcaption", { text: `Card ${i + 1} · level ${card.level}` }), el("div", { class: "card-picture" }));
    const toggle = el("button", { class: "card-toggle", "aria-pressed": "false", text: "Show solution",
      onclick: () => toggleCard(job, fig, i) });
    fig.append(toggle);
    drawCard(job, fig, i);
    return fig;
  }));
  cardDownloads(job);
}

function toggleCard(job, fig, i) {
  if (designCards.shown.has(i)) designCards.shown.delete(i); else designCards.shown.add(i);
  drawCard(job, fig, i);
}

function drawCard(job, fig, i) {
  const card = job.result.cards[i], shown = designCards.shown.has(i);
  const pieces = cardPieces(card.placed, job.result.colours);
  const all = shown ? pieces.concat(cardPieces(card.solution, job.result.colours)) : pieces;
  const svg = drawSolution(job.summary, all, { maxWidth: 300, maxHeight: 220 });
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", shown ? `Card ${i + 1} solved: ${all.map((p) => p.letter).join(", ")}` :
    `Card ${i + 1}, level ${card.level}: ${pieces.map((p) => p.letter).join(", ")} placed; ` +
    `${card.solution.map((p) => p.piece).join(", ")} to place on the ${card.puzzle.board.length} free cells`);
  fig.querySelector(".card-picture").replaceChildren(svg);
  const toggle = fig.querySelector(".card-toggle");
  toggle.setAttribute("aria-pressed", shown ? "true" : "false");
  toggle.textContent = shown ? "Hide solution" : "Show solution";
  fig.dataset.shown = shown ? "1" : "";
}

function cardDownloads(job) {
  const row = $("#design-downloads"), n = job.result.pages;
  const link = (href, text) => el("a", { class: "button", href, download: "", text });
  row.replaceChildren(el("span", { class: "muted", text: "Download" }), link(`/api/jobs/${job.id}/cards.json`, "Cards JSON"),
    ...Array.from({ length: n }, (_, k) => link(`/api/jobs/${job.id}/cards/${k + 1}.svg`,
      `Sheet page ${k + 1} (${k % 2 ? "solutions" : "cards"})`)));
  row.hidden = !job.result.cards.length;
}

(function wireDesignCards() {
  $("#design-cards-run").addEventListener("click", makeCards);
  $("#design-cancel").addEventListener("click", cancelJob);
})();
