#!/usr/bin/env python3
"""Draws the installed web app's icons from the favicon (Sources/ParlorServer/Web/favicon.svg):
the manifest's 192 and 512 px icons (the favicon as it is, its corners transparent), the
maskable 512 px icon (the tile to the edges, the bubble inside the safe zone, the central
circle of 80 %) and /apple-touch-icon.png (180 px, to the edges: iOS rounds the corners itself).

The favicon is one rounded square and one path (M, C, S, L, H, V and Z, absolute or relative);
each curve is drawn as a polygon at 4 times the size, then scaled down for smooth edges.

    python3 tools/generate_app_icons.py          # writes the PNGs
    python3 tools/generate_app_icons.py --check  # exit 1 if a committed PNG is not what this draws
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

from PIL import Image, ImageChops, ImageDraw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "Sources", "ParlorServer", "Web")
FAVICON = os.path.join(WEB, "favicon.svg")
SCALE = 4
CURVE_STEPS = 48
# A committed PNG may differ this much per channel from a fresh drawing (another Pillow's rounding).
TOLERANCE = 2

# (path in Web/, size in pixels, full bleed, scale of the bubble around the centre)
ICONS = [
    ("icons/parlor-192.png", 192, False, 1.0),
    ("icons/parlor-512.png", 512, False, 1.0),
    ("icons/parlor-maskable-512.png", 512, True, 0.8),
    ("apple-touch-icon.png", 180, True, 1.0),
]


def read_favicon(path: str):
    """The favicon's view box side, its tile (corner radius, colour) and its path (data, colour)."""
    svg = ElementTree.parse(path).getroot()
    namespace = "{http://www.w3.org/2000/svg}"
    side = float(svg.get("viewBox").split()[2])
    rect = svg.find(f"{namespace}rect")
    shape = svg.find(f"{namespace}path")
    return side, (float(rect.get("rx")), rect.get("fill")), (shape.get("d"), shape.get("fill"))


def path_polygons(data: str) -> list[list[tuple[float, float]]]:
    """The path's subpaths as polygons, curves flattened into CURVE_STEPS segments."""
    tokens = re.findall(r"[MmCcSsLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?", data)
    polygons, current = [], []
    x = y = 0.0
    control = None  # the last cubic's second control point, for S
    command = None
    index = 0

    def number():
        nonlocal index
        value = float(tokens[index])
        index += 1
        return value

    def cubic(p1, p2, p3):
        nonlocal x, y
        p0 = (x, y)
        for step in range(1, CURVE_STEPS + 1):
            t = step / CURVE_STEPS
            u = 1 - t
            current.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                                 for a, b, c, d in zip(p0, p1, p2, p3)))
        x, y = p3

    while index < len(tokens):
        if re.fullmatch(r"[A-Za-z]", tokens[index]):
            command = tokens[index]
            index += 1
        relative = command.islower()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        kind = command.upper()
        if kind == "Z":
            if current:
                polygons.append(current)
            current = []
            control = None
            continue
        if kind == "M":
            if current:
                polygons.append(current)
            x, y = ox + number(), oy + number()
            current = [(x, y)]
            command = "l" if relative else "L"  # further pairs are lines
            control = None
        elif kind == "L":
            x, y = ox + number(), oy + number()
            current.append((x, y))
            control = None
        elif kind == "H":
            x = ox + number()
            current.append((x, y))
            control = None
        elif kind == "V":
            y = oy + number()
            current.append((x, y))
            control = None
        elif kind == "C":
            p1 = (ox + number(), oy + number())
            p2 = (ox + number(), oy + number())
            p3 = (ox + number(), oy + number())
            cubic(p1, p2, p3)
            control = p2
        elif kind == "S":
            p1 = (2 * x - control[0], 2 * y - control[1]) if control else (x, y)
            p2 = (ox + number(), oy + number())
            p3 = (ox + number(), oy + number())
            cubic(p1, p2, p3)
            control = p2
        else:
            raise ValueError(f"the favicon's path uses {command}, which this script does not draw")
    if current:
        polygons.append(current)
    return polygons


def colour(value: str) -> tuple[int, int, int, int]:
    value = value.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4)) + (255,)


def draw(size: int, full_bleed: bool, scale: float) -> Image.Image:
    side, (radius, tile_fill), (data, glyph_fill) = read_favicon(FAVICON)
    big = size * SCALE
    unit = big / side
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    canvas = ImageDraw.Draw(image)
    canvas.rounded_rectangle([0, 0, big - 1, big - 1], radius=0 if full_bleed else radius * unit, fill=colour(tile_fill))
    centre = side / 2
    for polygon in path_polygons(data):
        points = [((centre + (px - centre) * scale) * unit, (centre + (py - centre) * scale) * unit) for px, py in polygon]
        canvas.polygon(points, fill=colour(glyph_fill))
    image = image.resize((size, size), Image.LANCZOS)
    # To the edges, the icon is opaque: saved without an alpha channel (iOS shows one as black).
    return image.convert("RGB") if full_bleed else image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed PNG is not what this draws")
    arguments = parser.parse_args()
    stale = []
    for relative, size, full_bleed, scale in ICONS:
        path = os.path.join(WEB, relative)
        image = draw(size, full_bleed, scale)
        if arguments.check:
            try:
                with Image.open(path) as committed:
                    committed = committed.convert(image.mode)
            except FileNotFoundError:
                stale.append(relative)
                continue
            if committed.size != image.size or max(high for _, high in ImageChops.difference(committed, image).getextrema()) > TOLERANCE:
                stale.append(relative)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        image.save(path, optimize=True)
        print(f"wrote {os.path.relpath(path, ROOT)} ({size}×{size})")
    if arguments.check:
        for relative in stale:
            print(f"{relative} is not what tools/generate_app_icons.py draws: run it", file=sys.stderr)
        if not stale:
            print(f"{len(ICONS)} app icons are up to date")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
