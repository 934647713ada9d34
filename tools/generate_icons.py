#!/usr/bin/env python3
"""Draws the Icon Store's icons: one 256x256 PNG per catalog icon, plus the app's own icon.

Each icon is drawn with Pillow's primitives at 4x size, then scaled down for smooth edges.
Halloween icons sit on a night-purple tile, the colorful ones on a bright tile.

Usage: python3 tools/generate_icons.py [output folder]
(default: Sources/Apps/IconStore/Assets next to this script's repository root)
"""

import math
import os
import sys

from PIL import Image, ImageDraw, ImageFont

SIZE = 256
SCALE = 4
FONT_PATHS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
]


class Canvas:
    """A drawing surface addressed in 256-pixel coordinates, rendered at SCALE times that."""

    def __init__(self, top, bottom):
        self.image = Image.new("RGBA", (SIZE * SCALE, SIZE * SCALE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)
        self.tile(top, bottom)

    def s(self, value):
        return int(round(value * SCALE))

    def box(self, x0, y0, x1, y1):
        return [self.s(x0), self.s(y0), self.s(x1), self.s(y1)]

    def points(self, pts):
        return [(self.s(x), self.s(y)) for x, y in pts]

    def tile(self, top, bottom):
        """A rounded square filled with a vertical gradient from `top` to `bottom`."""
        height = self.image.size[1]
        column = Image.new("RGBA", (1, height))
        for y in range(height):
            t = y / (height - 1)
            column.putpixel((0, y), tuple(int(top[i] + (bottom[i] - top[i]) * t) for i in range(3)) + (255,))
        gradient = column.resize(self.image.size)
        mask = Image.new("L", self.image.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(self.box(4, 4, 252, 252), radius=self.s(48), fill=255)
        self.image.paste(gradient, (0, 0), mask)

    def ellipse(self, x0, y0, x1, y1, fill=None, outline=None, width=0):
        self.draw.ellipse(self.box(x0, y0, x1, y1), fill=fill, outline=outline, width=self.s(width))

    def circle(self, cx, cy, r, **kwargs):
        self.ellipse(cx - r, cy - r, cx + r, cy + r, **kwargs)

    def rect(self, x0, y0, x1, y1, fill=None, radius=0, outline=None, width=0):
        self.draw.rounded_rectangle(
            self.box(x0, y0, x1, y1), radius=self.s(radius), fill=fill, outline=outline, width=self.s(width))

    def polygon(self, pts, fill=None, outline=None, width=0):
        self.draw.polygon(self.points(pts), fill=fill, outline=outline, width=self.s(width))

    def line(self, pts, fill, width, curve=True):
        self.draw.line(self.points(pts), fill=fill, width=self.s(width), joint="curve" if curve else None)
        for x, y in (pts[0], pts[-1]):  # round caps
            self.circle(x, y, width / 2, fill=fill)

    def arc(self, x0, y0, x1, y1, start, end, fill, width):
        self.draw.arc(self.box(x0, y0, x1, y1), start, end, fill=fill, width=self.s(width))

    def pie(self, x0, y0, x1, y1, start, end, fill):
        self.draw.pieslice(self.box(x0, y0, x1, y1), start, end, fill=fill)

    def text(self, x, y, text, size, fill):
        font = load_font(self.s(size))
        self.draw.text((self.s(x), self.s(y)), text, font=font, fill=fill, anchor="mm")

    def clipped(self, shape, draw):
        """Runs `draw` on a fresh layer, then keeps only what falls inside `shape` (a mask drawer)."""
        base, base_draw = self.image, self.draw
        layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
        self.image, self.draw = layer, ImageDraw.Draw(layer)
        draw()
        mask = Image.new("L", base.size, 0)
        self.image, self.draw = mask, ImageDraw.Draw(mask)
        shape()
        self.image, self.draw = base, base_draw
        alpha = Image.composite(layer.getchannel("A"), Image.new("L", base.size, 0), mask)
        layer.putalpha(alpha)
        base.alpha_composite(layer)

    def save(self, path):
        self.image.resize((SIZE, SIZE), Image.LANCZOS).save(path, optimize=True)


def load_font(pixels):
    for path in FONT_PATHS:
        if os.path.exists(path):
            return ImageFont.truetype(path, pixels)
    return ImageFont.load_default(size=pixels)


NIGHT = ((58, 36, 94), (24, 16, 48))


def wavy(cx, y, width, waves, depth):
    """Points along a wavy bottom edge, right to left."""
    pts = []
    steps = waves * 12
    for i in range(steps + 1):
        x = cx + width / 2 - width * i / steps
        pts.append((x, y + depth * math.sin(math.pi * waves * i / steps) ** 2))
    return pts


def candle(c):
    c.ellipse(58, 196, 198, 224, fill=(196, 160, 90))
    c.ellipse(70, 192, 186, 214, fill=(226, 190, 110))
    c.rect(92, 108, 164, 206, fill=(246, 238, 220), radius=8)
    c.ellipse(92, 100, 164, 118, fill=(255, 250, 236))
    c.polygon([(110, 110), (120, 110), (118, 146), (112, 146)], fill=(255, 250, 236))
    c.circle(115, 146, 5, fill=(255, 250, 236))
    c.line([(128, 106), (128, 94)], fill=(60, 50, 40), width=3)
    c.polygon([(128, 34), (146, 74), (140, 92), (116, 92), (110, 74)], fill=(255, 140, 30))
    c.ellipse(110, 60, 146, 96, fill=(255, 140, 30))
    c.polygon([(128, 56), (138, 80), (118, 80)], fill=(255, 226, 90))
    c.ellipse(118, 70, 138, 92, fill=(255, 226, 90))


def cat(c):
    c.circle(186, 66, 26, fill=(250, 232, 160))
    black = (20, 16, 28)
    c.polygon([(62, 118), (70, 46), (112, 92)], fill=black)
    c.polygon([(194, 118), (186, 46), (144, 92)], fill=black)
    c.ellipse(56, 78, 200, 210, fill=black)
    c.polygon([(74, 100), (78, 64), (100, 90)], fill=(120, 70, 110))
    c.polygon([(182, 100), (178, 64), (156, 90)], fill=(120, 70, 110))
    for cx in (100, 156):
        c.ellipse(cx - 18, 122, cx + 18, 150, fill=(255, 214, 40))
        c.ellipse(cx - 4, 123, cx + 4, 149, fill=black)
    c.polygon([(120, 164), (136, 164), (128, 174)], fill=(240, 130, 160))
    for dy in (-6, 4):
        c.line([(112, 172 + dy / 2), (64, 164 + dy)], fill=(210, 210, 220), width=2)
        c.line([(144, 172 + dy / 2), (192, 164 + dy)], fill=(210, 210, 220), width=2)


def dribbble(c):
    pink = (234, 76, 137)
    seam = (180, 30, 90)
    c.circle(128, 128, 92, fill=pink)

    def seams():
        c.arc(-120, -60, 170, 230, 300, 60, fill=seam, width=7)
        c.arc(86, 26, 376, 316, 120, 240, fill=seam, width=7)
        c.arc(-40, 100, 300, 400, 200, 340, fill=seam, width=7)
        c.arc(50, -100, 360, 110, 30, 150, fill=seam, width=7)

    c.clipped(lambda: c.circle(128, 128, 92, fill=255), seams)
    c.circle(128, 128, 92, outline=seam, width=6)


def ghost(c):
    white = (246, 246, 255)
    c.ellipse(64, 40, 192, 160, fill=white)
    c.rect(64, 100, 192, 200, fill=white)
    c.polygon([(64, 196)] + wavy(128, 196, 128, 4, 22) + [(64, 196)], fill=white)
    c.polygon([(192, 196), (192, 190)] + wavy(128, 196, 128, 4, 22)[::-1], fill=white)
    c.ellipse(94, 88, 116, 120, fill=(30, 24, 50))
    c.ellipse(140, 88, 162, 120, fill=(30, 24, 50))
    c.ellipse(116, 130, 140, 158, fill=(30, 24, 50))
    c.ellipse(80, 122, 96, 130, fill=(250, 200, 220))
    c.ellipse(160, 122, 176, 130, fill=(250, 200, 220))


def hat(c):
    c.ellipse(28, 170, 228, 214, fill=(40, 30, 70))
    c.polygon([(76, 188), (180, 188), (150, 96), (168, 40), (126, 76), (108, 120)], fill=(76, 46, 120))
    c.polygon([(82, 172), (174, 172), (166, 150), (92, 150)], fill=(250, 150, 40))
    c.rect(114, 148, 142, 174, fill=(255, 214, 60), radius=3)
    c.rect(121, 155, 135, 167, fill=(76, 46, 120), radius=2)


def owl(c):
    brown = (150, 96, 56)
    c.polygon([(66, 80), (76, 36), (104, 70)], fill=brown)
    c.polygon([(190, 80), (180, 36), (152, 70)], fill=brown)
    c.ellipse(60, 54, 196, 222, fill=brown)
    c.ellipse(86, 120, 170, 214, fill=(226, 190, 140))
    for y in (140, 160, 180):
        for x in (108, 128, 148):
            c.arc(x - 8, y - 6, x + 8, y + 6, 20, 160, fill=(170, 120, 80), width=3)
    for cx in (100, 156):
        c.circle(cx, 100, 27, fill=(255, 255, 255))
        c.circle(cx, 100, 17, fill=(255, 160, 30))
        c.circle(cx, 100, 9, fill=(20, 16, 28))
        c.circle(cx + 4, 96, 3, fill=(255, 255, 255))
    c.polygon([(120, 118), (136, 118), (128, 136)], fill=(255, 190, 40))


def pot(c):
    for cx, cy, r in ((96, 70, 12), (132, 54, 16), (166, 76, 10), (116, 36, 7)):
        c.circle(cx, cy, r, fill=(140, 230, 90), outline=(90, 180, 60), width=2)
    c.rect(70, 204, 90, 226, fill=(30, 26, 34), radius=4)
    c.rect(166, 204, 186, 226, fill=(30, 26, 34), radius=4)
    c.ellipse(46, 96, 210, 220, fill=(40, 36, 46))
    c.ellipse(40, 88, 216, 118, fill=(60, 54, 66))
    c.ellipse(52, 92, 204, 114, fill=(110, 210, 70))
    c.ellipse(80, 150, 110, 170, fill=(70, 64, 78))


def pumkin(c):
    c.polygon([(120, 70), (132, 34), (146, 40), (136, 74)], fill=(70, 140, 50))
    orange = (246, 128, 28)
    c.ellipse(30, 66, 150, 216, fill=(220, 100, 20))
    c.ellipse(106, 66, 226, 216, fill=(220, 100, 20))
    c.ellipse(70, 62, 186, 220, fill=orange)
    face = (255, 226, 80)
    c.polygon([(78, 128), (110, 128), (94, 100)], fill=face)
    c.polygon([(146, 128), (178, 128), (162, 100)], fill=face)
    c.polygon([(118, 148), (138, 148), (128, 134)], fill=face)
    c.polygon([(70, 160), (186, 160), (176, 184), (160, 174), (146, 190), (128, 176),
               (110, 190), (96, 174), (80, 184)], fill=face)


def rip(c):
    c.ellipse(20, 196, 236, 246, fill=(60, 110, 60))
    c.rect(68, 60, 188, 214, fill=(150, 150, 164), radius=10)
    c.ellipse(68, 30, 188, 130, fill=(150, 150, 164))
    c.ellipse(78, 40, 178, 120, fill=(170, 170, 184))
    c.rect(78, 80, 178, 206, fill=(170, 170, 184), radius=8)
    c.text(128, 112, "RIP", 40, (70, 70, 84))
    c.line([(100, 150), (156, 150)], fill=(120, 120, 134), width=4)
    c.line([(108, 168), (148, 168)], fill=(120, 120, 134), width=4)
    for x in range(30, 230, 14):
        c.polygon([(x, 222), (x + 6, 200), (x + 12, 222)], fill=(80, 150, 70))


def skull(c):
    bone = (240, 236, 222)
    c.circle(128, 110, 72, fill=bone)
    c.rect(88, 150, 168, 214, fill=bone, radius=14)
    dark = (30, 24, 44)
    c.ellipse(82, 96, 122, 140, fill=dark)
    c.ellipse(134, 96, 174, 140, fill=dark)
    c.polygon([(128, 146), (118, 168), (138, 168)], fill=dark)
    for x in (106, 122, 138, 154):
        c.line([(x, 188), (x, 212)], fill=(150, 140, 130), width=3)
    c.line([(94, 186), (162, 186)], fill=(150, 140, 130), width=3)


def sky(c):
    def moon_shape():
        c.circle(150, 100, 56, fill=255)
        c.circle(178, 82, 50, fill=0)

    c.clipped(moon_shape, lambda: c.circle(150, 100, 56, fill=(255, 236, 150)))
    for x, y, r in ((60, 60, 9), (86, 150, 6), (200, 170, 8), (56, 196, 5), (150, 206, 7), (206, 46, 5), (110, 36, 4)):
        star(c, x, y, r, (255, 246, 200))
    c.ellipse(40, 190, 140, 230, fill=(80, 70, 130))
    c.ellipse(100, 180, 220, 234, fill=(96, 86, 150))


def star(c, cx, cy, r, fill):
    pts = []
    for i in range(10):
        radius = r * 2 if i % 2 == 0 else r * 0.8
        angle = math.pi / 2 + i * math.pi / 5
        pts.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    c.polygon(pts, fill=fill)


def toxic(c):
    c.circle(128, 128, 96, fill=(250, 216, 40))
    black = (26, 22, 30)
    for start in (-120, 0, 120):
        c.pie(52, 52, 204, 204, start - 30, start + 30, fill=black)
    c.circle(128, 128, 30, fill=(250, 216, 40))
    c.circle(128, 128, 18, fill=black)
    c.circle(128, 128, 96, outline=black, width=8)


def ic_book(c):
    c.polygon([(56, 60), (128, 78), (128, 212), (56, 194)], fill=(40, 110, 200))
    c.polygon([(200, 60), (128, 78), (128, 212), (200, 194)], fill=(30, 90, 170))
    c.polygon([(64, 52), (128, 68), (128, 200), (64, 184)], fill=(255, 255, 250))
    c.polygon([(192, 52), (128, 68), (128, 200), (192, 184)], fill=(246, 244, 236))
    for i in range(5):
        y = 86 + i * 18
        c.line([(76, y), (118, y + 10)], fill=(180, 190, 210), width=3)
        c.line([(138, y + 10), (180, y)], fill=(180, 190, 210), width=3)
    c.polygon([(150, 56), (166, 52), (166, 96), (158, 88), (150, 96)], fill=(230, 60, 70))


def ic_backpack(c):
    c.arc(96, 30, 160, 90, 180, 360, fill=(150, 60, 40), width=10)
    c.rect(58, 66, 198, 222, fill=(230, 90, 60), radius=40)
    c.rect(82, 148, 174, 210, fill=(200, 70, 45), radius=16)
    c.line([(82, 168), (174, 168)], fill=(255, 210, 80), width=4)
    c.rect(120, 160, 136, 176, fill=(255, 210, 80), radius=3)
    c.line([(92, 90), (92, 134)], fill=(200, 70, 45), width=8)
    c.line([(164, 90), (164, 134)], fill=(200, 70, 45), width=8)


def ic_camera(c):
    c.rect(70, 62, 120, 90, fill=(60, 64, 80), radius=6)
    c.rect(160, 56, 190, 78, fill=(230, 80, 80), radius=5)
    c.rect(34, 80, 222, 204, fill=(70, 74, 92), radius=22)
    c.rect(34, 112, 222, 178, fill=(52, 56, 70))
    c.circle(128, 142, 50, fill=(230, 232, 240))
    c.circle(128, 142, 38, fill=(40, 60, 100))
    c.circle(128, 142, 22, fill=(20, 30, 60))
    c.circle(116, 130, 8, fill=(160, 190, 240))
    c.rect(178, 92, 206, 106, fill=(255, 230, 120), radius=3)


def ic_coffee(c):
    c.line([(100, 40), (94, 56), (104, 70), (98, 84)], fill=(255, 255, 255), width=5)
    c.line([(130, 34), (124, 50), (134, 64), (128, 80)], fill=(255, 255, 255), width=5)
    c.line([(160, 40), (154, 56), (164, 70), (158, 84)], fill=(255, 255, 255), width=5)
    c.ellipse(36, 194, 220, 228, fill=(250, 250, 250))
    c.arc(160, 112, 216, 170, 270, 90, fill=(250, 250, 250), width=12)
    c.polygon([(58, 100), (198, 100), (184, 190), (72, 190)], fill=(250, 250, 250))
    c.ellipse(72, 176, 184, 202, fill=(250, 250, 250))
    c.ellipse(58, 90, 198, 112, fill=(110, 66, 40))
    c.rect(70, 130, 186, 150, fill=(230, 90, 70))


def ic_glasses(c):
    frame = (40, 40, 60)
    c.line([(40, 112), (20, 100)], fill=frame, width=8)
    c.line([(216, 112), (236, 100)], fill=frame, width=8)
    for cx in (82, 174):
        c.circle(cx, 128, 46, fill=(180, 230, 250))
        c.circle(cx, 128, 46, outline=frame, width=10)
        c.arc(cx - 30, 98, cx + 10, 138, 180, 250, fill=(255, 255, 255), width=6)
    c.arc(108, 108, 148, 140, 200, 340, fill=frame, width=9)


def ic_ice_cream(c):
    cone = [(84, 138), (172, 138), (128, 236)]
    c.polygon(cone, fill=(226, 170, 90))

    def hatch():
        for i in range(-6, 7):
            c.line([(60 + i * 20, 120), (140 + i * 20, 250)], fill=(190, 130, 60), width=3)
            c.line([(196 + i * 20, 120), (116 + i * 20, 250)], fill=(190, 130, 60), width=3)

    c.clipped(lambda: c.polygon(cone, fill=255), hatch)
    c.circle(100, 128, 32, fill=(250, 190, 210))
    c.circle(156, 128, 32, fill=(140, 210, 160))
    c.circle(128, 92, 36, fill=(250, 240, 200))
    c.ellipse(78, 140, 178, 158, fill=(250, 190, 210))
    c.circle(128, 52, 13, fill=(220, 30, 60))
    c.line([(128, 40), (140, 24)], fill=(60, 120, 50), width=3)
    for x, y, color in ((114, 88, (240, 80, 120)), (138, 100, (80, 160, 240)), (130, 78, (250, 200, 40))):
        c.line([(x, y), (x + 6, y - 4)], fill=color, width=4)


def ic_smoking_pipe(c):
    c.line([(66, 84), (58, 66), (70, 48), (62, 30)], fill=(240, 240, 250), width=6)
    c.line([(90, 80), (84, 62), (96, 44)], fill=(240, 240, 250), width=5)
    c.line([(100, 168), (150, 170), (190, 150), (214, 128)], fill=(150, 80, 40), width=18)
    c.line([(206, 136), (228, 114)], fill=(30, 26, 30), width=14)
    c.polygon([(44, 96), (120, 96), (120, 170), (104, 198), (60, 198), (44, 170)], fill=(150, 80, 40))
    c.ellipse(44, 84, 120, 108, fill=(90, 46, 24))
    c.ellipse(52, 88, 112, 104, fill=(240, 120, 40))
    c.line([(58, 120), (58, 170)], fill=(180, 110, 60), width=4)
    c.rect(44, 136, 120, 146, fill=(200, 170, 60))


def ic_vespa(c):
    c.circle(66, 180, 30, fill=(40, 40, 50))
    c.circle(66, 180, 13, fill=(190, 190, 200))
    c.circle(190, 180, 30, fill=(40, 40, 50))
    c.circle(190, 180, 13, fill=(190, 190, 200))
    green = (90, 190, 170)
    c.polygon([(120, 176), (236, 176), (226, 128), (196, 110), (150, 118), (140, 150)], fill=green)
    c.polygon([(52, 160), (84, 160), (100, 70), (84, 66)], fill=green)
    c.line([(82, 168), (130, 168)], fill=green, width=14)
    c.ellipse(36, 140, 96, 178, fill=green)
    c.rect(150, 100, 218, 116, fill=(120, 70, 50), radius=8)
    c.line([(70, 62), (110, 56)], fill=(60, 60, 70), width=7)
    c.circle(86, 76, 10, fill=(255, 240, 160))


def iconstore(c):
    c.arc(90, 46, 166, 122, 180, 360, fill=(255, 255, 255), width=10)
    c.rect(56, 84, 200, 214, fill=(255, 255, 255), radius=18)
    star(c, 128, 150, 17, (250, 170, 40))


ICONS = {
    "candle": (NIGHT, candle),
    "cat": (NIGHT, cat),
    "dribbble": (((255, 236, 244), (250, 200, 222)), dribbble),
    "ghost": (NIGHT, ghost),
    "hat": (((250, 210, 140), (236, 150, 70)), hat),
    "owl": (NIGHT, owl),
    "pot": (NIGHT, pot),
    "pumkin": (NIGHT, pumkin),
    "rip": (NIGHT, rip),
    "skull": (((120, 40, 60), (50, 16, 30)), skull),
    "sky": (((40, 30, 80), (90, 60, 150)), sky),
    "toxic": (((40, 60, 40), (16, 30, 18)), toxic),
    "ic_book": (((250, 220, 120), (245, 180, 70)), ic_book),
    "ic_backpack": (((150, 220, 240), (90, 170, 220)), ic_backpack),
    "ic_camera": (((255, 200, 160), (245, 150, 120)), ic_camera),
    "ic_coffee": (((190, 150, 120), (130, 90, 70)), ic_coffee),
    "ic_glasses": (((250, 240, 150), (250, 200, 90)), ic_glasses),
    "ic_ice_cream": (((170, 220, 250), (120, 170, 240)), ic_ice_cream),
    "ic_smoking_pipe": (((170, 200, 180), (100, 140, 120)), ic_smoking_pipe),
    "ic_vespa": (((255, 230, 200), (250, 180, 150)), ic_vespa),
    "iconstore": (((120, 110, 250), (80, 60, 200)), iconstore),
}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Sources", "Apps", "IconStore", "Assets")
    os.makedirs(out, exist_ok=True)
    for name, ((top, bottom), draw) in ICONS.items():
        canvas = Canvas(top, bottom)
        draw(canvas)
        canvas.save(os.path.join(out, name + ".png"))
    print(f"wrote {len(ICONS)} icons to {out}")


if __name__ == "__main__":
    main()
