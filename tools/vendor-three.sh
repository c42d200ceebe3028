#!/usr/bin/env bash
# Rebuild the page's copy of three.js (src/polytile/web/static/vendor/): only what view3d.js
# imports, with OrbitControls, bundled and minified into one ES module by esbuild, and three's
# LICENSE beside it. Needs node and npm (the npm registry); run from anywhere:
#     tools/vendor-three.sh [VERSION]        (default: the version below)
# then check the page (tests/web/test_web_view3d.py) and commit the two files.
set -euo pipefail
VERSION="${1:-0.187.0}"
ESBUILD=0.28.2
OUT="$(cd "$(dirname "$0")/.." && pwd)/src/polytile/web/static/vendor"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
npm install --silent --no-audit --no-fund --no-save "three@$VERSION" "esbuild@$ESBUILD" >/dev/null
cat > entry.js <<'JS'
export { WebGLRenderer, Scene, PerspectiveCamera, AmbientLight, DirectionalLight, Group, Mesh, BufferGeometry,
  Float32BufferAttribute, EdgesGeometry, LineSegments, LineBasicMaterial, MeshLambertMaterial, Color, Vector3,
  REVISION } from "three";
export { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
JS
node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --target=es2020 --log-level=warning \
    --banner:js="/* three.js $VERSION (https://threejs.org, MIT, see three-LICENSE.txt): the parts polytile's 3D view uses, bundled by tools/vendor-three.sh */" \
    --outfile="$OUT/three.min.js"
cp node_modules/three/LICENSE "$OUT/three-LICENSE.txt"
echo "wrote $OUT/three.min.js ($(wc -c < "$OUT/three.min.js") bytes), three $VERSION"
