// ESLint (flat config) for the page's JavaScript: `make lint` runs it with an ESLint installed
// outside the repository (.ci/run: npm's eslint, @eslint/js and globals in /tmp/polytile-eslint).
// The page is plain scripts, no build step: each file is a classic script sharing the page's
// globals (index.html loads them in order), except view3d.js, an ES module. The shared names are
// read from the scripts' top-level declarations, so `no-undef` still catches a misspelt one.
const fs = require("node:fs");
const path = require("node:path");
const prefix = process.env.POLYTILE_ESLINT || "/tmp/polytile-eslint";
const need = (name) => require(path.join(prefix, "node_modules", name));
const js = need("@eslint/js");
const globals = need("globals");

const STATIC = path.join(__dirname, "src", "polytile", "web", "static");
const TOP_LEVEL = /^(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm;
const shared = {};
for (const file of fs.readdirSync(STATIC).filter((f) => f.endsWith(".js") && f !== "view3d.js")) {
  for (const m of fs.readFileSync(path.join(STATIC, file), "utf8").matchAll(TOP_LEVEL)) shared[m[1]] = "writable";
}

module.exports = [
  { ignores: ["src/polytile/web/static/vendor/**"] },
  {
    files: ["src/polytile/web/static/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, ...shared, THREE: "readonly" },
    },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { vars: "local", args: "none", caughtErrors: "none" }],
      // the shared names are declared by the very scripts that define them
      "no-redeclare": ["error", { builtinGlobals: false }],
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["src/polytile/web/static/view3d.js"],
    languageOptions: { sourceType: "module" },
  },
];
