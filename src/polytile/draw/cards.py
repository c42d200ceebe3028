"""Printable sheets of challenge cards (plain SVG, A4 or Letter): odd pages the cards (free
cells outlined, placed pieces drawn), each followed by a page of their solutions mirrored
left to right, so that a duplex print (long-edge flip) puts each solution behind its card."""

from __future__ import annotations

from typing import Any

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # millimetres
MARGIN, GAP, TITLE = 12.0, 6.0, 7.0
COLUMNS = 2
COLOURS = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4",
    "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff",
    "#9a6324", "#fffac8", "#800000", "#aaffc3", "#808000", "#ffd8b1",
]  # fmt: skip


def _colour(letter: str, seen: dict[str, str]) -> str:
    if letter not in seen:
        seen[letter] = COLOURS[len(seen) % len(COLOURS)]
    return seen[letter]


def _extent(card: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [c for p in card["placed"] + card["solution"] for c in p["cells"]]
    rows, cols = [c[0] for c in cells], [c[1] for c in cells]
    return min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


def _pieces(
    pieces: list[dict[str, Any]], x: float, y: float, cell: float, lo: tuple[int, int], seen: dict[str, str]
) -> list[str]:
    out = []
    for p in pieces:
        fill = _colour(p["piece"], seen)
        for r, c in p["cells"]:
            px, py = x + (c - lo[1]) * cell, y + (r - lo[0]) * cell
            out.append(
                f'<rect x="{px:.2f}" y="{py:.2f}" width="{cell:.2f}" height="{cell:.2f}" fill="{fill}" stroke="#333" stroke-width="0.25"/>'
            )
        r, c = p["cells"][0]
        out.append(
            f'<text x="{x + (c - lo[1] + 0.5) * cell:.2f}" y="{y + (r - lo[0] + 0.7) * cell:.2f}" '
            f'font-size="{cell * 0.55:.2f}" text-anchor="middle" font-family="sans-serif">{p["piece"]}</text>'
        )
    return out


def _card(
    card: dict[str, Any], number: int, x: float, y: float, w: float, h: float, back: bool, seen: dict[str, str]
) -> str:
    r0, c0, rows, cols = _extent(card)
    cell = min(w / cols, (h - TITLE) / rows)
    bx, by = x + (w - cols * cell) / 2, y + TITLE
    title = f"Solution {number}" if back else f"Level {card['level']} \u00b7 card {number}"
    parts = [
        f'<g class="card"><rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="none" stroke="#bbb" stroke-width="0.3" rx="2"/>',
        f'<text x="{x + 2:.2f}" y="{y + TITLE - 2:.2f}" font-size="4" font-family="sans-serif">{title}</text>',
    ]
    for r, c in card["puzzle"]["board"]:
        px, py = bx + (c - c0) * cell, by + (r - r0) * cell
        parts.append(
            f'<rect x="{px:.2f}" y="{py:.2f}" width="{cell:.2f}" height="{cell:.2f}" fill="#fff" stroke="#444" stroke-width="0.4"/>'
        )
    shown = card["placed"] + (card["solution"] if back else [])
    parts += _pieces(shown, bx, by, cell, (r0, c0), seen)
    parts.append("</g>")
    return "\n".join(parts)


def sheet(cards: list[dict[str, Any]], paper: str = "a4") -> list[str]:
    """The pages (SVG documents): cards, then their solutions mirrored, page after page."""
    width, height = PAPERS[paper]
    w = (width - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS
    r0, c0, rows, cols = _extent(cards[0]) if cards else (0, 0, 1, 1)
    h = TITLE + w * rows / cols
    per_column = max(1, int((height - 2 * MARGIN + GAP) // (h + GAP)))
    per_page = per_column * COLUMNS
    pages: list[str] = []
    seen: dict[str, str] = {}
    for start in range(0, max(len(cards), 1), per_page):
        for back in (False, True):
            body = []
            for k, card in enumerate(cards[start : start + per_page]):
                row, col = divmod(k, COLUMNS)
                if back:
                    col = COLUMNS - 1 - col
                x, y = MARGIN + col * (w + GAP), MARGIN + row * (h + GAP)
                body.append(_card(card, start + k + 1, x, y, w, h, back, seen))
            pages.append(
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
                f'viewBox="0 0 {width:g} {height:g}">\n' + "\n".join(body) + "\n</svg>\n"
            )
    return pages
