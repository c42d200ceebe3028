"""The red team's reproducers for the formats added last (inputs built by tests/hostile.py):
BurrTools .xmpuzzle files, DLX matrices for `cover`, calendar boards and `--date`, and
`mesh`'s options. Each gives one line naming the file (line and column where they apply),
exit 2 and no traceback, or an honest answer, within --max-memory and --time-limit."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import hostile
from cli_helpers import child_cpu
from test_bad_input import assert_one_error, run, write
from paths import TESTS
from test_repro_resources import run_measured

MARGIN = 1 + 2.5  # past a time limit, in CPU seconds: its second, and the start-up (imports, kernels)


# ---- .xmpuzzle: one line for what cannot be read -----------------------------------------------


@pytest.mark.parametrize("digit", hostile.UNICODE_DIGITS)
def test_a_unicode_digit_in_a_voxel_string_is_one_line(tmp_path, digit):
    """`#²###` was a ValueError: str.isdigit() says yes to '²', int() says no."""
    text = hostile.square_of(f"#{digit}###")
    name = write(tmp_path, "p.xmpuzzle", hostile.gz(text))
    column = text.split("\n")[1].index(digit) + 1
    assert_one_error(run(tmp_path, "count", name), f"p.xmpuzzle:2:{column}: shape 1: unexpected character")


def test_voxel_string_errors_name_their_line_and_column(tmp_path):
    text = '<puzzle><shapes>\n<voxel x="2" y="2" z="1">\n##\n#+ x\n</voxel></shapes></puzzle>'
    name = write(tmp_path, "p.xmpuzzle", text)
    assert_one_error(run(tmp_path, "count", name), "p.xmpuzzle:4:4:", "unexpected character 'x'")


@pytest.mark.parametrize("encoding", hostile.ENCODINGS)
def test_an_encoding_python_cannot_read_is_one_line(tmp_path, encoding):
    text = hostile.square_of(declaration=f'<?xml version="1.0" encoding="{encoding}"?>\n')
    line = assert_one_error(run(tmp_path, "count", write(tmp_path, "p.xmpuzzle", hostile.gz(text))), "p.xmpuzzle:")
    assert len(line) < 200


@pytest.mark.parametrize(
    "x, y, words",
    [
        ("10^30", "0", "x='10^30' is not an integer"),
        ("1" + "0" * 30, "0", "is over the limit of 1048576"),
        ("1" * 5000, "1", "is over the limit"),
        ("\u0661\u0662", "1", "is not an integer"),
        ("1_0", "1", "is not an integer"),
        ("+2", "2", "is not an integer"),
        ("-2", "2", "is negative"),
        ("2048", "2048", "2048x2048x1 voxels (limit 1048576)"),
    ],
)
def test_shape_sizes_are_plain_bounded_numbers(tmp_path, x, y, words):
    text = hostile.burr_xml([(x, y, 1, ""), hostile.CUBE], [(1, 4)], 0)
    assert_one_error(run(tmp_path, "count", write(tmp_path, "p.xmpuzzle", hostile.gz(text))), "p.xmpuzzle: ", words)


@pytest.mark.parametrize("problem", ["\u00b2", "\u0661", "1\u00b2", "0", "9" * 5000, "x" * 5000])
def test_problem_option_is_ascii_and_short_in_messages(tmp_path, problem):
    name = write(tmp_path, "p.xmpuzzle", hostile.gz(hostile.square_of()))
    line = assert_one_error(run(tmp_path, "count", name, "--problem", problem), "no problem")
    assert len(line) < 200


def test_problem_numbers_keep_their_leading_zeros_meaning(tmp_path):
    name = write(tmp_path, "p.xmpuzzle", hostile.gz(hostile.square_of()))
    res = run(tmp_path, "count", name, "--problem", "0001", "--json")
    assert res.returncode == 0 and '"solutions": 1' in res.stdout, res.stderr


# ---- .xmpuzzle: memory and time ----------------------------------------------------------------


def test_twenty_thousand_colours_stay_small(tmp_path):
    """2.3 KB of gzip took 2 GB under --max-memory 512M: colours beyond BurrTools' 63 are
    never used, so the colour table has at most 129 codes a side. The count is the one of
    the same file without colours (four monocubes on a square: one assembly)."""
    data = hostile.many_colours()
    assert len(data) < 3000
    name = write(tmp_path, "colours.xmpuzzle", data)
    res, took, peak = run_measured(tmp_path, "count", name, "--max-memory", "512M", "--json")
    assert res.returncode == 0 and '"solutions": 1' in res.stdout, res.stderr
    assert peak < 512 << 20, peak


@pytest.mark.parametrize(
    "data, words",
    [
        (hostile.big_shapes(), "shape 1: 2048x2048x1 voxels (limit 1048576)"),
        (hostile.big_shapes(5, 1024), "the shapes hold more than 4194304 voxels in all"),
        (hostile.element_bomb(), "more than 262144 elements"),
    ],
    ids=["seven-2048x2048", "five-1024x1024", "four-million-elements"],
)
def test_big_files_are_refused_before_they_are_built(tmp_path, data, words):
    """29 KB of gzip with seven 2048x2048 shapes took 1.2 GB."""
    assert len(data) < 50_000
    name = write(tmp_path, "big.xmpuzzle", data)
    res, took, peak = run_measured(tmp_path, "count", name, "--max-memory", "512M")
    assert_one_error(res, "big.xmpuzzle: ", words)
    assert peak < 512 << 20, peak


@pytest.mark.parametrize("command", [["mesh", "-o", "out.stl"], ["convert", "out.dlx"], ["count"]])
@pytest.mark.parametrize("count, words", [(10**9, "over the limit of 10000"), (10_001, "over the limit of 10000")])
def test_piece_copies_are_capped_as_in_json(tmp_path, command, count, words):
    """A count of 10^9 took mesh and convert past 3 GB."""
    name = write(tmp_path, "many.xmpuzzle", hostile.gz(hostile.square_of(count=count)))
    args = [command[0], name, *command[1:]]
    assert_one_error(run(tmp_path, *args), "many.xmpuzzle: problem 1: attribute count=", words)
    assert not (tmp_path / "out.stl").exists() and not (tmp_path / "out.dlx").exists()


@pytest.mark.parametrize(
    "args",
    [["count"], ["count", "--method", "enumerate"], ["count", "--unique"], ["solve"]],
    ids=["count", "enumerate", "unique", "solve"],
)
def test_a_million_variable_voxels_keep_the_time_limit_and_the_budget(tmp_path, args):
    """4 million variable voxels (now at most a million a shape) ran on for a minute after
    --time-limit: the subset sums of a million one-cell fillers shifted a million-bit number
    a million times, and `solve` built the model again to print no solution."""
    name = write(tmp_path, "var.xmpuzzle", hostile.variable_result())
    res, took, peak = run_measured(tmp_path, args[0], name, *args[1:], "--time-limit", "1", "--max-memory", "512M")
    assert "Traceback" not in res.stderr
    assert res.returncode in (2, 124), res.stderr  # 2: --unique's symmetries over the budget
    assert took < 1 + MARGIN, took
    # the budget bounds the work; the 4-million-voxel file read, the interpreter and the kernels
    # come on top (measured 480-570 MB peak for `solve`: the point here is the clock)
    assert peak < 640 << 20, peak


def test_many_problems_are_listed_briefly(tmp_path):
    name = write(tmp_path, "p.xmpuzzle", hostile.gz(hostile.square_of(problems=10_000)))
    line = assert_one_error(run(tmp_path, "count", name, "--problem", "nope"), "no problem named 'nope'")
    assert len(line) < 200


def test_nul_bytes_and_binary_are_one_line(tmp_path: Path):
    for i, data in enumerate([b"\x00" * 100, hostile.gz(hostile.square_of()).replace(b"\x1f\x8b", b"\x1f\x8b\x00", 1)]):
        assert_one_error(run(tmp_path, "count", write(tmp_path, f"b{i}.xmpuzzle", data)), f"b{i}.xmpuzzle")


def test_the_reader_is_quick_on_a_large_plain_file(tmp_path):
    """A million voxels with colours read at numpy's speed (the character loop took seconds)."""
    text = hostile.burr_xml([(1024, 1024, 1, "#1" * (1 << 20)), hostile.CUBE], [(1, 4)], 0, colours=1)
    name = write(tmp_path, "p.xmpuzzle", hostile.gz(text))
    from polytile.formats.xmpuzzle import read_file

    t = time.process_time()  # this process's CPU seconds: the load stretches only the wall clock
    burr = read_file(tmp_path / name)
    assert time.process_time() - t < 2.0
    assert len(burr.shapes[0].filled) == 1 << 20 and (burr.shapes[0].filled_colour == 1).all()


# ---- DLX: `cover` ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [[], ["--all"], ["--method", "enumerate"], ["--engine", "links"]],
    ids=["count", "all", "enumerate", "links"],
)
def test_seven_hundred_thousand_items_stay_within_the_budget(tmp_path, args):
    """The bit-set kernel's stacks (a row of 700,000 bits for each of 700,000 levels) were
    allocated without a look at their size: a traceback asking for 57 GiB. Auto now takes
    dancing links when they would pass --max-memory; and both kernels' stacks (and their
    buffers of listed solutions: 2.7 GB with --limit) have a level per option chosen, at
    most one per option. The one option covers items 0 and 1, none covers the others: no
    solution."""
    name = write(tmp_path, "items.dlx", hostile.many_items())
    res, took, peak = run_measured(tmp_path, "cover", name, *args, "--max-memory", "512M", "--json")
    assert res.returncode == 0, res.stderr
    assert '"solutions": 0' in res.stdout
    assert peak < 512 << 20, peak


@pytest.mark.parametrize("args", [["--method", "enumerate"], ["--limit", "3"]], ids=["count", "limit"])
def test_bit_sets_beyond_the_budget_give_way_to_dancing_links(tmp_path, args):
    """16,384 one-item options among 200,000 items: the bit-set kernel's stacks would hold
    a count per item for each of 16,384 levels (13 GB); auto takes dancing links (no
    solution: most items are in no option), and the bit-set kernel named is one line."""
    name = write(tmp_path, "wide.dlx", hostile.items_and_options())
    res, took, peak = run_measured(tmp_path, "cover", name, *args, "--max-memory", "512M", "--json")
    assert res.returncode == 0 and '"solutions": 0' in res.stdout and '"engine": "links"' in res.stdout, res.stderr
    assert peak < 512 << 20, peak
    res = run(tmp_path, "cover", name, "--engine", "bitset", "--max-memory", "512M", *args)
    assert_one_error(res, "wide.dlx: the bit-set kernel's tables needs about", "over the memory budget of 512.0 MB")


def test_a_tiling_of_full_length_options_keeps_the_time_limit(tmp_path):
    """Each of 440 options holds all 256 cells: recovering the cells' neighbours paired 14
    million cells (1.4 GB, minutes past --time-limit 1); now the pairs are counted first
    (beyond a bound no neighbours: no dead-end tests, still exact) and the deadline is
    checked. Each option alone is a solution: 440."""
    name = write(tmp_path, "full.dlx", hostile.full_length_tiling())
    assert 400_000 < (tmp_path / name).stat().st_size < 600_000
    res, took, peak = run_measured(tmp_path, "cover", name, "--time-limit", "1", "--max-memory", "512M", "--json")
    assert res.returncode in (0, 124), res.stderr
    assert res.returncode == 124 or '"solutions": 440' in res.stdout
    assert took < 1 + MARGIN and peak < 512 << 20, (took, peak)


def test_a_name_of_megabytes_is_cut_in_the_error_line(tmp_path):
    line = assert_one_error(run(tmp_path, "cover", write(tmp_path, "long.dlx", hostile.long_name())), "long.dlx:2:1:")
    assert "x" * 40 + "\u2026" in line and len(line) < 200


@pytest.mark.parametrize("colour", [False, True], ids=["plain", "coloured"])
def test_millions_of_options_are_read_quickly(tmp_path, colour):
    """1.9 million one-item options (600,000 with a colour): read line by line they took
    5-10 s; at C speed a second or two. Each option alone covers the one primary item."""
    n = 600_000 if colour else 1_900_000
    name = write(tmp_path, "many.dlx", hostile.many_options(n, colour))
    res, took, peak = run_measured(tmp_path, "cover", name, "--json", "--time-limit", "5")
    assert res.returncode == 0 and f'"solutions": {n}' in res.stdout, res.stderr
    assert took < 8, took


def test_the_bitboard_kernel_named_on_a_wide_matrix_counts(tmp_path):
    """`--engine bitboard` on a tiling of 100 cells (more than its word holds) was an
    AssertionError; it takes the wide kernel as it did for more than 64 pieces. Two
    pieces of 50 cells, each with one placement: one solution."""
    cells = [f"c{i}" for i in range(100)]
    text = " ".join(cells) + " A B\nA " + " ".join(cells[:50]) + "\nB " + " ".join(cells[50:]) + "\n"
    res = run(tmp_path, "cover", write(tmp_path, "t.dlx", text), "--engine", "bitboard", "--json")
    assert res.returncode == 0 and '"solutions": 1' in res.stdout, res.stderr


# ---- calendars: board files and --date --------------------------------------------------------


@pytest.mark.parametrize(
    "date", ["Nov \u00b25", "Nov 2\u00b2", "\u0662\u0660\u0662\u0666-\u0661\u0661-\u0662\u0665", "Nov " + "9" * 5000]
)
def test_unicode_digits_in_a_date_are_one_line(tmp_path, date):
    """`--date 'Nov ²5'` was a ValueError (classify's isdigit() took '²5' for a day)."""
    line = assert_one_error(run(tmp_path, "calendar", "--date", date, "--count"), "polytile: --date: ")
    assert len(line) < 200


@pytest.mark.parametrize("label", ["\u00b9", "1\u00b2", "\u0661", "9" * 5000])
def test_a_board_label_of_unicode_digits_is_an_always_covered_cell(tmp_path, label):
    """A label of Unicode digits (or 5,000 digits) was a ValueError. Such a label is no day:
    a cell always covered (the format's "anything else"). The classic board with day 1
    relabelled so counts Nov 25 as the classic board does (day 1 is covered either way),
    and says in one line that it has no day 1."""
    from polytile.formats.calendar_board import CLASSIC

    board = CLASSIC.replace("\n1  2", f"\n{label}  2")
    name = write(tmp_path, "board.txt", board)
    classic = run(tmp_path, "calendar", "--date", "Nov 25", "--count")
    res = run(tmp_path, "calendar", "--board", name, "--date", "Nov 25", "--count")
    assert res.returncode == 0 and res.stdout == classic.stdout, res.stderr
    assert_one_error(run(tmp_path, "calendar", "--board", name, "--date", "Nov 1"), "no cell '1' for Nov 1")


def test_a_long_piece_name_is_cut_in_the_error_line(tmp_path):
    from polytile.formats.calendar_board import CLASSIC

    name = write(tmp_path, "board.txt", CLASSIC.replace("pieces: 2x3", "pieces: " + "Q" * 100_000 + " 2x3"))
    line = assert_one_error(run(tmp_path, "calendar", "--board", name), "board.txt:9:9: unknown piece")
    assert len(line) < 200


# ---- mesh's options ----------------------------------------------------------------------------

SOMA = str(TESTS.parent / "examples" / "soma-3x3x3.json")


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("--unit", "nan", "not a finite number"),
        ("--unit", "inf", "not a finite number"),
        ("--unit", "1e308", "not in the range"),
        ("--unit", "\u0661\u0660", "ASCII"),
        ("--gap", "nan", "not a finite number"),
        ("--gap", "1e308", "not in the range"),
        ("--bevel", "nan", "not a finite number"),
        ("--bevel", "-1", "not in the range"),
        ("--solution", "10001", "not in the range"),
    ],
)
def test_mesh_refuses_non_finite_and_absurd_sizes(tmp_path, option, value, words):
    """`--unit nan`, `--gap nan`, `--bevel nan` wrote STL files of nan vertices with exit 0."""
    res = run(tmp_path, "mesh", SOMA, "-o", "out.stl", f"{option}={value}")
    assert_one_error(res, f"argument {option}", words)
    assert not (tmp_path / "out.stl").exists()


def test_mesh_copies_are_counted_before_they_are_listed(tmp_path):
    """10,000 copies of a 20,000-cell piece (polytile JSON's limits) would be 200 million
    cells to mesh; the pieces are counted first."""
    import json

    piece = {"cells": [[0, i] for i in range(20_000)], "count": 10_000}
    name = write(tmp_path, "p.json", json.dumps({"board": ["XX"], "pieces": [piece]}))
    with child_cpu() as cpu:
        res = run(tmp_path, "mesh", name, "-o", "out.stl")
    assert_one_error(res, "200000000 cells: mesh prints at most 10000")
    assert cpu[0] < 5, cpu


def test_copies_share_one_mesh(tmp_path):
    """1,000 copies of a 10-cell bar took 9 s (each meshed again); made once, under a second
    or two. 84 triangles a bar (its 10 cells' outer faces, merged: 4 long sides of 2 x 10
    triangles, 2 ends of 2)."""
    import json

    piece = {"cells": [[0, i] for i in range(10)], "count": 1000}
    name = write(tmp_path, "bars.json", json.dumps({"board": ["X" * 100] * 100, "pieces": [piece]}))
    with child_cpu() as cpu:
        res = run(tmp_path, "mesh", name, "-o", "out.stl")
    assert res.returncode == 0 and "1000 pieces, 84000 triangles" in res.stdout, res.stderr
    assert cpu[0] < 4, cpu


def test_variable_voxels_left_empty_are_not_printed(tmp_path):
    """DemoPieceGenerator: one piece and up to ten cubes (`min="0" max="10"`), a result with
    ten variable voxels: 11 pieces to print, not the ten stand-ins of empty voxels too."""
    path = TESTS / "xmpuzzle" / "DemoPieceGenerator.xmpuzzle"
    res = run(tmp_path, "mesh", str(path), "-o", "out.stl")
    assert res.returncode == 0 and "11 pieces" in res.stdout, res.stderr


def test_mesh_of_a_solution_keeps_a_time_limit(tmp_path):
    """The 6x10 pentomino board has 9,356 solutions: the 10,000th needs the whole tree
    (a second or so); --time-limit 0.05 stops the search with one line, exit status 124."""
    path = TESTS / "corpus" / "tiling" / "pentomino-6x10.txt"
    with child_cpu() as cpu:
        res = run(tmp_path, "mesh", str(path), "-o", "out.stl", "--solution", "10000", "--time-limit", "0.05")
    assert res.returncode == 124 and "time limit reached after" in res.stderr, res.stderr
    assert len(res.stderr.splitlines()) == 1 and cpu[0] < 0.05 + MARGIN, cpu
    assert not (tmp_path / "out.stl").exists()


# ---- the second round --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, words",
    [
        (["cover", "{dlx}", "--limit", "9" * 20], "argument --limit"),  # numba's int64: a traceback
        (["cover", "{dlx}", "--jobs", "1000"], "argument --jobs"),  # a thread each
        (["calendar", "--date", "Nov 25", "--solve", "9" * 20], "argument --solve"),  # a ValueError
        (["calendar", "--date", "Nov 25", "--solve", "1000000000"], "argument --solve"),  # 80 GB of rows
        (["convert", "{burr}", "out.xmpuzzle", "--solutions", "9" * 11], "argument --solutions"),
    ],
)
def test_counts_of_things_kept_are_bounded(tmp_path, args, words):
    write(tmp_path, "k.dlx", "a b\na\nb\n")
    write(tmp_path, "p.xmpuzzle", hostile.gz(hostile.square_of()))
    args = [{"{dlx}": "k.dlx", "{burr}": "p.xmpuzzle"}.get(a, a) for a in args]
    assert_one_error(run(tmp_path, *args), words, "is not in the range")


def test_a_dlx_file_of_many_copies_is_refused_with_its_size(tmp_path):
    """10,000 copies of a monocube on a 1000 x 1000 square: a DLX matrix names each copy, so
    10^10 options; its header's 10000! (35,660 digits) was past Python's int-to-text limit
    (a ValueError). Refused in one line before anything is written."""
    name = write(
        tmp_path,
        "c.xmpuzzle",
        hostile.gz(hostile.burr_xml([(1000, 1000, 1, "#" * 10**6), hostile.CUBE], [(1, 10_000)], 0)),
    )
    assert_one_error(run(tmp_path, "convert", name, "out.dlx"), "the matrix would have 10000000000 options")
    assert not (tmp_path / "out.dlx").exists()


def test_the_dlx_header_writes_large_factorials_as_factorials(tmp_path):
    """40 monocubes on a 40-cell bar: each solution appears 40! times in the matrix (48 digits)."""
    name = write(
        tmp_path, "b.xmpuzzle", hostile.gz(hostile.burr_xml([(40, 1, 1, "#" * 40), hostile.CUBE], [(1, 40)], 0))
    )
    res = run(tmp_path, "convert", name, "out.dlx")
    assert res.returncode == 0, res.stderr
    assert "appears 40! times here" in (tmp_path / "out.dlx").read_text()


def test_thousands_of_shapes_are_refused_before_they_are_read(tmp_path):
    """100,000 one-voxel shapes took 11 s to read and merge under --time-limit 1; a file holds
    at most 5,000 shapes (BurrTools' own: a few dozen), and 5,000 are read in about a second."""
    shapes = [hostile.CUBE] * 100_000 + [(1000, 100, 1, "#" * 100_000)]
    name = write(
        tmp_path, "many.xmpuzzle", hostile.gz(hostile.burr_xml(shapes, [(i, 1) for i in range(100_000)], 100_000))
    )
    res, took, _ = run_measured(tmp_path, "count", name)
    assert_one_error(res, "many.xmpuzzle: 100001 shapes (limit 5000)")
    assert took < 3, took  # CPU seconds
    shapes = [hostile.CUBE] * 4999 + [(100, 50, 1, "#" * 5000)]
    name = write(tmp_path, "five.xmpuzzle", hostile.gz(hostile.burr_xml(shapes, [(i, 1) for i in range(4999)], 4999)))
    res, took, peak = run_measured(tmp_path, "count", name, "--time-limit", "1", "--json")
    assert res.returncode == 0 and '"solutions": 0' in res.stdout, res.stderr  # 4,999 cubes, 5,000 cells
    assert took < 1 + MARGIN


def test_a_character_reference_is_placed_where_it_stands(tmp_path):
    text = hostile.square_of("#&#178;##")
    name = write(tmp_path, "p.xmpuzzle", text)
    column = text.split("\n")[1].index("&#178;") + 1
    assert_one_error(run(tmp_path, "count", name), f"p.xmpuzzle:2:{column}: shape 1: unexpected character '\u00b2'")


def test_a_bevelled_print_is_bounded_before_it_is_meshed(tmp_path):
    """A 141 x 141 square piece with --bevel 0.5 took 260 s and 9.3 GB (each cell cut in
    sub-cells: 0.5 MB a cell); with a gap or a bevel a print holds at most 500 cells, and
    10,000 without (0.2 ms and 10 KB a cell: a 99 x 99 square in a second or two)."""
    import json

    def square(side: int) -> str:
        cells = [[i, j] for i in range(side) for j in range(side)]
        return write(
            tmp_path, f"square{side}.json", json.dumps({"board": cells, "pieces": [{"cells": cells, "count": 1}]})
        )

    with child_cpu() as cpu:
        res = run(tmp_path, "mesh", square(141), "-o", "out.stl", "--bevel", "0.5")
        assert_one_error(res, "19881 cells: mesh prints at most 500 with a gap or a bevel")
        res = run(tmp_path, "mesh", "square141.json", "-o", "out.stl")
    assert_one_error(res, "19881 cells: mesh prints at most 10000")
    assert cpu[0] < 3 and not (tmp_path / "out.stl").exists(), cpu
    res, took, peak = run_measured(tmp_path, "mesh", square(99), "-o", "out.stl")
    assert res.returncode == 0 and "1 pieces" in res.stdout, res.stderr
    assert peak < 512 << 20, peak
