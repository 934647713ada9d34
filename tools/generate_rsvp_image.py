#!/usr/bin/env python3
"""Draws the RSVP app's party image: balloons and confetti on an evening-sky gradient.

Writes Sources/Apps/RSVP/Assets/partyballoons.png (600x400). Deterministic: the same image on
every run, so the committed file only changes when this script does.

Usage: python3 tools/generate_rsvp_image.py
"""
import math
import random
from pathlib import Path

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 600, 400
SCALE = 2  # drawn at twice the size, then downsampled, for smooth edges
OUTPUT = Path(__file__).resolve().parent.parent / "Sources/Apps/RSVP/Assets/partyballoons.png"

TOP, BOTTOM = (255, 183, 197), (120, 86, 200)
BALLOONS = [  # centre x, centre y, radius, colour (in final-image pixels)
    (150, 150, 62, (235, 64, 90)),
    (255, 115, 70, (255, 196, 48)),
    (360, 160, 64, (52, 168, 235)),
    (460, 120, 58, (90, 200, 120)),
    (215, 215, 50, (250, 120, 40)),
    (415, 225, 48, (200, 90, 220)),
]
CONFETTI_COLOURS = [(255, 255, 255), (255, 230, 90), (90, 220, 255), (255, 120, 170), (140, 255, 160)]


def gradient(draw, width, height):
    for y in range(height):
        t = y / (height - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(TOP, BOTTOM))
        draw.line([(0, y), (width, y)], fill=colour)


def lighter(colour, amount):
    return tuple(round(c + (255 - c) * amount) for c in colour)


def balloon(draw, cx, cy, r, colour):
    s = SCALE
    cx, cy, r = cx * s, cy * s, r * s
    # The string: a gentle wave down to the bottom edge.
    points = []
    for step in range(0, 60):
        y = cy + r * 1.15 + step * (HEIGHT * s - cy) / 55
        x = cx + math.sin(step / 6) * 6 * s
        points.append((x, y))
    draw.line(points, fill=(255, 255, 255), width=2 * s)
    # The knot and the body (a slightly tall ellipse).
    draw.polygon([(cx, cy + r * 1.12), (cx - 8 * s, cy + r * 1.25), (cx + 8 * s, cy + r * 1.25)], fill=colour)
    draw.ellipse([cx - r, cy - r * 1.15, cx + r, cy + r * 1.15], fill=colour)
    # A highlight near the top left.
    hr = r * 0.28
    hx, hy = cx - r * 0.4, cy - r * 0.5
    draw.ellipse([hx - hr * 0.6, hy - hr, hx + hr * 0.6, hy + hr], fill=lighter(colour, 0.55))


def confetti(draw, rng):
    s = SCALE
    for _ in range(90):
        x, y = rng.uniform(0, WIDTH * s), rng.uniform(0, HEIGHT * s)
        w, h = rng.uniform(4, 9) * s, rng.uniform(2, 4) * s
        angle = rng.uniform(0, math.pi)
        corners = []
        for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h)):
            corners.append((x + dx * math.cos(angle) - dy * math.sin(angle), y + dx * math.sin(angle) + dy * math.cos(angle)))
        draw.polygon(corners, fill=rng.choice(CONFETTI_COLOURS))


def main():
    rng = random.Random(2016)  # the year of the seed's Messages framework
    image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE))
    draw = ImageDraw.Draw(image)
    gradient(draw, WIDTH * SCALE, HEIGHT * SCALE)
    confetti(draw, rng)
    for cx, cy, r, colour in BALLOONS:
        balloon(draw, cx, cy, r, colour)
    image = image.resize((WIDTH, HEIGHT), Image.LANCZOS)
    image = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    image.save(OUTPUT, optimize=True)
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
