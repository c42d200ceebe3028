"""The docs lead somewhere: every relative link of README.md, docs/ (work logs included), the
examples' and benches' READMEs names a file of the repository (and, with `#anchor`, a heading
of it), every picture in docs/ is shown by some page, and nothing points outside the
repository (`../shared/`, absolute paths of the machine the docs were written on; the work
logs of docs/history/ excepted, which record where their authors ran things)."""

from __future__ import annotations

import re
from pathlib import Path

from paths import DOCS, ROOT

PAGES = [
    ROOT / "README.md",
    *sorted(DOCS.rglob("*.md")),
    ROOT / "examples" / "README.md",
    ROOT / "examples" / "counting" / "README.md",
    ROOT / "bench" / "README.md",
    ROOT / "tests" / "xmpuzzle" / "README.md",
]
# the work logs (docs/history/) say where their authors ran things, as written; not a pointer to follow
OUTSIDE_FILES = [
    *(p for p in PAGES if "history" not in p.relative_to(ROOT).parts),
    *sorted((ROOT / "bench").glob("*.py")),
    *sorted((ROOT / "bench").glob("*.sh")),
]
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"\.\./shared\b|/work/[a-z]")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    out, inside = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            inside = not inside
        elif not inside and (m := re.match(r"#{1,6} (.+)", line)):
            out.add(slug(m.group(1)))
    return out


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of a page that lead nowhere, or out of `root`."""
    out = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue
        name, _, anchor = target.partition("#")
        dest = (page.parent / name).resolve() if name else page
        if not dest.exists():
            out.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append(target)
        elif root not in dest.parents and dest != root:
            out.append(target)
    return out


def test_every_link_leads_to_a_file_and_heading_of_the_repository():
    bad = {str(p.relative_to(ROOT)): broken(p) for p in PAGES}
    assert {page: links for page, links in bad.items() if links} == {}


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# A heading, with `code`\n")
    page.write_text(
        "[a](other.md) [b](other.md#a-heading-with-code) [c](gone.md) [d](other.md#nope) [e](https://x.org)\n"
    )
    assert broken(page, root=tmp_path) == ["gone.md", "other.md#nope"]
    assert broken(page, root=tmp_path / "elsewhere") == [
        "other.md",
        "other.md#a-heading-with-code",
        "gone.md",
        "other.md#nope",
    ]


def test_nothing_points_outside_the_repository():
    found = []
    for path in OUTSIDE_FILES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_every_picture_in_docs_is_shown_by_a_page():
    shown = " ".join(p.read_text(encoding="utf-8") for p in PAGES)
    pictures = sorted(p.name for p in DOCS.glob("*") if p.suffix in (".png", ".svg"))
    assert [name for name in pictures if name not in shown] == []
