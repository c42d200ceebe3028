// The Katamino tab: pieces chosen by colour, the board's height, a challenge list played prefix by
// prefix (a slam), its table of boards.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function renderKatamino() {
  const k = state.katamino, sw = $("#katamino-swatches");
  if (!sw.childElementCount) {
    const rows = Object.fromEntries(state.info.library.filter((p) => p.order === 5).map((p) => [p.name, p.rows]));
    for (const p of state.info.katamino) {
      const b = el("button", { class: "swatch", type: "button", "data-letter": p.letter, title: `${p.letter}: ${p.colour_name} (${p.number})` },
        shapeSvg(rows[p.letter], p.colour, 8), el("div", { class: "label", text: `${p.number} · ${p.colour_name}` }));
      b.addEventListener("click", () => {
        const i = k.chosen.indexOf(p.letter);
        if (i >= 0) k.chosen.splice(i, 1); else k.chosen.push(p.letter);
        renderKatamino(); puzzleChanged();
      });
      sw.append(b);
    }
  }
  $$("#katamino-swatches .swatch").forEach((b) => b.classList.toggle("chosen", k.chosen.includes(b.dataset.letter)));
  const colour = Object.fromEntries(state.info.katamino.map((p) => [p.letter, p.colour]));
  $("#katamino-chosen").replaceChildren(...(k.chosen.length ? k.chosen.map((l) => el("span", { class: "chip", text: l, style: `background:${colour[l]};color:${luminance(colour[l]) > 0.55 ? "#262626" : "#fff"}` }))
    : [el("span", { class: "muted", text: "none yet" })]));
  const area = 5 * k.chosen.length;
  $("#katamino-board").textContent = k.chosen.length
    ? (area % k.height ? `${area} cells: no board of height ${k.height}` : `board ${k.height} x ${area / k.height}`) : "";
}

// The challenge list as piece letters (numbers, letters and colour names accepted), or null
// after saying which entries are not Katamino pieces.
function slamLetters() {
  const parts = $("#katamino-slam").value.split(/[\s,]+/).filter(Boolean);
  const by = {};
  for (const p of state.info.katamino) {
    by[String(p.number)] = p.letter; by[p.letter.toLowerCase()] = p.letter; by[p.colour_name.toLowerCase()] = p.letter;
  }
  const bad = parts.filter((p) => !by[p.toLowerCase()]);
  if (!parts.length || bad.length) {
    const names = state.info.katamino.map((p) => p.colour_name).join(", ");
    showMessage(parts.length ? `Not a Katamino piece in the challenge list: ${bad.map((b) => `"${b}"`).join(", ")} ` +
      `(use numbers 1-${state.info.katamino.length}, letters or colours: ${names})` : "The challenge list is empty.");
    $("#katamino-slam").focus();
    return null;
  }
  return parts.map((p) => by[p.toLowerCase()]);
}

function onSlam(job) {
  const table = $("#slam-table"), body = table.querySelector("tbody");
  table.hidden = false;
  body.replaceChildren(...job.rows.map((row) => {
    const show = el("button", { type: "button", text: "Solve" });
    show.addEventListener("click", () => {
      state.katamino.chosen = row.pieces.slice(); state.katamino.height = row.height;
      $("#katamino-height").value = row.height;
      renderKatamino(); puzzleChanged(); solve();
    });
    return el("tr", {}, el("td", { text: row.n }), el("td", { text: `${row.height}x${row.width}` }), el("td", { class: "left", text: row.pieces.join("") }),
      el("td", { text: row.solvable ? "yes" : "no" }), el("td", { text: fmt(row.solutions) }), el("td", { text: fmt(row.unique) }), el("td", {}, show));
  }));
  if (job.state === "done") $("#result").textContent = `Slam: ${job.rows.filter((r) => r.solvable).length} of ${job.rows.length} boards solvable.`;
}

function wireKatamino() {
  $("#katamino-height").addEventListener("change", (e) => { state.katamino.height = +e.target.value; renderKatamino(); puzzleChanged(); });
  $("#katamino-clear").addEventListener("click", () => { state.katamino.chosen = []; renderKatamino(); puzzleChanged(); });
  $("#katamino-use").addEventListener("click", () => {
    const letters = slamLetters();
    if (letters) { state.katamino.chosen = [...new Set(letters)]; renderKatamino(); puzzleChanged(); }
  });
  $("#katamino-play").addEventListener("click", () => {
    const letters = slamLetters();
    if (letters) startJob("slam", { puzzle: { kind: "katamino", pieces: letters, height: state.katamino.height, reflect: $("#reflect").checked } });
  });
}
