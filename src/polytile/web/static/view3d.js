// The 3D view of polycube boards: the solution shown, or the hint's pieces on the empty board, as
// cubes coloured by piece that you turn (drag), zoom (wheel, pinch) and move (right drag, two
// fingers), pull apart ("Exploded") and build up layer by layer. app.js draws each picture as SVG
// and calls show3d(picture, summary, placements, highlight); for a 3D board this module puts a WebGL
// canvas in front and hides the SVG (downloads and tests still read it). Without WebGL the SVG of
// the layers side by side stays. three.js is bundled in vendor/ (tools/vendor-three.sh): offline,
// and loaded only when a 3D board is first shown (flat puzzles never pay for it).
let THREE = null;                  // the module, once loaded
let loading = null;

const EMPTY_SOLID = "#e4e4de", EMPTY_GHOST = "#b9b9b2", EDGE = "#262626";
const MAX_EXPLODE = 1.2;           // at the slider's end a piece's centre is 2.2x as far out
const views = new WeakMap();       // picture element -> View
let webgl = null;                  // true / false once a renderer was tried

const key = (c) => c.join(",");
const DIRS = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];

// A board cell [row, col, layer] in the scene: layers stacked upwards, rows towards the viewer.
function place(c, centre) {
  return [c[1] - centre[1], c[2] - centre[2], c[0] - centre[0]];
}

// The faces of a set of unit cubes that no other cube of the set covers, as triangles with
// normals, and the outline of each face (for the thin lines between cubes).
function cubeSurface(points) {
  const solid = new Set(points.map(key));
  const pos = [], normal = [], outline = [];
  for (const p of points) {
    for (const n of DIRS) {
      if (solid.has(key([p[0] + n[0], p[1] + n[1], p[2] + n[2]]))) continue;
      const a = n.findIndex((x) => x !== 0), s = n[a];
      const u = [0, 0, 0], v = [0, 0, 0];
      u[(a + 1) % 3] = 1; v[(a + 2) % 3] = 1;                  // u x v = +n along axis a
      const [e1, e2] = s > 0 ? [u, v] : [v, u];
      const corner = (i, j) => p.map((x, k) => x + n[k] / 2 + (i - 0.5) * e1[k] + (j - 0.5) * e2[k]);
      const q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
      for (const t of [q[0], q[1], q[2], q[0], q[2], q[3]]) { pos.push(...t); normal.push(...n); }
      for (let i = 0; i < 4; i++) outline.push(...q[i], ...q[(i + 1) % 4]);
    }
  }
  const faces = new THREE.BufferGeometry();
  faces.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
  faces.setAttribute("normal", new THREE.Float32BufferAttribute(normal, 3));
  const lines = new THREE.BufferGeometry();
  lines.setAttribute("position", new THREE.Float32BufferAttribute(outline, 3));
  return { faces, lines };
}

// Cells that are solids of their own (summary.solids, from draw/view_solids.py): the mesh frame's
// x right, y away, z up turned to three.js's y up, as `place` turns a cube's.
const turn = (p, centre) => [p[0] - centre[0], p[2] - centre[1], -p[1] - centre[2]];

function geometry(pos, normal, outline) {
  const faces = new THREE.BufferGeometry();
  faces.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
  faces.setAttribute("normal", new THREE.Float32BufferAttribute(normal, 3));
  const lines = new THREE.BufferGeometry();
  lines.setAttribute("position", new THREE.Float32BufferAttribute(outline, 3));
  return { faces, lines };
}

// The faces of a set of cells' solids ([vertices, faces] each) that no other cell of the set shares,
// fanned into triangles, and the outline of each face.
function solidSurface(solids, centre) {
  const seen = new Map();
  for (const [verts, faces] of solids) {
    for (const f of faces) {
      const id = f.map((k) => key(verts[k])).sort().join(";");
      seen.set(id, seen.has(id) ? null : f.map((k) => turn(verts[k], centre)));
    }
  }
  const pos = [], normal = [], outline = [];
  for (const q of seen.values()) {
    if (!q) continue;
    const n = [0, 0, 0];
    q.forEach((a, i) => {                                   // Newell's normal
      const b = q[(i + 1) % q.length];
      n[0] += (a[1] - b[1]) * (a[2] + b[2]); n[1] += (a[2] - b[2]) * (a[0] + b[0]); n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    });
    const len = Math.hypot(...n) || 1;
    for (let i = 1; i + 1 < q.length; i++) for (const t of [q[0], q[i], q[i + 1]]) { pos.push(...t); normal.push(...n.map((x) => x / len)); }
    for (let i = 0; i < q.length; i++) outline.push(...q[i], ...q[(i + 1) % q.length]);
  }
  return geometry(pos, normal, outline);
}

// Balls (centres in the mesh frame) and a neck between each two that touch, as one geometry
// (the vendored three.js has no sphere or cylinder shapes: made here, triangles with normals).
function ballSurface(centres, radius, neck, centre) {
  const pos = [], normal = [];
  const quad = (a, b, c, d, na, nb, nc, nd) => {
    for (const [p, n] of [[a, na], [b, nb], [c, nc], [a, na], [c, nc], [d, nd]]) { pos.push(...p); normal.push(...n); }
  };
  const at = centres.map((c) => turn(c, centre));
  const SEG = 20, RINGS = 12;
  for (const c of at) {
    const unit = (i, j) => {                              // ring i (0 at the top) of RINGS, meridian j of SEG
      const t = Math.PI * i / RINGS, f = 2 * Math.PI * j / SEG;
      return [Math.sin(t) * Math.cos(f), Math.cos(t), -Math.sin(t) * Math.sin(f)];
    };
    const p = (n) => n.map((x, k) => c[k] + radius * x);
    for (let i = 0; i < RINGS; i++) for (let j = 0; j < SEG; j++) {
      const n = [unit(i, j), unit(i + 1, j), unit(i + 1, j + 1), unit(i, j + 1)];
      quad(...n.map(p), ...n);
    }
  }
  at.forEach((p, i) => at.slice(i + 1).forEach((q) => {
    const d = q.map((x, k) => x - p[k]), len = Math.hypot(...d);
    if (Math.abs(len - 2 * radius) > 1e-3 * radius) return;                 // touching balls only
    const a = d.map((x) => x / len);
    const side = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const cross = (x, y) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
    const u = cross(a, side), un = Math.hypot(...u), uu = u.map((x) => x / un), v = cross(a, uu);
    const ring = (f) => uu.map((x, k) => Math.cos(f) * x + Math.sin(f) * v[k]);
    const end = (t, n) => n.map((x, k) => p[k] + t * d[k] + neck * x);
    for (let j = 0; j < SEG; j++) {
      const n1 = ring(2 * Math.PI * j / SEG), n2 = ring(2 * Math.PI * (j + 1) / SEG);
      quad(end(0.3, n1), end(0.3, n2), end(0.7, n2), end(0.7, n1), n1, n2, n2, n1);
    }
  }));
  return geometry(pos, normal, []);
}

// One piece (or the empty cells): its faces, its outline where faces fold, thin lines between cells.
function pieceGroup({ faces, lines }, colour, { ghost = false, highlight = false, fold = 10 } = {}) {
  const material = new THREE.MeshLambertMaterial({ color: colour, transparent: ghost, opacity: ghost ? 0.18 : 1,
    depthWrite: !ghost, emissive: highlight ? 0x3a3a3a : 0x000000, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  const mesh = new THREE.Mesh(faces, material);
  const group = new THREE.Group();
  group.add(mesh);
  if (fold) group.add(new THREE.LineSegments(new THREE.EdgesGeometry(faces, fold),
    new THREE.LineBasicMaterial({ color: ghost ? "#8a8a84" : EDGE, transparent: ghost, opacity: ghost ? 0.5 : 1 })));
  group.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: ghost ? "#8a8a84" : EDGE, transparent: true,
    opacity: ghost ? 0.25 : 0.22, depthWrite: false })));
  group.userData.mesh = mesh;
  return group;
}

function dispose(object) {
  object.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
}

const el = window.el;              // app.js's element maker (app.js runs before this module)

class View {
  constructor(pic) {
    this.pic = pic;
    this.flat = false;
    this.boardKey = null;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.setClearColor(0xffffff, 1);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(35, 4 / 3, 0.1, 1000);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(0.6, 1.2, 1);
    this.camera.add(sun);                                   // the light turns with the viewer
    this.scene.add(this.camera);
    this.pieces = new THREE.Group();
    this.scene.add(this.pieces);
    this.buildDom();
    this.controls = new THREE.OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener("change", () => this.render());
    new ResizeObserver(() => this.resize()).observe(pic);
  }

  buildDom() {
    this.explode = el("input", { type: "range", min: 0, max: 100, value: 0, class: "view3d-explode", "aria-label": "Exploded",
      oninput: () => { this.spread(); this.render(); } });
    this.layers = el("input", { type: "range", min: 1, max: 1, value: 1, class: "view3d-layers", "aria-label": "Layers shown",
      oninput: () => { this.rebuild(); this.render(); } });
    this.layerText = el("span", { class: "view3d-layer-text muted" });
    const reset = el("button", { type: "button", class: "view3d-reset", title: "Turn back to the first view", text: "Reset view",
      onclick: () => { this.aim(); this.render(); } });
    this.flatButton = el("button", { type: "button", class: "view3d-flat", title: "The layers side by side, flat", text: "Flat layers",
      onclick: () => { this.flat = !this.flat; this.attach(); } });
    const tools = el("div", { class: "view3d-tools" }, el("label", {}, "Exploded ", this.explode),
      el("label", {}, "Layers ", this.layers, this.layerText), reset, this.flatButton);
    this.help = el("p", { class: "view3d-help muted", text: "Drag to turn · wheel or pinch to zoom · right drag or two fingers to move" });
    this.canvas = this.renderer.domElement;
    this.canvas.classList.add("view3d-canvas");
    this.wrapper = el("div", { class: "view3d" }, tools, this.canvas, this.help);
  }

  // Draw `board` ({summary, placements, highlight}) into the picture, in front of its SVG.
  show(board) {
    this.board = board;
    const s = board.summary, cells = s.cells;
    const index = new Map(cells.map((c, i) => [key(c), i]));
    this.cellIndex = (c) => index.get(key(c));
    this.layerOf = s.layers ? (c) => s.layers[index.get(key(c))] : (c) => c[2];
    // each cell's middle in the mesh frame [x, y, z] (a cube [row, col, layer] at x = col, y = -row)
    const middle = s.balls ? (i) => s.balls[i]
      : s.solids ? (i) => { const v = s.solids[i][0]; return [0, 1, 2].map((k) => v.reduce((a, p) => a + p[k], 0) / v.length); }
        : (i) => [cells[i][1], -cells[i][0], cells[i][2]];
    this.middles = cells.map((c, i) => middle(i));
    const lo = [0, 1, 2].map((i) => Math.min(...this.middles.map((p) => p[i])));
    const hi = [0, 1, 2].map((i) => Math.max(...this.middles.map((p) => p[i])));
    this.centre = turn(lo.map((x, i) => (x + hi[i]) / 2), [0, 0, 0]);
    this.size = hi.map((x, i) => x - lo[i] + 1);
    const levels = cells.map(this.layerOf);
    this.layerLo = Math.min(...levels);
    this.layerCount = Math.max(...levels) - this.layerLo + 1;
    const own = !!(s.solids || s.balls);                    // cells of their own: no flat layers to show
    this.flatButton.hidden = own;
    if (own) this.flat = false;
    const boardKey = JSON.stringify(cells);
    if (boardKey !== this.boardKey) {                        // a new board: all layers, the first view
      this.boardKey = boardKey;
      this.layers.max = this.layerCount;
      this.layers.value = this.layerCount;
      this.aimed = false;
    }
    this.rebuild();
    this.attach();
  }

  attach() {
    const svg = this.pic.querySelector("svg.board-svg");
    if (this.wrapper.parentNode !== this.pic) this.pic.prepend(this.wrapper);
    if (svg) svg.style.display = this.flat ? "" : "none";
    this.canvas.hidden = this.help.hidden = this.flat;
    this.explode.disabled = this.layers.disabled = this.flat;
    this.flatButton.textContent = this.flat ? "3D view" : "Flat layers";
    this.wrapper.dataset.flat = this.flat ? "1" : "0";
    this.resize();
    if (!this.aimed) { this.aim(); this.aimed = true; }
    this.render();
  }

  // The pieces of the board up to the chosen layer, each a group (one mesh per piece).
  rebuild() {
    for (const g of [...this.pieces.children]) { this.pieces.remove(g); dispose(g); }
    const { summary, placements, highlight } = this.board;
    const top = this.layerLo + +this.layers.value - 1;
    const shown = (c) => this.layerOf(c) <= top;
    const owned = new Set();
    placements.forEach((p, i) => {
      p.cells.forEach((c) => owned.add(key(c)));
      const cells = p.cells.filter(shown);
      if (!cells.length) return;
      const g = pieceGroup(this.surface(cells), p.colour || "#8fb3de", { highlight: i === highlight && placements.length > 1, fold: this.fold });
      g.userData.piece = p.piece || p.letter;
      g.userData.index = i;
      g.userData.centre = p.cells.map((c) => turn(this.middles[this.cellIndex(c)], this.centre))
        .reduce((a, q) => a.map((x, k) => x + q[k] / p.cells.length), [0, 0, 0]);
      this.pieces.add(g);
    });
    const empty = summary.cells.filter((c) => !owned.has(key(c)) && shown(c));
    if (empty.length) {
      const g = pieceGroup(this.surface(empty), placements.length ? EMPTY_GHOST : EMPTY_SOLID, { ghost: placements.length > 0, fold: this.fold });
      g.userData.empty = true;
      this.pieces.add(g);
    }
    this.wrapper.dataset.layers = this.layers.value;
    this.layerText.textContent = ` 1–${this.layers.value} of ${this.layerCount}`;
    this.spread();
  }

  // The geometry of some of the board's cells: cubes, the cells' own solids, or balls and necks.
  surface(cells) {
    const s = this.board.summary;
    this.fold = s.balls ? 0 : 10;                             // no fold lines across a ball's facets
    if (s.balls) return ballSurface(cells.map((c) => s.balls[this.cellIndex(c)]), s.radius, s.neck, this.centre);
    if (s.solids) return solidSurface(cells.map((c) => s.solids[this.cellIndex(c)]), this.centre);
    return cubeSurface(cells.map((c) => place(c, [this.centre[2], this.centre[0], this.centre[1]])));
  }

  spread() {                                                  // pieces pushed out from the centre, and moved
    const f = MAX_EXPLODE * +this.explode.value / 100;        // by a disassembly's steps (pic.moved: a board cell's
    for (const g of this.pieces.children) {                   // [row, col, layer] offset per placement)
      if (g.userData.empty) continue;
      const d = (this.pic.moved && this.pic.moved[g.userData.index]) || [0, 0, 0];
      g.position.set(...g.userData.centre.map((x, k) => x * f + d[(k + 1) % 3]));
    }
    this.wrapper.dataset.explode = this.explode.value;
  }

  aim() {
    const radius = 0.5 * Math.hypot(...this.size) + 0.7 * (this.pic.reach || 0);  // a plan's parts out: all in view
    const distance = 1.25 * radius / Math.sin((this.camera.fov / 2) * Math.PI / 180);
    const dir = new THREE.Vector3(0.9, 1.0, 1.5).normalize();
    this.camera.position.copy(dir.multiplyScalar(distance));
    this.controls.target.set(0, 0, 0);
    this.controls.minDistance = 1.4 * radius;
    this.controls.maxDistance = distance * 6;
    this.controls.update();
  }

  resize() {
    const room = (this.pic.clientWidth || 660) - 20;
    const width = Math.max(200, Math.min(720, room));
    const height = Math.round(Math.min(520, width * (width < 480 ? 0.9 : 0.72)));        // taller on a phone
    if (this.width === width && this.height === height) return;
    this.width = width; this.height = height;
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  render() {
    if (this.flat || !this.board) return;
    this.renderer.render(this.scene, this.camera);
    const pieces = this.pieces.children.filter((g) => !g.userData.empty);
    this.wrapper.dataset.pieces = pieces.length;
    this.wrapper.dataset.camera = this.camera.position.toArray().map((x) => x.toFixed(2)).join(",");
  }

  // What tests read: the pieces drawn (one mesh each), the camera, the controls' values.
  report() {
    const pieces = this.pieces.children.filter((g) => !g.userData.empty);
    return {
      pieces: pieces.length, meshes: pieces.map((g) => g.userData.mesh.isMesh).filter(Boolean).length,
      letters: pieces.map((g) => g.userData.piece), camera: this.camera.position.toArray(),
      spread: pieces.reduce((a, g) => a + g.position.length(), 0), layers: +this.layers.value, explode: +this.explode.value,
      flat: this.flat, empty: this.pieces.children.some((g) => g.userData.empty),
      moved: pieces.map((g) => g.position.toArray().map((x) => +x.toFixed(3))),
    };
  }
}

function is3d(board) {
  const s = board && board.summary;
  return !!(s && s.kind !== "shikaku" && s.cells && s.cells.length && (s.cells[0].length === 3 || s.solids || s.balls));
}

// Called by app.js after it drew a picture (pic.board = {summary, placements, highlight}).
export function update(pic) {
  const board = pic.board;
  if (!is3d(board) || webgl === false) return;
  if (!THREE) {                                              // then draw what the picture holds by then
    loading = loading || import("./vendor/three.min.js").then((m) => { THREE = m; });
    loading.then(() => update(pic), () => { webgl = false; document.body.dataset.webgl = "0"; });
    return;
  }
  let view = views.get(pic);
  if (!view) {
    try {
      view = new View(pic);
      webgl = true;
    } catch (e) {                                            // no WebGL: the SVG of the layers stays
      webgl = false;
      document.body.dataset.webgl = "0";
      return;
    }
    document.body.dataset.webgl = "1";
    views.set(pic, view);
  }
  view.show(board);
}

export function report(pic) {
  const view = views.get(pic);
  return view && view.wrapper.isConnected ? view.report() : null;
}

// A disassembly's state (static/disassembly.js): each placement's translation, null to put them back;
// `reach` (a new plan): how far its parts go, the camera drawn back to see them all.
export function move(pic, offsets, reach) {
  pic.moved = offsets;
  const view = views.get(pic);
  if (!view) return;
  if (reach !== undefined) { pic.reach = reach; view.aim(); }
  view.spread();
  view.render();
}

window.view3d = { update, report, move };
for (const pic of document.querySelectorAll(".picture")) if (pic.board) update(pic);
