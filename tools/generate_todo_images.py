#!/usr/bin/env python3
"""Draws the Todo app's three priority images into Sources/Apps/Todo/Assets.

Each image is a rounded square in the priority's colour with one, two or three exclamation
marks drawn as shapes (no font needed, so the output is the same on every machine).
Run from the repository root: python3 tools/generate_todo_images.py
"""
from pathlib import Path

from PIL import Image, ImageDraw

SIZE = 120
SCALE = 4  # drawn large, then downsampled for smooth edges
OUT = Path(__file__).resolve().parent.parent / "Sources" / "Apps" / "Todo" / "Assets"

PRIORITIES = [
    # (file name, background colour, number of marks)
    ("priority-low.png", (52, 168, 83), 1),
    ("priority-medium.png", (245, 156, 0), 2),
    ("priority-high.png", (217, 48, 37), 3),
]


def draw_priority(colour, marks):
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=colour + (255,))
    bar_width = big // 10
    gap = big // 14
    total = marks * bar_width + (marks - 1) * gap
    left = (big - total) // 2
    top, bar_bottom = big * 22 // 100, big * 62 // 100
    dot_top, dot_bottom = big * 68 // 100, big * 78 // 100
    for index in range(marks):
        x = left + index * (bar_width + gap)
        draw.rounded_rectangle((x, top, x + bar_width, bar_bottom), radius=bar_width // 2, fill="white")
        draw.ellipse((x, dot_top, x + bar_width, dot_bottom), fill="white")
    return image.resize((SIZE, SIZE), Image.LANCZOS)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, colour, marks in PRIORITIES:
        draw_priority(colour, marks).save(OUT / name, optimize=True)
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
