"""Meshes to files: binary STL (one solid, every shell in it) and Wavefront OBJ (one object
and group per piece, its colour in a .mtl beside it). Written atomically, in millimetres."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np

from ..atomic import write_bytes, write_text
from .mesh_scene import Shell

SUFFIXES = (".stl", ".obj")
# a colour per piece, in turn (tab10-like, light enough to see the shading)
PALETTE = (
    (0.12, 0.47, 0.71),
    (1.0, 0.50, 0.05),
    (0.17, 0.63, 0.17),
    (0.84, 0.15, 0.16),
    (0.58, 0.40, 0.74),
    (0.55, 0.34, 0.29),
    (0.89, 0.47, 0.76),
    (0.50, 0.50, 0.50),
    (0.74, 0.74, 0.13),
    (0.09, 0.75, 0.81),
    (0.68, 0.78, 0.91),
    (1.0, 0.73, 0.47),
)
STL_RECORD = np.dtype([("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


def triangles(parts: list[Shell], unit: float) -> np.ndarray:
    """(m, 3, 3) corners of every triangle, in millimetres."""
    tris = [s.mesh.vertices[s.mesh.faces] for s in parts]
    return np.concatenate(tris).reshape(-1, 3, 3) * unit if tris else np.zeros((0, 3, 3))


def stl_bytes(parts: list[Shell], unit: float, title: str = "polytile") -> bytes:
    """Binary STL: an 80-byte header, the triangle count, then per triangle its unit normal
    and corners (float32, counter-clockwise seen from outside) and a zero attribute."""
    tris = triangles(parts, unit)
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    records = np.zeros(len(tris), dtype=STL_RECORD)
    records["normal"] = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    records["corners"] = tris
    header = title.encode("ascii", "replace")[:80].ljust(80, b" ")
    return header + struct.pack("<I", len(tris)) + records.tobytes()


def _label(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "piece"


def obj_text(parts: list[Shell], unit: float, mtl: str | None = None) -> str:
    """OBJ: `o`, `g` and (with a material library) `usemtl` per piece, its vertices, then its
    triangles (1-based, counter-clockwise seen from outside)."""
    lines = ["# polytile mesh, millimetres"] + ([f"mtllib {mtl}"] if mtl else [])
    base = 1
    for s in parts:
        label = _label(s.name)
        lines += [f"o {label}", f"g {label}"] + ([f"usemtl {label}"] if mtl else [])
        lines += [f"v {x:.6g} {y:.6g} {z:.6g}" for x, y, z in (s.mesh.vertices * unit).tolist()]
        lines += [f"f {a + base} {b + base} {c + base}" for a, b, c in s.mesh.faces.tolist()]
        base += len(s.mesh.vertices)
    return "\n".join(lines) + "\n"


def mtl_text(parts: list[Shell]) -> str:
    """A diffuse colour per piece, named as the OBJ's groups."""
    out = []
    for i, s in enumerate(parts):
        r, g, b = PALETTE[i % len(PALETTE)]
        out += [f"newmtl {_label(s.name)}", f"Kd {r:.3f} {g:.3f} {b:.3f}", ""]
    return "\n".join(out)


def write(path: Path, parts: list[Shell], unit: float, title: str = "polytile") -> list[Path]:
    """Write STL or OBJ (+ .mtl) by the path's suffix; the paths written."""
    path = Path(path)
    if path.suffix.lower() == ".stl":
        write_bytes(path, stl_bytes(parts, unit, title))
        return [path]
    mtl = path.with_suffix(".mtl")
    write_text(mtl, mtl_text(parts))
    write_text(path, obj_text(parts, unit, mtl.name))
    return [path, mtl]
