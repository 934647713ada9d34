#!/usr/bin/env python3
"""Draws Parlor's sample sticker pack "Everyday" with Pillow and writes it as an Xcode sticker
catalog: Sources/ParlorStickers/Packs/Everyday.stickerpack/ with a Contents.json, one
`.sticker` folder per still sticker (PNG, or GIF for the hopping chick) and a
`.stickersequence` of PNG frames (the beating heart) that ParlorStickers assembles into an APNG.

Every sticker is 408x408 px (the regular grid), drawn at 3x and scaled down for smooth edges,
with a white die-cut border and a soft shadow. Run from the repository root:

    python3 tools/generate_stickers.py
"""
import json
import math
import shutil
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

SIZE = 408
SCALE = 3
CANVAS = SIZE * SCALE
PACK = Path(__file__).resolve().parent.parent / "Sources/ParlorStickers/Packs/Everyday.stickerpack"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
INFO = {"author": "Parlor", "version": 1}
MAX_BYTES = 500 * 1024


def u(value):
    """A coordinate in 408-px sticker space, scaled to the supersampled canvas."""
    return value * SCALE


def box(x0, y0, x1, y1):
    return [u(x0), u(y0), u(x1), u(y1)]


def canvas():
    image = Image.new("RGBA", (CANVAS, CANVAS), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def die_cut(art, border=9, shadow=True):
    """Puts `art` on a white sticker border with a soft shadow, and scales it to 408 px."""
    alpha = art.getchannel("A")
    grown = alpha.filter(ImageFilter.GaussianBlur(u(border) / 2)).point(lambda v: 255 if v > 8 else 0)
    grown = grown.filter(ImageFilter.GaussianBlur(SCALE))
    result = Image.new("RGBA", art.size, (0, 0, 0, 0))
    if shadow:
        shade = Image.new("RGBA", art.size, (40, 30, 60, 0))
        shade.putalpha(grown.filter(ImageFilter.GaussianBlur(u(5))).point(lambda v: v * 0.28))
        result.alpha_composite(ImageChops.offset(shade, 0, u(5)))
    white = Image.new("RGBA", art.size, (255, 255, 255, 0))
    white.putalpha(grown)
    result.alpha_composite(white)
    result.alpha_composite(art)
    return result.resize((SIZE, SIZE), Image.LANCZOS)


def text(draw, center, string, size, fill, stroke=None, stroke_width=0):
    font = ImageFont.truetype(FONT, u(size))
    draw.text((u(center[0]), u(center[1])), string, font=font, fill=fill, anchor="mm",
              stroke_width=u(stroke_width), stroke_fill=stroke)


def happy_eyes(draw, left, right, y, width=22, color=(70, 45, 40, 255)):
    for x in (left, right):
        draw.arc(box(x - width / 2, y - width / 2, x + width / 2, y + width / 2), 200, 340, fill=color, width=u(6))


def cheeks(draw, left, right, y, color=(255, 128, 128, 150)):
    for x in (left, right):
        draw.ellipse(box(x - 18, y - 11, x + 18, y + 11), fill=color)


def star_points(cx, cy, outer, inner, points=5, rotation=-90):
    result = []
    for index in range(points * 2):
        radius = outer if index % 2 == 0 else inner
        angle = math.radians(rotation + index * 180 / points)
        result.append((u(cx + radius * math.cos(angle)), u(cy + radius * math.sin(angle))))
    return result


def heart_points(cx, cy, scale):
    result = []
    for step in range(240):
        t = 2 * math.pi * step / 240
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        result.append((u(cx + x * scale), u(cy - y * scale)))
    return result


def sparkle(draw, cx, cy, size, color=(255, 255, 255, 255)):
    draw.polygon(star_points(cx, cy, size, size * 0.28, points=4, rotation=-90), fill=color)


# MARK: The stickers

def sun():
    image, draw = canvas()
    for index in range(12):
        angle = math.radians(index * 30 + 15)
        tip = (204 + 178 * math.cos(angle), 204 + 178 * math.sin(angle))
        side = math.radians(9)
        base_a = (204 + 118 * math.cos(angle - side), 204 + 118 * math.sin(angle - side))
        base_b = (204 + 118 * math.cos(angle + side), 204 + 118 * math.sin(angle + side))
        draw.polygon([(u(x), u(y)) for x, y in (tip, base_a, base_b)], fill=(255, 167, 38, 255))
    draw.ellipse(box(82, 82, 326, 326), fill=(255, 202, 40, 255))
    draw.ellipse(box(100, 96, 312, 300), fill=(255, 213, 79, 255))
    happy_eyes(draw, 162, 246, 196, width=34)
    cheeks(draw, 136, 272, 236)
    draw.chord(box(168, 214, 240, 274), 0, 180, fill=(140, 60, 50, 255))
    draw.chord(box(186, 244, 222, 272), 180, 360, fill=(255, 138, 128, 255))
    return image


def coffee():
    image, draw = canvas()
    for offset in (-42, 0, 42):
        points = [(u(204 + offset + 12 * math.sin(step / 3)), u(150 - step * 4)) for step in range(22)]
        draw.line(points, fill=(176, 190, 197, 255), width=u(10), joint="curve")
    draw.ellipse(box(262, 196, 344, 290), outline=(229, 115, 115, 255), width=u(20))
    draw.rounded_rectangle(box(104, 170, 292, 346), radius=u(36), fill=(239, 83, 80, 255))
    draw.ellipse(box(104, 150, 292, 196), fill=(198, 40, 40, 255))
    draw.ellipse(box(116, 156, 280, 190), fill=(109, 76, 65, 255))
    draw.ellipse(box(150, 162, 200, 176), fill=(161, 136, 127, 255))
    draw.polygon(heart_points(198, 262, 2.6), fill=(255, 255, 255, 235))
    return image


def pizza():
    image, draw = canvas()
    draw.polygon([(u(80), u(110)), (u(328), u(110)), (u(204), u(360))], fill=(255, 202, 40, 255))
    for x, depth in ((130, 36), (196, 54), (262, 30)):
        draw.rounded_rectangle(box(x - 14, 110, x + 14, 130 + depth), radius=u(14), fill=(255, 202, 40, 255))
    draw.rounded_rectangle(box(66, 72, 342, 124), radius=u(26), fill=(215, 150, 80, 255))
    draw.rounded_rectangle(box(78, 80, 330, 104), radius=u(12), fill=(230, 176, 110, 255))
    for cx, cy in ((160, 160), (246, 168), (204, 236), (196, 310)):
        draw.ellipse(box(cx - 24, cy - 24, cx + 24, cy + 24), fill=(211, 47, 47, 255))
        for dx, dy in ((-8, -6), (7, 5), (-3, 10)):
            draw.ellipse(box(cx + dx - 3, cy + dy - 3, cx + dx + 3, cy + dy + 3), fill=(150, 30, 30, 255))
    for cx, cy in ((140, 204), (268, 214), (210, 176)):
        draw.ellipse(box(cx - 7, cy - 4, cx + 7, cy + 4), fill=(104, 159, 56, 255))
    return image


def cat():
    image, draw = canvas()
    fur, inner = (158, 158, 170, 255), (255, 171, 145, 255)
    draw.polygon([(u(84), u(70)), (u(176), u(130)), (u(96), u(200))], fill=fur)
    draw.polygon([(u(324), u(70)), (u(232), u(130)), (u(312), u(200))], fill=fur)
    draw.polygon([(u(100), u(98)), (u(156), u(136)), (u(108), u(176))], fill=inner)
    draw.polygon([(u(308), u(98)), (u(252), u(136)), (u(300), u(176))], fill=inner)
    draw.ellipse(box(66, 104, 342, 340), fill=fur)
    draw.ellipse(box(146, 230, 262, 322), fill=(236, 236, 240, 255))
    for x in (152, 256):
        draw.ellipse(box(x - 26, 176, x + 26, 232), fill=(124, 179, 66, 255))
        draw.ellipse(box(x - 8, 182, x + 8, 226), fill=(33, 33, 33, 255))
        draw.ellipse(box(x + 6, 186, x + 16, 196), fill=(255, 255, 255, 255))
    draw.polygon([(u(190), u(246)), (u(218), u(246)), (u(204), u(262))], fill=(240, 98, 146, 255))
    draw.arc(box(176, 252, 206, 282), 20, 160, fill=(66, 66, 66, 255), width=u(5))
    draw.arc(box(202, 252, 232, 282), 20, 160, fill=(66, 66, 66, 255), width=u(5))
    for y, slope in ((252, -10), (268, 0), (284, 10)):
        draw.line([(u(138), u(y)), (u(66), u(y + slope))], fill=(90, 90, 100, 255), width=u(4))
        draw.line([(u(270), u(y)), (u(342), u(y + slope))], fill=(90, 90, 100, 255), width=u(4))
    cheeks(draw, 116, 292, 258)
    return image


def rainbow():
    image, draw = canvas()
    colors = [(239, 83, 80), (255, 167, 38), (255, 235, 59), (102, 187, 106), (66, 165, 245), (171, 71, 188)]
    for index, color in enumerate(colors):
        inset = 40 + index * 22
        draw.arc(box(inset, inset + 50, 408 - inset, 408 - inset + 50 + 120), 180, 360, fill=color + (255,), width=u(23))
    for cx in (96, 312):
        for shift, color in ((7, (207, 216, 232, 255)), (0, (250, 250, 255, 255))):
            for dx, dy, radius in ((-36, 0, 30), (0, -18, 42), (38, -4, 32)):
                draw.ellipse(box(cx + dx - radius, 286 + dy - radius + shift, cx + dx + radius, 286 + dy + radius + shift), fill=color)
            draw.rounded_rectangle(box(cx - 66, 280 + shift, cx + 70, 318 + shift), radius=u(19), fill=color)
    return image


def star():
    image, draw = canvas()
    draw.polygon(star_points(204, 214, 176, 76), fill=(255, 160, 0, 255))
    draw.polygon(star_points(204, 218, 150, 66), fill=(255, 202, 40, 255))
    happy_eyes(draw, 172, 236, 214, width=26)
    cheeks(draw, 150, 258, 246)
    draw.chord(box(184, 230, 224, 262), 0, 180, fill=(140, 60, 50, 255))
    sparkle(draw, 340, 70, 30, (255, 213, 79, 255))
    sparkle(draw, 74, 96, 20, (255, 213, 79, 255))
    sparkle(draw, 352, 300, 18, (255, 213, 79, 255))
    return image


def bubble(fill, dark, words, size):
    image, draw = canvas()
    draw.polygon([(u(110), u(270)), (u(170), u(270)), (u(84), u(350))], fill=dark)
    draw.rounded_rectangle(box(40, 92, 368, 292), radius=u(70), fill=dark)
    draw.polygon([(u(118), u(262)), (u(164), u(262)), (u(96), u(330))], fill=fill)
    draw.rounded_rectangle(box(48, 96, 360, 280), radius=u(64), fill=fill)
    draw.rounded_rectangle(box(84, 112, 180, 128), radius=u(8), fill=(255, 255, 255, 90))
    text(draw, (204, 190), words, size, (255, 255, 255, 255), stroke=dark, stroke_width=3)
    return image


def thanks():
    return bubble((66, 165, 245, 255), (21, 101, 192, 255), "THANKS!", 58)


def lol():
    return bubble((240, 98, 146, 255), (173, 20, 87, 255), "LOL", 96)


def cake():
    image, draw = canvas()
    draw.ellipse(box(56, 318, 352, 352), fill=(207, 216, 220, 255))
    draw.rounded_rectangle(box(80, 230, 328, 334), radius=u(18), fill=(244, 143, 177, 255))
    draw.rounded_rectangle(box(116, 160, 292, 240), radius=u(16), fill=(255, 236, 179, 255))
    for x in range(86, 300, 30):
        draw.ellipse(box(x, 220, x + 28, 252), fill=(255, 248, 225, 255))
        draw.rounded_rectangle(box(x + 8, 230, x + 20, 262 + (x % 4) * 6), radius=u(6), fill=(255, 248, 225, 255))
    draw.rectangle(box(82, 222, 326, 238), fill=(255, 248, 225, 255))
    for x, color in ((124, (129, 212, 250)), (190, (255, 213, 79)), (262, (165, 214, 167)), (300, (206, 147, 216))):
        draw.ellipse(box(x, 286, x + 14, 300), fill=color + (255,))
    for x, color in ((156, (100, 181, 246)), (204, (186, 104, 200)), (252, (129, 199, 132))):
        draw.rounded_rectangle(box(x - 8, 96, x + 8, 164), radius=u(4), fill=color + (255,))
        draw.ellipse(box(x - 13, 50, x + 13, 94), fill=(255, 160, 0, 255))
        draw.ellipse(box(x - 7, 66, x + 7, 92), fill=(255, 238, 88, 255))
    return image


def moon():
    image, draw = canvas()
    shape = Image.new("L", image.size, 0)
    mask = ImageDraw.Draw(shape)
    mask.ellipse(box(66, 60, 330, 324), fill=255)
    mask.ellipse(box(150, 30, 380, 260), fill=0)
    glow = Image.new("RGBA", image.size, (255, 213, 79, 255))
    image.paste(glow, (0, 0), shape)
    draw.arc(box(112, 196, 146, 222), 20, 160, fill=(121, 85, 72, 255), width=u(6))
    cheeks(draw, 116, 170, 244)
    draw.arc(box(140, 238, 188, 272), 30, 140, fill=(121, 85, 72, 255), width=u(5))
    for cx, cy, size in ((300, 290, 26), (356, 210, 16), (250, 356, 14)):
        draw.polygon(star_points(cx, cy, size, size * 0.45), fill=(255, 241, 118, 255))
    text(draw, (300, 96), "z", 50, (92, 107, 192, 255))
    text(draw, (340, 56), "z", 34, (92, 107, 192, 255))
    return image


def ghost():
    image, draw = canvas()
    body = (250, 250, 255, 255)
    draw.ellipse(box(92, 52, 316, 276), fill=body)
    draw.rectangle(box(92, 164, 316, 320), fill=body)
    for index in range(4):
        x = 92 + index * 56
        draw.ellipse(box(x, 292, x + 56, 348), fill=body)
    draw.ellipse(box(150, 150, 182, 196), fill=(48, 48, 64, 255))
    draw.ellipse(box(226, 150, 258, 196), fill=(48, 48, 64, 255))
    draw.ellipse(box(160, 158, 170, 170), fill=(255, 255, 255, 255))
    draw.ellipse(box(236, 158, 246, 170), fill=(255, 255, 255, 255))
    draw.ellipse(box(190, 212, 218, 248), fill=(48, 48, 64, 255))
    cheeks(draw, 138, 270, 214, (255, 138, 170, 140))
    draw.ellipse(box(48, 192, 120, 240), fill=body)
    draw.ellipse(box(288, 166, 360, 214), fill=body)
    outline = image.getchannel("A").filter(ImageFilter.FIND_EDGES).filter(ImageFilter.MaxFilter(5))
    edge = Image.new("RGBA", image.size, (159, 168, 218, 255))
    image.paste(edge, (0, 0), outline)
    return image


def cactus():
    image, draw = canvas()
    green, light = (76, 175, 80, 255), (129, 199, 132, 255)
    draw.rounded_rectangle(box(156, 80, 252, 300), radius=u(48), fill=green)
    draw.rounded_rectangle(box(92, 150, 140, 236), radius=u(24), fill=green)
    draw.rounded_rectangle(box(104, 212, 170, 244), radius=u(16), fill=green)
    draw.rounded_rectangle(box(268, 120, 316, 200), radius=u(24), fill=green)
    draw.rounded_rectangle(box(238, 180, 304, 212), radius=u(16), fill=green)
    for x in (180, 228):
        draw.line([(u(x), u(110)), (u(x), u(290))], fill=light, width=u(5))
    for cx, cy in ((190, 60), (218, 60), (190, 86), (218, 86)):
        draw.ellipse(box(cx - 16, cy - 16, cx + 16, cy + 16), fill=(244, 143, 177, 255))
    draw.ellipse(box(194, 62, 214, 82), fill=(255, 238, 88, 255))
    happy_eyes(draw, 186, 222, 176, width=18, color=(27, 94, 32, 255))
    draw.arc(box(192, 186, 216, 206), 20, 160, fill=(27, 94, 32, 255), width=u(5))
    draw.polygon([(u(112), u(272)), (u(296), u(272)), (u(274), u(370)), (u(134), u(370))], fill=(216, 112, 72, 255))
    draw.rounded_rectangle(box(100, 262, 308, 298), radius=u(10), fill=(230, 130, 90, 255))
    return image


def heartbeat_frames():
    frames = []
    for scale in (8.6, 9.4, 10.2, 9.6, 8.8, 9.3, 8.6, 8.6):
        image, draw = canvas()
        draw.polygon(heart_points(204, 212, scale + 0.7), fill=(198, 40, 40, 255))
        draw.polygon(heart_points(204, 208, scale), fill=(239, 83, 80, 255))
        shine = scale / 9.4
        draw.ellipse(box(204 - 104 * shine, 208 - 96 * shine, 204 - 64 * shine, 208 - 62 * shine), fill=(255, 255, 255, 200))
        if scale > 9.5:
            for angle in (-40, 0, 40):
                radians = math.radians(angle - 90)
                sparkle(draw, 204 + 180 * math.cos(radians) * 0.95, 208 + 170 * math.sin(radians) * 0.95, 20, (255, 138, 128, 255))
        frames.append(die_cut(image))
    return frames


def chick_frames():
    frames = []
    for step in range(8):
        hop = abs(math.sin(step * math.pi / 8))
        lift = 64 * hop
        squash = 1 - 0.08 * (1 - hop) if step in (0, 7) else 1 + 0.03 * hop
        image, draw = canvas()
        cy = 222 - lift
        rx, ry = 108 / squash, 112 * squash
        for x in (176, 232):
            draw.line([(u(x), u(cy + ry - 10)), (u(x), u(cy + ry + 14))], fill=(255, 143, 0, 255), width=u(8))
        draw.ellipse(box(204 - rx, cy - ry, 204 + rx, cy + ry), fill=(255, 213, 79, 255))
        draw.pieslice(box(244, cy - 4, 320, cy + 64), 200 - 30 * hop, 340 - 30 * hop, fill=(255, 193, 7, 255))
        draw.pieslice(box(88, cy - 4, 164, cy + 64), 200 + 30 * hop, 340 + 30 * hop, fill=(255, 193, 7, 255))
        for x in (170, 238):
            draw.ellipse(box(x - 11, cy - 40, x + 11, cy - 14), fill=(48, 40, 40, 255))
            draw.ellipse(box(x - 4, cy - 36, x + 3, cy - 29), fill=(255, 255, 255, 255))
        draw.polygon([(u(186), u(cy - 10)), (u(222), u(cy - 10)), (u(204), u(cy + 14))], fill=(255, 112, 67, 255))
        cheeks(draw, 150, 258, cy + 4)
        draw.polygon([(u(196), u(cy - ry + 4)), (u(204), u(cy - ry - 26)), (u(214), u(cy - ry + 4))], fill=(255, 213, 79, 255))
        frames.append(die_cut(image, shadow=False))
    return frames


STICKERS = [
    ("Sunshine", sun, "A smiling yellow sun with rosy cheeks, wishing you a bright morning"),
    ("Coffee", coffee, "A red mug of hot coffee with steam rising and a white heart on it"),
    ("Pizza", pizza, "A slice of pepperoni pizza with melting cheese"),
    ("Cat", cat, "A grey cat face with green eyes and pink ears, purring happily"),
    ("Rainbow", rainbow, "A bright rainbow arching between two fluffy white clouds"),
    ("Star", star, "A smiling golden star with sparkles: you're a star"),
    ("Thanks", thanks, "A blue speech bubble that says Thanks!"),
    ("Birthday", cake, "A pink birthday cake with creamy icing and three lit candles"),
    ("GoodNight", moon, "A sleepy crescent moon among little stars, saying good night"),
    ("Boo", ghost, "A friendly little ghost with rosy cheeks saying boo"),
    ("LOL", lol, "A pink speech bubble that says LOL"),
    ("Cactus", cactus, "A cheerful cactus in a terracotta pot with a pink flower on top"),
]
HEARTBEAT = ("Heartbeat", "A red heart beating with love")
CHICK = ("Chick", "A fluffy yellow chick hopping up and down")


def write_json(path, value):
    path.write_text(json.dumps(value, indent=2) + "\n")


def check(path):
    size = path.stat().st_size
    assert size <= MAX_BYTES, f"{path} is {size} bytes, over the 500 KB limit"
    return size


def main():
    if PACK.exists():
        shutil.rmtree(PACK)
    PACK.mkdir(parents=True)
    listing = []
    for name, draw, description in STICKERS:
        folder = PACK / f"{name}.sticker"
        folder.mkdir()
        file = f"{name.lower()}.png"
        die_cut(draw()).save(folder / file, optimize=True)
        write_json(folder / "Contents.json", {"info": INFO, "properties": {"filename": file, "accessibility-label": description}})
        listing.append({"filename": folder.name})
        print(f"{folder.name}/{file}: {check(folder / file)} bytes")

    name, description = HEARTBEAT
    folder = PACK / f"{name}.stickersequence"
    folder.mkdir()
    frames = []
    for index, frame in enumerate(heartbeat_frames(), start=1):
        file = f"{name.lower()}-{index:02}.png"
        frame.save(folder / file, optimize=True)
        frames.append({"filename": file})
    total = sum(check(folder / frame["filename"]) for frame in frames)
    write_json(folder / "Contents.json", {
        "info": INFO,
        "properties": {"accessibility-label": description, "duration": 10, "duration-type": "fps", "repetitions": 0},
        "frames": frames,
    })
    listing.insert(1, {"filename": folder.name})
    print(f"{folder.name}: {len(frames)} frames, {total} bytes")

    name, description = CHICK
    folder = PACK / f"{name}.sticker"
    folder.mkdir()
    file = f"{name.lower()}.gif"
    frames = chick_frames()
    frames[0].save(folder / file, save_all=True, append_images=frames[1:], duration=90, loop=0, disposal=2, optimize=True)
    write_json(folder / "Contents.json", {"info": INFO, "properties": {"filename": file, "accessibility-label": description}})
    listing.insert(6, {"filename": folder.name})
    print(f"{folder.name}/{file}: {check(folder / file)} bytes")

    write_json(PACK / "Contents.json", {"info": INFO, "properties": {"grid-size": "regular"}, "stickers": listing})


if __name__ == "__main__":
    main()
