"""Render an OBJ written by `polytile mesh` to a PNG (matplotlib's mplot3d, flat shading),
each piece in its .mtl colour: the pictures of docs/mesh.md.

    .venv/bin/python tools/render_mesh.py OUT.obj OUT.png [--elev 30 --azim -60 --size 6x4]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

LIGHT = np.array([0.4, -0.6, 0.9]) / np.linalg.norm([0.4, -0.6, 0.9])


def read_obj(path: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(material, vertices, triangles) per object of an OBJ (vertices numbered file-wide)."""
    verts, objects = [], []
    for line in path.read_text().splitlines():
        word, *rest = line.split() or [""]
        if word == "v":
            verts.append([float(x) for x in rest])
        elif word == "o":
            objects.append([rest[0], []])
        elif word == "usemtl":
            objects[-1][0] = rest[0]
        elif word == "f":
            objects[-1][1].append([int(x.split("/")[0]) - 1 for x in rest])
    v = np.array(verts)
    return [(name, v, np.array(faces)) for name, faces in objects]


def read_mtl(path: Path) -> dict[str, tuple[float, ...]]:
    colours, name = {}, None
    if path.exists():
        for line in path.read_text().splitlines():
            word, *rest = line.split() or [""]
            if word == "newmtl":
                name = rest[0]
            elif word == "Kd" and name:
                colours[name] = tuple(float(x) for x in rest)
    return colours


def render(obj: Path, png: Path, elev: float, azim: float, size: tuple[float, float]) -> None:
    colours = read_mtl(obj.with_suffix(".mtl"))
    fig = plt.figure(figsize=size)
    ax = fig.add_subplot(projection="3d")
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for name, v, faces in read_obj(obj):
        tris = v[faces]
        n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        n /= np.linalg.norm(n, axis=1, keepdims=True)
        shade = 0.45 + 0.55 * np.clip(n @ LIGHT, 0, 1)
        base = np.array(colours.get(name, (0.5, 0.6, 0.8)))
        ax.add_collection3d(Poly3DCollection(tris, facecolors=base[None, :] * shade[:, None], linewidths=0))
        lo, hi = np.minimum(lo, tris.reshape(-1, 3).min(axis=0)), np.maximum(hi, tris.reshape(-1, 3).max(axis=0))
    r = (hi - lo).max() / 2
    mid = (hi + lo) / 2
    ax.set_xlim(mid[0] - r, mid[0] + r)
    ax.set_ylim(mid[1] - r, mid[1] + r)
    ax.set_zlim(mid[2] - r, mid[2] + r)
    ax.view_init(elev=elev, azim=azim)
    ax.set_axis_off()
    fig.savefig(png, dpi=150, bbox_inches="tight", pad_inches=0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("obj", type=Path)
    p.add_argument("png", type=Path)
    p.add_argument("--elev", type=float, default=30)
    p.add_argument("--azim", type=float, default=-60)
    p.add_argument("--size", default="6x4")
    a = p.parse_args()
    w, h = (float(x) for x in a.size.split("x"))
    render(a.obj, a.png, a.elev, a.azim, (w, h))


if __name__ == "__main__":
    main()
