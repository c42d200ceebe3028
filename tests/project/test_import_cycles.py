"""No import cycles among polytile's modules (a package's __init__ included, imports inside
functions and under TYPE_CHECKING included): a lower layer never needs a higher one, and two
modules that need each other are one idea split in the wrong place. import-linter's
`acyclic_siblings` contract (pyproject.toml) says the same for `make lint`."""

from module_graph import cycles, import_graph

# Cycles tolerated for a while, with the reason (none now); an entry must go once its cycle
# is gone (the test fails on a stale entry as on a new cycle).
KNOWN: dict[tuple[str, ...], str] = {}


def test_no_import_cycles():
    found = {tuple(c): c for c in cycles(import_graph())}
    new = [c for key, c in found.items() if key not in KNOWN]
    stale = [key for key in KNOWN if key not in found]
    assert not new, f"import cycles: {new}"
    assert not stale, f"cycles gone, remove them from KNOWN: {stale}"


def test_the_graph_sees_imports_and_cycles():
    graph = import_graph()
    assert "polytile.core.grids.moves" in graph["polytile.core.shape"]  # a top-level relative import
    assert "polytile.draw.pictures" in graph["polytile"]  # one inside a function
    assert "polytile.errors" in graph["polytile.formats.common"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
