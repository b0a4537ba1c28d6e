"""Combat grid as SVG plus the same data as structure."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

CELL = 48


def grid_data(
    state: dict[str, Any], visible_status: Any, shown: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The grid as one viewer sees it: a combatant `shown` refuses (a monster hidden from this
    viewer) has no token, so neither the data nor the picture says where it is."""
    combat = state["combat"]
    current = combat["order"][combat["turn_index"]]["id"]
    tokens = []
    for entry in combat["order"]:
        char = state["characters"][entry["id"]]
        if not shown(char):
            continue
        x, y = combat["positions"][entry["id"]]
        tokens.append(
            {
                "id": char["id"],
                "name": char["name"],
                "kind": char["kind"],
                "x": x,
                "y": y,
                "current": char["id"] == current,
                "status": visible_status(char),
            }
        )
    return {
        "width": combat["grid"]["width"],
        "height": combat["grid"]["height"],
        "cell_feet": 5,
        "round": combat["round"],
        "current": current,
        "tokens": tokens,
    }


# The room shows the map about 256px wide for a 576-unit (12-column) grid, so a text needs some
# 23 units to be read at 10px there: the numbers sit in a margin, not in the squares' corners,
# and the tokens' letters fill their circles.
MARGIN = 30
COORD_SIZE = 24
LABEL_SIZE = 26
LABEL_WIDTH = 36  # a three-letter label ("G12") is narrowed to fit its circle, not shrunk


def svg(grid: dict[str, Any]) -> str:
    width, height = grid["width"] * CELL, grid["height"] * CELL
    # The picture keeps the grid's own proportions (the page sets the map's place from them): the
    # squares are drawn a little smaller, leaving a margin of at least MARGIN on top and left.
    scale = 1 - MARGIN / min(width, height)
    left, top = width * (1 - scale), height * (1 - scale)
    cell = CELL * scale
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="Combat grid, round '
        f'{grid["round"]}">',
        f'<rect width="{width}" height="{height}" fill="#f4efe3"/>',
    ]
    # Coordinates along the top and left edges: "move to X,Y" counts from 0, as these do.
    for col in range(grid["width"]):
        parts.append(
            f'<text x="{left + (col + 0.5) * cell:.1f}" y="{top - 6:.1f}" '
            f'font-size="{COORD_SIZE}" font-family="sans-serif" text-anchor="middle" '
            f'fill="#6b6250">{col}</text>'
        )
    for row in range(grid["height"]):
        parts.append(
            f'<text x="{left - 5:.1f}" y="{top + (row + 0.5) * cell + COORD_SIZE * 0.35:.1f}" '
            f'font-size="{COORD_SIZE}" font-family="sans-serif" text-anchor="end" '
            f'fill="#6b6250">{row}</text>'
        )
    parts.append(f'<g transform="translate({left:.1f} {top:.1f}) scale({scale:.4f})">')
    for col in range(grid["width"] + 1):
        parts.append(
            f'<line x1="{col * CELL}" y1="0" x2="{col * CELL}" y2="{height}" stroke="#c9bfa8"/>'
        )
    for row in range(grid["height"] + 1):
        parts.append(
            f'<line x1="0" y1="{row * CELL}" x2="{width}" y2="{row * CELL}" stroke="#c9bfa8"/>'
        )
    # The dead first, so one standing on a body's square is drawn over it.
    for token in sorted(grid["tokens"], key=lambda t: t["status"] != "dead"):
        cx, cy = token["x"] * CELL + CELL // 2, token["y"] * CELL + CELL // 2
        fill = "#3b6ea8" if token["kind"] == "pc" else "#a83b3b"
        stroke = "#f2c230" if token["current"] else "#222"
        opacity = "0.35" if token["status"] == "dead" else "1"
        label = _initials(token["name"])
        narrowed = (
            f' textLength="{LABEL_WIDTH}" lengthAdjust="spacingAndGlyphs"' if len(label) > 2 else ""
        )
        parts.append(
            f'<g opacity="{opacity}"><circle cx="{cx}" cy="{cy}" r="{CELL // 2 - 3}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="3"/>'
            f'<text x="{cx}" y="{cy + LABEL_SIZE * 0.35:.1f}" font-size="{LABEL_SIZE}" '
            f'font-family="sans-serif" font-weight="700" text-anchor="middle"{narrowed} '
            f'fill="#fff">{escape(label)}</text><title>{escape(token["name"])} '
            f"({escape(token['status'])})</title></g>"
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _initials(name: str) -> str:
    """A token's label: "Go" for Goblin, "G2" for Goblin 2 (told apart from the first)."""
    words = name.split()
    if len(words) > 1 and words[-1].isdigit():
        return (words[0][:1] + words[-1])[:3]
    return name[:2]


def svg_base64(grid: dict[str, Any]) -> str:
    return base64.b64encode(svg(grid).encode()).decode()
