#!/usr/bin/env python3
"""Write the placeholder images that the Café Digno content refers to.

Reads the content XML files (catalog.xml, home.xml, company.xml, products/, recipes/,
retailers/), collects every image path they name, and writes exactly those files under
content/images/ as small PNG tiles: a coffee colour chosen from the file name, with the
initials of the thing the image belongs to ("CL" for Café Latte, "DG" for Deling Group)
drawn in a contrasting colour with a built-in 5x7 bitmap font.

    icons and tab icons   64 x 64
    logos                160 x 80
    pictures             320 x 240

An image named in several places is one file. PNG files under content/images/ that no
content file names are deleted. Standard library only; the output is deterministic: the
same content gives the same bytes on every run, and a file whose bytes would not change is
not rewritten.

Usage: python3 scripts/make-placeholder-images.py [CONTENT_DIR]
       (CONTENT_DIR defaults to the content/ folder next to this script's folder)

Over 300 lines, and kept in one file on purpose: fifty of its lines are the bitmap font, and
one file is what an editor copies and runs with nothing else installed.
"""

import hashlib
import re
import struct
import sys
import unicodedata
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

SIZES = {
    "icon": (64, 64),
    "logo": (160, 80),
    "picture": (320, 240),
}

# Background and text colours: browns and creams, each pair readable.
PALETTE = [
    ((0x3B, 0x2A, 0x20), (0xF3, 0xE5, 0xC8)),  # espresso / cream
    ((0x4E, 0x34, 0x2E), (0xFF, 0xF4, 0xE0)),  # dark roast / milk
    ((0x6F, 0x4E, 0x37), (0xFA, 0xEB, 0xD7)),  # coffee / foam
    ((0x8B, 0x5A, 0x3C), (0xFF, 0xF8, 0xEE)),  # cinnamon / milk
    ((0xC6, 0x8E, 0x5B), (0x2E, 0x1F, 0x16)),  # caramel / espresso
    ((0xD9, 0xB9, 0x9B), (0x3B, 0x2A, 0x20)),  # latte / espresso
    ((0xE6, 0xC7, 0x9C), (0x4A, 0x2F, 0x1F)),  # crema / roast
    ((0xF3, 0xE5, 0xC8), (0x5A, 0x3A, 0x28)),  # cream / mocha
]

# 5x7 glyphs, one string of five characters per row, '#' for ink.
FONT = {
    "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "B": ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
    "C": [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
    "D": ["###..", "#..#.", "#...#", "#...#", "#...#", "#..#.", "###.."],
    "E": ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
    "F": ["#####", "#....", "#....", "####.", "#....", "#....", "#...."],
    "G": [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"],
    "H": ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "I": [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "J": ["..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."],
    "K": ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"],
    "L": ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
    "M": ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"],
    "N": ["#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"],
    "O": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
    "P": ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."],
    "Q": [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"],
    "R": ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
    "S": [".####", "#....", "#....", ".###.", "....#", "....#", "####."],
    "T": ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
    "U": ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
    "V": ["#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."],
    "W": ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."],
    "X": ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"],
    "Y": ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."],
    "Z": ["#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"],
    "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    "3": ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
    "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
    "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
    "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
}

# Words left out of initials: company forms ("Deling Group Oy" is "DG").
LEGAL_FORMS = {"oy", "oyj", "ab", "ky", "tmi", "ltd", "inc"}

SRC_PATTERN = re.compile(r"images/[a-z0-9]+(?:[-_/][a-z0-9]+)*\.png")


class ContentError(Exception):
    """A problem in the content that stops the script."""


def base_letter(char):
    """'é' -> 'E', 'ä' -> 'A'; a character the font lacks -> ''."""
    decomposed = unicodedata.normalize("NFKD", char)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c)).upper()
    return "".join(c for c in letters if c in FONT)


def initials(name):
    """The initials of a name, at most three: 'Café au Lait' -> 'CAL'."""
    words = [w for w in re.split(r"[\s\-–/]+", name) if w]
    words = [w for w in words if w.lower() not in LEGAL_FORMS] or words
    letters = ""
    for word in words:
        for char in word:
            letter = base_letter(char)
            if letter:
                letters += letter
                break
    return letters[:3] or "?"


# ----- PNG -----

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, colours, pixels, title):
    """An 8-bit palette PNG. pixels is a bytearray of palette indices, row by row. The
    title (the file's own path) goes in a tEXt chunk, so no two files have the same bytes."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter: none
        raw += pixels[y * width:(y + 1) * width]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    palette = b"".join(bytes(colour) for colour in colours)
    return (b"\x89PNG\r\n\x1a\n"
            + png_chunk(b"IHDR", header)
            + png_chunk(b"PLTE", palette)
            + png_chunk(b"tEXt", b"Title\0" + title.encode("latin-1"))
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


def blend(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def colours_for(src):
    """The background and ink of a file, from its name. The pictures of one thing
    (x-icon, x-1, x-2) take different colours so that they can be told apart."""
    match = re.fullmatch(r"(.*?)(?:-(icon|logo|\d+))?\.png", src)
    group, suffix = match.group(1), match.group(2) or ""
    variant = int(suffix) if suffix.isdigit() else 0
    digest = hashlib.sha256(group.encode("utf-8")).digest()
    return PALETTE[(digest[0] + 3 * variant) % len(PALETTE)]


def render(src, size, text):
    """The PNG bytes of one tile: background, a thin frame, the text centred."""
    width, height = size
    background, ink = colours_for(src)
    frame = blend(background, ink, 0.35)
    pixels = bytearray(width * height)  # index 0: background

    # Frame: a line inset from the edge.
    inset = max(3, height // 16)
    thickness = max(1, height // 80)
    for y in range(inset, height - inset):
        for x in range(inset, width - inset):
            if (y < inset + thickness or y >= height - inset - thickness
                    or x < inset + thickness or x >= width - inset - thickness):
                pixels[y * width + x] = 2

    # Text: 5x7 glyphs with one column between them, scaled to fit.
    units_wide = 6 * len(text) - 1
    scale = max(1, min(int(width * 0.7) // units_wide, int(height * 0.55) // 7))
    left = (width - units_wide * scale) // 2
    top = (height - 7 * scale) // 2
    for index, char in enumerate(text):
        glyph = FONT.get(char)
        if glyph is None:
            continue
        for row, line in enumerate(glyph):
            for col, mark in enumerate(line):
                if mark != "#":
                    continue
                x0 = left + (index * 6 + col) * scale
                y0 = top + row * scale
                for y in range(y0, y0 + scale):
                    start = y * width + x0
                    pixels[start:start + scale] = b"\x01" * scale
    return png_bytes(width, height, [background, ink, frame], pixels, title=src)


# ----- Reading the content -----

def parse(path):
    try:
        return ET.parse(path).getroot()
    except (ET.ParseError, OSError) as error:
        raise ContentError(f"{path}: cannot read it as XML: {error}") from error


def text_of(element, tag, path):
    child = element.find(tag)
    if child is None or not (child.text or "").strip():
        raise ContentError(f"{path}: <{tag}> is missing or empty")
    return child.text.strip()


def collect(content):
    """Every image the content names, in a fixed order: [(src, kind, initials, where)]."""
    found = []

    def add(element, kind, name, path):
        if element is not None and element.get("src"):
            found.append((element.get("src"), kind, initials(name), path))

    names = {"product": {}, "recipe": {}}
    for folder, tag, logo in (("products", "product", "icon"),
                              ("recipes", "recipe", "icon"),
                              ("retailers", "retailer", "logo")):
        for path in sorted((content / folder).glob("*.xml")):
            root = parse(path)
            name = text_of(root, "name", path)
            if tag in names:
                names[tag][path.stem] = name
            add(root.find(logo), "icon" if logo == "icon" else "logo", name, path)
            for image in root.findall("images/image"):
                add(image, "picture", name, path)

    catalog_path = content / "catalog.xml"
    catalog = parse(catalog_path)
    brand = text_of(catalog, "brand", catalog_path)

    company_path = content / "company.xml"
    if company_path.exists():
        company = parse(company_path)
        name = text_of(company, "name", company_path)
        add(company.find("logo"), "logo", name, company_path)
        for image in company.findall("images/image"):
            add(image, "picture", name, company_path)

    home_path = content / "home.xml"
    if home_path.exists():
        home = parse(home_path)
        add(home.find("logo"), "logo", brand, home_path)
        add(home.find("image"), "picture", brand, home_path)
        for promotion in home.findall("promotions/promotion"):
            name = brand
            link = promotion.find("link")
            if link is not None:
                for kind in ("product", "recipe"):
                    if link.get(kind) in names[kind]:
                        name = names[kind][link.get(kind)]
            add(promotion.find("image"), "picture", name, home_path)

    for section in catalog.findall("sections/section"):
        title = text_of(section, "title", catalog_path)
        add(section.find("icon"), "icon", title, catalog_path)

    return found


def plan(content):
    """{src: (size, initials)}, one entry per distinct file."""
    files = {}
    for src, kind, text, path in collect(content):
        if not SRC_PATTERN.fullmatch(src):
            raise ContentError(
                f"{path}: image '{src}' is not a placeholder this script can make; "
                "name a PNG under images/ in lower case, for example images/recipes/cafe-latte-1.png")
        size = SIZES[kind]
        if src in files and files[src][0] != size:
            raise ContentError(
                f"{path}: '{src}' is used as a {kind} ({size[0]}x{size[1]}) and elsewhere at "
                f"{files[src][0][0]}x{files[src][0][1]}; give each use its own file")
        files.setdefault(src, (size, text))
    return files


def main(argv):
    content = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "content"
    try:
        files = plan(content)
    except ContentError as error:
        print(f"make-placeholder-images: {error}", file=sys.stderr)
        return 1

    written = unchanged = 0
    for src in sorted(files):
        size, text = files[src]
        target = content / src
        data = render(src, size, text)
        if target.exists() and target.read_bytes() == data:
            unchanged += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1

    images = content / "images"
    removed = 0
    for path in sorted(images.rglob("*.png")):
        if path.relative_to(content).as_posix() not in files:
            path.unlink()
            removed += 1
    for folder in sorted((p for p in images.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()

    print(f"{len(files)} images: {written} written, {unchanged} unchanged, {removed} stale removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
