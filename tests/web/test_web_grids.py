"""The grids' facts the page reads (/api/info "grids", web/grid_facts.py): each registered grid,
its drawing as the page computes it from four polygons and two shifts, the board editor's
conventions (by hand: the hex drawing's cells two columns apart, odd rows one further), and a
grid only the tests know, offered as soon as it is registered."""

from __future__ import annotations

import math

import numpy as np
import pytest
from grids_extra import Rectangles

from polytile.core import grids
from polytile.web import grid_facts


def page_polygon(drawing: dict, r: int, c: int) -> list[tuple[float, float]]:
    """static/grids.js's gridPolygon, in Python."""
    i, j = r % 2, c % 2
    a, b = (r - i) // 2, (c - j) // 2
    dx = a * drawing["rows2"][0] + b * drawing["columns2"][0]
    dy = a * drawing["rows2"][1] + b * drawing["columns2"][1]
    return [(x + dx, y + dy) for x, y in drawing["tiles"][i][j]]


def area(poly) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2


@pytest.fixture
def rectangles():
    g = grids.register(Rectangles())
    yield g
    grids.unregister(g)


def test_info_sends_every_registered_grid(client):
    sent = client.get("/api/info").json()["grids"]
    assert [(g["name"], g["dim"]) for g in sent] == [(g.name, g.dim) for g in grids.registered()]
    by = {(g["name"], g["dim"]): g for g in sent}
    assert {("square", 2), ("square", 3), ("triangle", 3), ("hex", 2)} <= set(by)
    assert [n for n, g in by.items() if g["flat"]] == [("square", 2), ("triangle", 3), ("hex", 2)]
    assert [n for n, g in by.items() if g["boxes"]] == [("square", 2), ("square", 3)]  # hints, statistics
    assert by[("square", 2)]["squares"] and not by[("square", 3)]["squares"] and by[("square", 3)]["layers"]
    assert "drawing" not in by[("square", 3)]
    assert by[("triangle", 3)]["turn_degrees"] == by[("hex", 2)]["turn_degrees"] == 60
    assert by[("triangle", 3)]["size_words"][5] == "hexiamonds" and by[("hex", 2)]["size_words"][3] == "tetrahexes"
    assert [p["key"] for p in by[("triangle", 3)]["presets"]] == ["hexiamonds-6x6", "hexiamonds-4x9"]


@pytest.mark.parametrize("grid", [g for g in grids.registered() if g.flat], ids=str)
def test_the_page_draws_every_drawing_point_as_the_grid_does(grid):
    """The four polygons and two shifts give every point's polygon: corners(from_drawing(p))."""
    drawing = grid_facts.drawing(grid)
    for r in range(-3, 6):
        for c in range(-4, 9):
            cell = grid.from_drawing(np.array([[r, c]]))[0]
            want = grid.corners(tuple(int(x) for x in cell))
            assert np.allclose(page_polygon(drawing, r, c), want), (r, c)


def test_the_drawings_by_hand():
    """Edge 1: a unit square, a triangle of area sqrt 3 / 4 pointing up at (0, 0) and down at
    (0, 1), a hexagon of area 3 sqrt 3 / 2; the hex drawing's hexes two columns apart, odd rows
    one column further; a triangle's neighbour one column over points the other way."""
    square, triangle, hexes = (grid_facts.drawing(grids.grid(n)) for n in ("square", "triangle", "hex"))
    assert area(page_polygon(square, 3, 4)) == 1
    up, down = page_polygon(triangle, 0, 0), page_polygon(triangle, 0, 1)
    assert math.isclose(area(up), 3**0.5 / 4) and math.isclose(area(down), 3**0.5 / 4)
    top = min(y for _, y in up + down)
    assert [sum(math.isclose(y, top) for _, y in t) for t in (up, down)] == [1, 2]  # one apex, or a side, on top
    assert math.isclose(area(page_polygon(hexes, 1, 1)), 3 * 3**0.5 / 2)
    assert [(d["step"], d["stagger"], d["even_moves"]) for d in (square, triangle, hexes)] == [
        (1, 0, False),
        (1, 0, True),
        (2, 1, True),
    ]
    assert triangle["parity_words"] == ["pointing up", "pointing down"] and hexes["parity_words"] == []


def test_a_grid_registered_is_sent_with_its_drawing(rectangles):
    """The tests' 2 x 1 rectangles: in the facts as soon as registered, drawn as 2 x 1 boxes."""
    sent = {(g["name"], g["dim"]): g for g in grid_facts.all_facts()}
    rect = sent[("rectangle", 2)]
    assert rect["flat"] and not rect["squares"] and not rect["boxes"] and not rect["burrtools"]
    assert page_polygon(rect["drawing"], 1, 2) == [(4, 1), (6, 1), (6, 2), (4, 2)]
    assert rect["drawing"]["step"] == 1 and not rect["drawing"]["even_moves"]
    grids.unregister(rectangles)
    assert ("rectangle", 2) not in {(g["name"], g["dim"]) for g in grid_facts.all_facts()}
    grids.register(rectangles)
