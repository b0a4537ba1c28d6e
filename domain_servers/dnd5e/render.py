"""Combat grid as SVG plus the same data as structure."""

from __future__ import annotations

import base64
from typing import Any
from xml.sax.saxutils import escape

CELL = 48


def grid_data(state: dict[str, Any], visible_status: Any) -> dict[str, Any]:
    combat = state["combat"]
    current = combat["order"][combat["turn_index"]]["id"]
    tokens = []
    for entry in combat["order"]:
        char = state["characters"][entry["id"]]
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


def svg(grid: dict[str, Any]) -> str:
    width, height = grid["width"] * CELL, grid["height"] * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="Combat grid, round '
        f'{grid["round"]}">',
        f'<rect width="{width}" height="{height}" fill="#f4efe3"/>',
    ]
    for col in range(grid["width"] + 1):
        parts.append(
            f'<line x1="{col * CELL}" y1="0" x2="{col * CELL}" y2="{height}" stroke="#c9bfa8"/>'
        )
    for row in range(grid["height"] + 1):
        parts.append(
            f'<line x1="0" y1="{row * CELL}" x2="{width}" y2="{row * CELL}" stroke="#c9bfa8"/>'
        )
    # Coordinates along the top and left edges: "move to X,Y" counts from 0, as these do.
    for col in range(grid["width"]):
        parts.append(
            f'<text x="{col * CELL + CELL - 4}" y="11" font-size="10" text-anchor="end" '
            f'fill="#8a7f66">{col}</text>'
        )
    for row in range(1, grid["height"]):
        parts.append(
            f'<text x="3" y="{row * CELL + 11}" font-size="10" fill="#8a7f66">{row}</text>'
        )
    # The dead first, so one standing on a body's square is drawn over it.
    for token in sorted(grid["tokens"], key=lambda t: t["status"] != "dead"):
        cx, cy = token["x"] * CELL + CELL // 2, token["y"] * CELL + CELL // 2
        fill = "#3b6ea8" if token["kind"] == "pc" else "#a83b3b"
        stroke = "#f2c230" if token["current"] else "#222"
        opacity = "0.35" if token["status"] == "dead" else "1"
        parts.append(
            f'<g opacity="{opacity}"><circle cx="{cx}" cy="{cy}" r="{CELL // 2 - 4}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="3"/>'
            f'<text x="{cx}" y="{cy + 5}" font-size="14" text-anchor="middle" fill="#fff">'
            f"{escape(_initials(token['name']))}</text><title>{escape(token['name'])} "
            f"({escape(token['status'])})</title></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _initials(name: str) -> str:
    """A token's label: "Go" for Goblin, "G2" for Goblin 2 (told apart from the first)."""
    words = name.split()
    if len(words) > 1 and words[-1].isdigit():
        return (words[0][:1] + words[-1])[:3]
    return name[:2]


def svg_base64(grid: dict[str, Any]) -> str:
    return base64.b64encode(svg(grid).encode()).decode()
