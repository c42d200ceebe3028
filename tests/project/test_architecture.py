"""docs/architecture.md tells the truth about the code: every package has its section, every
module (and no module that is gone) is named in its package's section, and the layer sentence
is the import-linter contract of pyproject.toml, and every `package.module.Name` it cites exists.
A newcomer reads the document first."""

import ast
import re
import tomllib

from module_graph import SRC, module_files, packages
from paths import ROOT

DOC = ROOT / "docs" / "architecture.md"


def sections(text: str) -> dict[str, set[str]]:
    """`### pkg/` heading -> the `name.py` at the start of its bullets."""
    out: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        heading = re.match(r"### (\S+)/\s*$", line)
        if heading:
            current = heading.group(1)
            out[current] = set()
        elif line.startswith("## "):
            current = None
        elif current is not None and (bullet := re.match(r"- `([\w.]+\.py)`", line)):
            out[current].add(bullet.group(1))
    return out


def package_dir(package: str) -> str:
    """polytile.cli.commands -> "cli/commands"; the root package is "polytile"."""
    return "polytile" if package == "polytile" else package.removeprefix("polytile.").replace(".", "/")


def code_modules() -> dict[str, set[str]]:
    """Package directory -> its module files (package __init__ files are the headings)."""
    out: dict[str, set[str]] = {package_dir(p): set() for p in packages()}
    for name, path in module_files().items():
        if path.name != "__init__.py":
            out[package_dir(name.rsplit(".", 1)[0])].add(path.name)
    return out


def test_every_package_has_a_section_and_no_section_is_stale():
    documented = sections(DOC.read_text(encoding="utf-8"))
    code = code_modules()
    assert sorted(set(code) - set(documented)) == [], "packages the document does not name"
    assert sorted(set(documented) - set(code)) == [], "sections for packages that are gone"


def test_every_module_is_named_in_its_package_section():
    documented = sections(DOC.read_text(encoding="utf-8"))
    for package, modules in code_modules().items():
        named = documented.get(package, set()) - {"__init__.py"}
        assert sorted(modules - named) == [], f"{package}/: modules the document does not name"
        assert sorted(named - modules) == [], f"{package}/: the document names modules that are gone"


def test_the_layer_sentence_is_the_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    sentence = " > ".join(layer.replace("polytile.", "") for layer in layers)
    assert f"Layers: `{sentence}`" in DOC.read_text(encoding="utf-8")


def test_the_reader_sees_a_missing_module():
    text = "### core/\n\n- `shape.py` shapes.\n\n## next\n- `x.py` not in a section\n"
    assert sections(text) == {"core": {"shape.py"}}
    assert (SRC / "polytile" / "core" / "shape.py").is_file()
    assert "shape.py" in code_modules()["core"] and "main.py" in code_modules()["cli"]


PACKAGE_WORDS = (
    "core",
    "engine",
    "formats",
    "tiling",
    "shikaku",
    "draw",
    "analysis",
    "web",
    "cli",
    "budget",
    "errors",
    "atomic",
)


def _defined(body: list[ast.stmt]) -> set[str]:
    """The names a module or class body defines (functions, classes, assignments, fields)."""
    out: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def unresolved(text: str) -> list[str]:
    """The document's `package.module.Name` references that name nothing in the code."""
    files = module_files()
    bad = []
    for ref in sorted(set(re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)`", text))):
        if ref.split(".")[0] not in PACKAGE_WORDS or ref.endswith((".py", ".js")):
            continue
        parts = ref.split(".")
        cut = max((i for i in range(1, len(parts) + 1) if "polytile." + ".".join(parts[:i]) in files), default=0)
        if not cut:
            bad.append(ref)
            continue
        body = ast.parse(files["polytile." + ".".join(parts[:cut])].read_text(encoding="utf-8")).body
        for name in parts[cut:]:
            if name not in _defined(body):
                bad.append(ref)
                break
            classes = [n for n in body if isinstance(n, ast.ClassDef) and n.name == name]
            body = classes[0].body if classes else []
    return bad


def test_every_name_the_document_cites_exists():
    assert unresolved(DOC.read_text(encoding="utf-8")) == []


def test_the_name_check_sees_a_renamed_name():
    assert unresolved("`core.results.Report` `core.results.Report.to_json` `core.cover.Cover.n_items`") == []
    assert unresolved("`core.results.Rapport` `engine.nowhere` `core.results.Report.nothing`") == [
        "core.results.Rapport",
        "core.results.Report.nothing",
        "engine.nowhere",
    ]
