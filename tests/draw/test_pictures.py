"""Pictures of solutions: SVG structure, Katamino colours, PNG, determinism, 3D, the CLI."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET

import pytest
from cli_helpers import call_cli
from paths import EXAMPLES

import polytile
from polytile.draw import pictures
from polytile.core.library import COLOUR_OF

SVG_NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def pentominoes():
    tiling = polytile.load(EXAMPLES / "pentomino-6x10.txt")
    return tiling.solve(limit=3).found, tiling.model().cells


@pytest.fixture(scope="module")
def soma():
    tiling = polytile.load(EXAMPLES / "soma-3x3x3.json")
    return tiling.solve(limit=1).found, tiling.model().cells


def piece_groups(svg: bytes) -> list[str]:
    root = ET.fromstring(svg)
    return [g.get("id") for g in root.iter(f"{SVG_NS}g") if (g.get("id") or "").startswith("piece-")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_one_solution_has_one_group_per_piece(pentominoes):
    found, board = pentominoes
    ids = piece_groups(pictures.draw(found[0], board))
    assert len(ids) == len(set(ids)) == 12
    assert {i.rsplit("-", 1)[1] for i in ids} == set("FILNPTUVWXYZ")


def test_gallery_has_every_piece_of_every_solution(pentominoes):
    found, board = pentominoes
    ids = piece_groups(pictures.draw(found, board, columns=2, title="three"))
    assert len(ids) == len(set(ids)) == 36


def test_pentominoes_wear_katamino_colours(pentominoes):
    found, board = pentominoes
    svg = pictures.draw(found[0], board).decode()
    root = ET.fromstring(svg)
    fills = {}
    for g in root.iter(f"{SVG_NS}g"):
        gid = g.get("id") or ""
        if gid.startswith("piece-"):
            style = " ".join(p.get("style", "") for p in g.iter(f"{SVG_NS}path"))
            fills[gid.rsplit("-", 1)[1]] = re.search(r"fill:\s*(#[0-9a-f]{6})", style).group(1)
    assert fills == COLOUR_OF
    assert "#e74c3c" in svg  # X is red


def test_png_signature_and_size(pentominoes):
    found, board = pentominoes
    width, height = png_size(pictures.draw(found[0], board, fmt="png"))
    assert 300 < width < 1200 and 150 < height < 800 and width > height  # 10 wide, 6 high


def test_same_input_same_bytes(pentominoes):
    found, board = pentominoes
    assert pictures.draw(found, board) == pictures.draw(found, board)


def test_empty_board_and_bad_format(pentominoes):
    _, board = pentominoes
    assert piece_groups(pictures.draw([], board)) == []
    with pytest.raises(ValueError):
        pictures.draw([], board, fmt="gif")


def test_soma_renders_to_png(soma, tmp_path):
    found, board = soma
    data = pictures.draw(found, board, fmt="png")
    width, height = png_size(data)
    assert width > 200 and height > 200
    pictures.to_file(tmp_path / "soma.png", data)
    assert (tmp_path / "soma.png").read_bytes() == data


run = call_cli


def test_cli_writes_svg(tmp_path):
    out = tmp_path / "out.svg"
    p = run("solve", EXAMPLES / "pentomino-6x10.txt", "--format", "svg", "-o", out)
    assert p.returncode == 0, p.stderr
    assert len(piece_groups(out.read_bytes())) == 12


def test_cli_png_needs_output_file():
    p = run("solve", EXAMPLES / "pentomino-6x10.txt", "--format", "png")
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "-o" in p.stderr
    assert p.stdout == ""
