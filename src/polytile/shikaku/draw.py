"""Pictures of a Shikaku solution: the grid, each rectangle outlined and tinted, the clues.
SVG is written directly (no dependencies); PNG goes through matplotlib's SVG-free path."""

from __future__ import annotations

import io

from .grid import Rect, Shikaku

CELL = 24  # SVG pixels per cell
TINTS = ["#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9", "#fce5cd", "#d0e0e3", "#ead1dc"]


def svg(p: Shikaku, rects: list[Rect]) -> str:
    """The solution as SVG text, written directly: no matplotlib import for the common picture."""
    w, h = p.width * CELL + 2, p.height * CELL + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="-1 -1 {w} {h}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{p.width * CELL}" height="{p.height * CELL}" fill="white" '
        f'stroke="#bbbbbb" stroke-width="0.5"/>',
    ]
    for r in range(1, p.height):
        out.append(f'<line x1="0" y1="{r * CELL}" x2="{p.width * CELL}" y2="{r * CELL}" stroke="#dddddd"/>')
    for c in range(1, p.width):
        out.append(f'<line x1="{c * CELL}" y1="0" x2="{c * CELL}" y2="{p.height * CELL}" stroke="#dddddd"/>')
    for k, (r, c, a, b) in enumerate(sorted(rects)):
        out.append(
            f'<rect x="{c * CELL}" y="{r * CELL}" width="{b * CELL}" height="{a * CELL}" '
            f'fill="{TINTS[k % len(TINTS)]}" fill-opacity="0.8" stroke="#262626" stroke-width="2"/>'
        )
    for r, c, v in p.clues:
        out.append(
            f'<text x="{c * CELL + CELL / 2}" y="{r * CELL + CELL * 0.7}" text-anchor="middle" '
            f'font-size="{CELL * 0.55:.1f}" fill="#262626">{v}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(p: Shikaku, rects: list[Rect]) -> bytes:
    """The solution as PNG bytes through matplotlib (PNG needs a rasteriser; SVG does not)."""
    import matplotlib  # ~0.3 s: only when a picture is drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    scale = 0.3
    fig, ax = plt.subplots(figsize=(max(1.0, p.width * scale), max(1.0, p.height * scale)))
    ax.set_xlim(0, p.width)
    ax.set_ylim(p.height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for k, (r, c, a, b) in enumerate(sorted(rects)):
        ax.add_patch(Rectangle((c, r), b, a, facecolor=TINTS[k % len(TINTS)], edgecolor="#262626", lw=1.5))
    for r, c, v in p.clues:
        ax.text(c + 0.5, r + 0.5, str(v), ha="center", va="center", fontsize=7)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()
