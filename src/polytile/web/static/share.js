// Share links: the puzzle in the address bar after #p=, and back.
// A classic script, loaded after app.js (index.html), sharing the page's globals ($, el, api, state...).
"use strict";

function encodeState() {
  const s = { m: state.mode, r: $("#reflect").checked ? 1 : 0, u: $("#unique").checked ? 1 : 0 };
  if (state.mode === "tiling") {
    if (state.tiling.source === "text") { s.t = $("#tiling-text").value; s.tn = burr.textName || undefined; if (burr.file) s.xm = burrShared(); }   // files.js
    else { s.b = tilingBoardRows(); s.p = Object.fromEntries(Object.entries(state.tiling.counts).filter(([, n]) => n > 0)); }
    if (onLattice() && state.tiling.source !== "text") s.g = state.tiling.grid;     // lattice.js
  } else if (state.mode === "katamino") { s.k = state.katamino.chosen; s.h = state.katamino.height; s.l = $("#katamino-slam").value; }
  else if (state.mode === "box") { s.x = currentPuzzle(); }
  else if (state.mode === "calendar") { s.c = calendarPuzzle(); }
  else { s.s = state.shikaku.rows; }
  const bytes = new TextEncoder().encode(JSON.stringify(s));
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeState(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function updateShareUrl() {
  history.replaceState(null, "", `#p=${encodeState()}`);
}

function restoreState(s) {
  $("#reflect").checked = s.r !== 0;
  $("#unique").checked = !!s.u;
  if (s.m === "tiling") {
    if (s.xm) restoreBurr(s.xm);                                               // files.js
    else if (typeof s.t === "string") { $("#tiling-text").value = s.t; burr.textName = typeof s.tn === "string" ? s.tn : ""; setTilingSource("text"); }
    else if (typeof s.g === "string") restoreLattice(s);                          // lattice.js
    else if (Array.isArray(s.b) && s.b.length) {
      state.tiling.counts = s.p || {};
      const rows = Math.min(30, s.b.length), cols = Math.min(30, Math.max(...s.b.map((r) => r.length)));
      setBoard(rows, cols, Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => s.b[r][c] === "X")));
      renderPieceLibrary();
    }
  } else if (s.m === "katamino") {
    const known = new Set(state.info.katamino.map((p) => p.letter));
    state.katamino.chosen = Array.isArray(s.k) ? s.k.filter((l) => known.has(l)) : [];
    state.katamino.height = +s.h || 5; $("#katamino-height").value = state.katamino.height;
    if (typeof s.l === "string") $("#katamino-slam").value = s.l;
    renderKatamino();
  } else if (s.m === "box" && s.x) {
    $("#box-order").value = s.x.order; $("#box-width").value = s.x.width; $("#box-height").value = s.x.height;
    $("#box-max").value = s.x.max_copies; $("#box-min").value = s.x.min_copies; $("#box-one-sided").checked = !!s.x.one_sided;
  } else if (s.m === "calendar" && s.c) {
    $("#calendar-board").value = s.c.board === "weekday" ? "weekday" : "classic";
    if (typeof s.c.date === "string") $("#calendar-date").value = s.c.date;
  } else if (s.m === "shikaku" && Array.isArray(s.s) && s.s.length) {
    setShikaku(s.s[0].length, s.s.length, s.s);
  }
  setMode(s.m || "tiling");
}

// A share link, opened at load or pasted into this tab's address bar (only the hash changes).
function restoreFromHash() {
  try { restoreState(decodeState(location.hash.slice(3))); return true; }
  catch (e) { showMessage("The link's puzzle could not be read (a share link starts #p= and was cut or changed).", "error", "link"); return false; }
}

// The Copy link button, and a link in the address bar (at the start: true when it set the puzzle).
function wireShare() {
  $("#share").addEventListener("click", async () => {
    updateShareUrl();
    try { await navigator.clipboard.writeText(location.href); showMessage("Link copied: it opens this puzzle.", "info"); }
    catch (e) { showMessage("The link is in the address bar.", "info"); }
  });
  window.addEventListener("hashchange", () => { if (location.hash.startsWith("#p=")) restoreFromHash(); });
  return location.hash.startsWith("#p=") && restoreFromHash();
}
