"""The grid as a type: everything polytile asks of a grid, in one class.

A grid is a set of cells with integer coordinates (`dim` per cell), the motions that map it
onto itself (integer affine maps x -> M x + t, rotations first), the neighbour steps, how
shapes are normalised, how cells are drawn (in the plane, as text, as solids) and the words
messages use for it. One object per grid: `core.grids.grid(name, dim)` finds it. Callers ask
the object (`grid.flat`, `grid.rect_plane`, `grid.centre(cell)` ...) and never compare names.

A new grid subclasses `Grid`, sets the class attributes below, answers the abstract `build`
(its motions and steps) and the methods its kind needs, and is registered (`core.grids.register`).
Importing the package does not import numpy (a bad file is refused before it loads).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported when a grid's cells are first worked on: bad files are refused without it
    import numpy as np

Motion = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # (matrix rows, offset)
Form = tuple[tuple[int, ...], ...]  # a shape as sorted cell tuples
Point = tuple[float, float]
Solid = tuple["np.ndarray", tuple[tuple[int, ...], ...]]  # vertices (k, 3), faces (vertex indices)
Step3 = tuple[int, int, int]  # a translation in BurrTools' voxel coordinates
GapRules = tuple[tuple[int, int, int, int], tuple[tuple[tuple[Step3, ...], ...], ...]]  # see Grid.disassembly_checks
Preset = tuple[str, str, int, tuple[str, ...]]  # key, label, size of the pieces, drawing rows (X: a cell)


def matrix_motions(mats: Sequence[np.ndarray]) -> tuple[Motion, ...]:
    """Linear motions (offset 0) from integer matrices."""
    return tuple((tuple(tuple(int(x) for x in row) for row in m), (0,) * len(m)) for m in mats)


def axis_steps(dim: int) -> tuple[tuple[int, ...], ...]:
    """One step along each axis, both ways: (+1, 0, ..), (-1, 0, ..), (0, +1, ..) ..."""
    return tuple(tuple(s * int(a == b) for b in range(dim)) for a in range(dim) for s in (1, -1))


class Grid(ABC):
    """A grid polytile tiles. Class attributes describe it; methods answer for its cells.

    Defaults describe a plain lattice: every integer point is a cell, every integer shift a
    translation, normalisation subtracts each coordinate's minimum. Grids that differ override
    `valid`, `holds`, `is_translation`, `origin_shift` and `shift_to_origin` together."""

    # -- identity ---------------------------------------------------------------------------
    name: str = ""  # the JSON spelling ("square", "triangle", "hex" ...); unique with dim
    dim: int = 2  # coordinates per cell (the triangle grid's cells have 3)
    burr_number: int | None = None  # BurrTools' grid number (gridtype.cpp), None: not one of its grids
    title: str = ""  # the grid in a message: "the {title}" reads "the square grid"
    # -- words for its pieces (messages, `pieces`) ----------------------------------------
    polyform: str = ""  # one piece: "polyomino", "polyiamond", "polyhex"
    n_forms: str = ""  # pieces of n cells: "n-ominoes", "n-iamonds", "n-hexes"
    max_form_cells: int = 0  # `pieces` enumerates forms up to this many cells (0: none)
    library_orders: range = range(0)  # the page's piece library: the forms of these sizes
    library_examples: str = ""  # names the page's refusal of an unknown piece suggests
    named_forms: dict[int, dict[str, Form]] = {}  # the field's names of forms, by size, in grid coordinates
    # -- what the fast paths may assume ---------------------------------------------------
    boxes: bool = False  # cells are the unit squares/cubes of Z^dim, motions the signed permutations
    every_shift: bool = True  # every integer shift maps the grid onto itself (the compiled placer)
    # -- drawing -------------------------------------------------------------------------
    flat: bool = False  # drawn as polygons in the plane (`centre`, `corners`, `drawing_points`)
    cells_at_vertex: int = 0  # flat grids: cells meeting at a vertex (the mesh's rounding check)
    turn_degrees: int = 0  # flat grids: the page's turning key turns by this angle
    frame_cells: tuple[tuple[int, ...], ...] = ()  # flat grids: a cell and two neighbours spanning the plane
    origin_cell: tuple[int, ...] = ()  # a cell at the origin (the one-cell form)
    not_a_cell: str = ""  # why a coordinate tuple is no cell (a JSON reader's message), if some are not
    cell_volume: float = 1.0  # volume of a cell's solid (flat grids: area times unit height); see cell_volume_of
    # -- the page (web/grid_facts.py sends these; its board editor and hand play read them) ----
    size_words: tuple[str, ...] = ()  # the library's buttons: pieces of 1, 2 ... cells ("monomino", "dominoes" ...)
    library_first: int = 0  # the size of piece the page's library opens on
    editor_board: tuple[int, int] = (6, 6)  # the board editor's first board: rows, cells per row
    presets: tuple[Preset, ...] = ()  # published boards: (key, label, size of their pieces, drawing rows)
    parity_words: tuple[str, ...] = ()  # words for cells at even and odd row + column, when they differ

    def __init__(self) -> None:
        self._hash = hash((self.name, self.dim))

    @abstractmethod
    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """(motions, rotations first; how many are rotations; neighbour steps): computed once,
        when first asked for."""

    @cached_property
    def _built(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        return self.build()

    @cached_property
    def motions(self) -> tuple[Motion, ...]:
        """The integer affine maps of the grid onto itself: rotations first, then reflections."""
        return self._built[0]

    @cached_property
    def n_rotations(self) -> int:
        """How many of `motions` are proper (keep the orientation)."""
        return self._built[1]

    @cached_property
    def steps(self) -> tuple[tuple[int, ...], ...]:
        """Neighbour offsets (some may lead to no cell; see `holds`)."""
        return self._built[2]

    # -- identity and comparison (by name and dim, so copies from pickles are equal) --------
    def __repr__(self) -> str:
        return f"<grid {self.name} dim={self.dim}>"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and (other.name, other.dim) == (self.name, self.dim)

    def __hash__(self) -> int:
        return self._hash

    @property
    def rect_plane(self) -> bool:
        """The cells are (row, column) unit squares: the bitboard, rectangles, corners and
        edges, hints and the letter matrices take it."""
        return self.boxes and self.dim == 2

    @property
    def file_prefix(self) -> str:
        """What a download's name starts with: "" on the square and cube grids, else "hex-" ..."""
        return "" if self.boxes else f"{self.name}-"

    @property
    def cubic(self) -> bool:
        """The cells are (row, column, layer) unit cubes: meshed as exact boxes, turned to stand."""
        return self.boxes and self.dim == 3

    # -- motions -----------------------------------------------------------------------------
    def chosen_motions(self, reflect: bool) -> tuple[Motion, ...]:
        """The motions a piece may make: all of them, or the rotations only (`--no-reflect`,
        solid pieces)."""
        return self.motions if reflect else self.motions[: self.n_rotations]

    def neighbours(self, cell: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The cells next to a cell (sharing an edge, or a face in 3D)."""
        out = [tuple(x + s for x, s in zip(cell, step)) for step in self.steps]
        return [c for c in out if self.holds(c)]

    # -- cells and normalisation ---------------------------------------------------------
    def valid(self, cells: np.ndarray) -> np.ndarray:
        """Which coordinate rows (..., dim) are cells of the grid."""
        import numpy as np

        return np.ones(cells.shape[:-1], dtype=bool)

    def holds(self, point: tuple[int, ...]) -> bool:
        """Whether one coordinate tuple is a cell of the grid (plain Python)."""
        return True

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """Which steps (..., dim) map the grid onto itself."""
        import numpy as np

        return np.ones(shift.shape[:-1], dtype=bool)

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """The translation a shape's normalisation subtracts (a translation of the grid)."""
        import numpy as np

        return np.asarray(np.asarray(cells, dtype=np.int64).min(axis=0))

    def to_origin(self, cells: np.ndarray) -> np.ndarray:
        """The cells translated as normalisation requires, so equal shapes get equal coordinates."""
        import numpy as np

        cells = np.asarray(cells, dtype=np.int64)
        return np.asarray(cells - self.origin_shift(cells))

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """Plain-tuple normalisation (forms are grown in Python): as `to_origin`, on a list
        (a grid that overrides `origin_shift` overrides this too)."""
        lo = [min(p[i] for p in points) for i in range(len(points[0]))]
        return [tuple(x - m for x, m in zip(p, lo)) for p in points]

    # -- drawing in the plane (x right, y down, edge 1) -------------------------------------
    def centre(self, cell: tuple[int, ...]) -> Point:
        """The centre of a cell in the plane."""
        pts = self.corners(cell)
        return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))

    def corners(self, cell: tuple[int, ...]) -> list[Point]:
        """The polygon of a cell in the plane (flat grids)."""
        raise ValueError(f"the {self.title} is not drawn as polygons in the plane")

    def from_drawing(self, points: np.ndarray) -> np.ndarray:
        """Cells of a text drawing's (row, column) characters (ValueError, one line: where not)."""
        raise ValueError(f"the {self.title} has no text drawing")

    def drawing_points(self, cells: np.ndarray) -> np.ndarray:
        """(row, column) of each cell in a text drawing, least row and column 0 (the inverse
        of `from_drawing`; parity kept where it matters)."""
        raise ValueError(f"the {self.title} has no text drawing")

    def glyph(self, row: int, column: int) -> str:
        """The character a piece's cell shows at (row, column) of a text drawing."""
        return "#"

    def layer(self, cell: tuple[int, ...]) -> int:
        """3D grids drawn as layers: the layer a cell is drawn in."""
        raise ValueError(f"the {self.title} is not drawn in layers")

    def footprint(self, cell: tuple[int, ...]) -> list[Point]:
        """3D grids drawn as layers: the cell's polygon within its layer (x right, y down)."""
        raise ValueError(f"the {self.title} is not drawn in layers")

    def drawing_column(self, column: int) -> int:
        """The column the page's board editor counts for a drawing column (0-based)."""
        return column

    def sweep_points(self, cells: np.ndarray) -> np.ndarray:
        """Points along the grid's own axes whose order (`core.cover.cell_order`: the longest
        axis most significant) is the order the search fills the cells in: the coordinates
        themselves unless a grid's axes are not independent."""
        return cells

    # -- BurrTools' voxel coordinates (formats/xmpuzzle*.py) ----------------------------------
    def from_burr(self, voxels: np.ndarray) -> np.ndarray:
        """Cells of BurrTools' voxels (x, y, z) (n, 3): the same coordinates unless a grid says."""
        import numpy as np

        return np.asarray(voxels, dtype=np.int64)

    def to_burr(self, cells: np.ndarray) -> np.ndarray:
        """BurrTools' voxels (x, y, z) of cells, least corner at 0 or where the grid's alignment
        needs (the inverse of `from_burr` up to a translation of the grid)."""
        return self.to_origin(cells)

    # -- BurrTools' disassembler (tiling/disassembly*.py), in its voxel coordinates -----------
    def disassembly_steps(self) -> tuple[Step3, ...] | None:
        """The unit translations a disassembly moves pieces by, in BurrTools' order
        (its movement cache's `getDirection`); None: no disassembly on this grid."""
        return None

    def disassembly_checks(self) -> GapRules | None:
        """How far a voxel may move along each of `disassembly_steps`: None when the steps
        are the axes (BurrTools scans lines); else (number of voxel types and the type's
        coefficients: type = (x, y, z) . coefficients mod number; per step, per voxel
        type, the voxels that must be empty for one step, relative to the voxel)."""
        return None

    def more_images(self, points: list[tuple[int, ...]], reflect: bool) -> list[list[tuple[int, ...]]]:
        """Images of a shape (its points in order) that turns beyond `motions` make: none on a
        grid whose shapes turn only by its motions (the spheres' flat layers turn further)."""
        return []

    def cell_volume_of(self, cell: tuple[int, ...]) -> float:
        """The volume of this cell's solid: `cell_volume` on grids whose cells are all alike
        (the tetra-octa grid's are not)."""
        return self.cell_volume

    # -- solids (one common 3D frame: x right, y up, z up; see draw/mesh_cells.py) -----------
    def solid(self, cell: tuple[int, ...]) -> Solid:
        """The cell as a convex solid: vertices (k, 3), faces counter-clockwise seen from
        outside. Flat grids: the polygon extruded to unit height."""
        import numpy as np

        if not self.flat:
            raise ValueError(f"the {self.title} has no solid cells yet")
        ring = [(x, -y) for x, y in self.corners(cell)]
        if _area(ring) < 0:
            ring.reverse()
        k = len(ring)
        verts = np.array([(x, y, z) for z in (0.0, 1.0) for x, y in ring], dtype=float)
        faces = [tuple(reversed(range(k))), tuple(range(k, 2 * k))]
        faces += [(i, (i + 1) % k, k + (i + 1) % k, k + i) for i in range(k)]
        return verts, tuple(faces)


def _area(ring: list[Point]) -> float:
    """Signed area of a polygon (counter-clockwise positive, y up)."""
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))
