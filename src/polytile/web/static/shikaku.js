// The Shikaku tab: the grid editor (numbers, the arrow keys), a pasted text, URL or game id, new puzzles.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function setShikaku(width, height, rows = null) {
  const s = state.shikaku;
  s.width = width; s.height = height;
  s.rows = rows || Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => (s.rows && s.rows[r] && s.rows[r][c]) || 0));
  $("#shikaku-width").value = width; $("#shikaku-height").value = height;
  const grid = $("#shikaku-grid");
  const size = Math.max(20, Math.min(36, Math.floor(440 / width)));
  grid.style.setProperty("--cell", `${size}px`);
  grid.style.gridTemplateColumns = `repeat(${width}, ${size}px)`;
  grid.replaceChildren();
  if (width * height > 900) {
    grid.append(el("div", { class: "muted", style: "padding:0.5rem", text: `${width} x ${height}: too large to edit here; it is solved as loaded.` }));
    puzzleChanged();
    return;
  }
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
    const v = s.rows[r][c];
    const input = el("input", { type: "text", inputmode: "numeric", maxlength: 4, value: v ? String(v) : "", "data-r": r, "data-c": c,
      class: v ? "clue" : "", "aria-label": `row ${r + 1} column ${c + 1}` });
    input.addEventListener("input", () => {
      const n = parseInt(input.value.replace(/\D/g, ""), 10);
      s.rows[r][c] = Number.isFinite(n) ? n : 0;
      input.classList.toggle("clue", s.rows[r][c] > 0);
      puzzleChanged();
    });
    input.addEventListener("keydown", (e) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (moves[e.key] && (e.key.startsWith("ArrowU") || e.key.startsWith("ArrowD") || input.selectionStart === (e.key === "ArrowLeft" ? 0 : input.value.length))) {
        const [dr, dc] = moves[e.key];
        const next = grid.querySelector(`input[data-r="${r + dr}"][data-c="${c + dc}"]`);
        if (next) { e.preventDefault(); next.focus(); next.select(); }
      }
    });
    grid.append(input);
  }
  puzzleChanged();
}

function shikakuRows() {
  return state.shikaku.rows.map((row) => row.slice());
}

function wireShikaku() {
  setShikaku(7, 7);
  $("#shikaku-resize").addEventListener("click", () => setShikaku(Math.max(1, Math.min(30, +$("#shikaku-width").value || 1)), Math.max(1, Math.min(30, +$("#shikaku-height").value || 1))));
  $("#shikaku-clear").addEventListener("click", () => { state.shikaku.rows = null; setShikaku(state.shikaku.width, state.shikaku.height); });
  $("#shikaku-new").addEventListener("click", () => {
    const w = Math.max(2, Math.min(30, +$("#shikaku-width").value || 7)), h = Math.max(2, Math.min(30, +$("#shikaku-height").value || 7));
    startJob("generate", { seed: Math.floor(Math.random() * 2 ** 31), puzzle: { kind: "shikaku", rows: Array.from({ length: h }, () => Array(w).fill(0)) } });
  });
  $("#shikaku-load").addEventListener("click", async () => {
    try {
      const s = await api("POST", "/api/check", { puzzle: { kind: "shikaku", text: $("#shikaku-text").value } });
      setShikaku(s.width, s.height, s.rows);
      $("#shikaku-info").textContent = `${s.width} x ${s.height}, ${s.clues} numbers`;
      showMessage(null);
    } catch (e) { showMessage(e.message); }
  });
}
