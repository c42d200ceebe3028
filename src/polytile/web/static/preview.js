// The puzzle on the page checked by the server (its board drawn before a solve), or refused with
// the reason in place of the board.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

let previewTimer = null;
function puzzleChanged() {
  if (state.mode === "tiling") updateTilingArea();
  if (state.mode === "box") renderBox();
  state.hints = [];
  clearTimeout(previewTimer);
  previewTimer = setTimeout(refreshPreview, 150);
  document.body.dataset.preview = "pending";
}

// The board of the puzzle on the page, from the server's check; body[data-preview] says where it
// is: pending (a change not yet checked), shown, refused, or none (nothing to check).
async function refreshPreview() {
  if (!state.info) return;
  const puzzle = currentPuzzle(), key = JSON.stringify(puzzle);
  const none = (puzzle.kind === "tiling" && puzzle.text !== undefined && !puzzle.text.trim()) ||
    (puzzle.kind === "katamino" && !puzzle.pieces.length);
  if (none) {
    if (puzzle.kind === "katamino") state.preview = null;
    document.body.dataset.preview = puzzleRefusal() ? "refused" : "none";      // files.js
    return;
  }
  let answer = null, error = null;
  try { answer = await api("POST", "/api/check", { puzzle }); } catch (e) { error = e; }
  if (JSON.stringify(currentPuzzle()) !== key) {        // changed while it was checked: check the new one
    clearTimeout(previewTimer);
    previewTimer = setTimeout(refreshPreview, 150);
    return;
  }
  if (error) {
    state.preview = null;
    document.body.dataset.preview = "refused";
    if (puzzle.kind === "katamino" || (puzzle.kind === "tiling" && puzzle.pieces && !puzzle.pieces.length)) return;
    showRefused(error.message);
    return;
  }
  state.preview = answer;
  state.previewKey = key;                           // which puzzle it shows (play.js)
  showMessage(null, "error", "preview");
  if (puzzle.kind === "tiling" && (puzzle.text !== undefined || puzzle.xmpuzzle !== undefined)) {
    const s = state.preview;
    const box = $("#reflect");
    if (!s.reflect && box.checked) {          // the file says rotate only (solid pieces, for one)
      box.checked = false; box.disabled = true;
      $("#reflect-label").title = "this puzzle file says: rotate only";
      state.previewKey = JSON.stringify({ ...puzzle, reflect: false });     // the same puzzle, as the page now says it
    }
    $("#tiling-text-info").textContent = `board ${s.shape.join(" x ")}, ${s.area} cells; ${s.pieces.length} piece kinds, ${s.tiles_area} cells of tiles` + (s.notes.length ? ` (${s.notes.join("; ")})` : "");
  }
  if (!state.view || state.view.job.summary.kind !== state.preview.kind || !sameBoard(state.view.job, puzzle)) {
    state.view = null;
    $("#result").textContent = "";
    renderView();
  }
  drawHints();
  updateViewTabs();
  playPuzzleChanged();                              // play.js
  document.body.dataset.preview = "shown";
}

// A puzzle the server refused (or a file the page refused): the error in place of the board, and
// no board, listing or count of another puzzle left on show.
function showRefused(message) {
  state.preview = null;
  showMessage(message, "error", "preview");
  state.view = null;
  clearResult();
  $("#picture").replaceChildren(el("p", { class: "picture-error", id: "board-error", text: `No board to show: ${message}` }));
  updateNav();
}

function clearResult() {              // a count or listing that no longer answers the puzzle shown
  const res = $("#result");
  res.replaceChildren();
  delete res.dataset.solutions; delete res.dataset.unique;
}

function sameBoard(job, puzzle) {
  return JSON.stringify(job.puzzle) === JSON.stringify(puzzle);
}
