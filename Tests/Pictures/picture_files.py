"""Pictures as an attacker or a careless camera makes them, made by the tests (no binary fixture):
PNG files written chunk by chunk here, JPEG and HEIC files encoded by Debian's `vips` command and
then cut, patched or rewrapped here, and HEIF files put together box by box from the HEVC streams
of those (a thumbnail that is another picture, a size that lies, an `nclx` colour, an AVIF's item
type)."""

import os
import shutil
import struct
import subprocess
import zlib


def tool(name, package):
    path = shutil.which(name)
    if not path:
        raise AssertionError(f"{name} is not installed, and this test runs it (Debian: apt-get install {package})")
    return path


def vips(*arguments):
    result = subprocess.run([tool("vips", "libvips-tools"), *map(str, arguments)], capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"vips {' '.join(map(str, arguments))} failed: {result.stderr}")


def pattern_rows(width, height, colour, seed=1):
    """Rows of `colour` with a deterministic grain of ±24 levels (so that a codec's stream is as
    long as a photo's, and cutting it cuts pixels), as bytes per row."""
    rows = []
    state = seed
    for _ in range(height):
        row = bytearray()
        for _ in range(width):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            grain = (state >> 16) % 49 - 24
            row += bytes(max(0, min(255, channel + grain)) for channel in colour)
        rows.append(bytes(row))
    return rows


def ppm(path, width, height, colour, grain=True):
    """A binary PPM of `colour`, with a grain or flat."""
    rows = pattern_rows(width, height, colour) if grain else [bytes(colour) * width] * height
    with open(path, "wb") as file:
        file.write(b"P6 %d %d 255\n" % (width, height))
        for row in rows:
            file.write(row)


def encode(source, path, options=""):
    """`source` (any file vips reads) saved as `path`'s format with vips' save `options`."""
    vips("copy", source, f"{path}[{options}]" if options else path)


# PNG, chunk by chunk.

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, pixels, colour_type=2, depth=8, idat=None, before_idat=b""):
    """A PNG of `pixels` (the rows' samples, filter byte added here), or with `idat` as its image
    data whatever it is; its chunks' CRCs are right either way."""
    stride = len(pixels) // height
    raw = b"".join(b"\x00" + pixels[row * stride:(row + 1) * stride] for row in range(height))
    data = zlib.compress(raw, 9) if idat is None else idat
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + before_idat + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def flat_png(width, height, colour, depth=8):
    """A PNG of one colour, 8 or 16 bits a sample (grey if `colour` has one sample)."""
    if depth == 16:
        sample = b"".join(struct.pack(">H", value) for value in colour)
    else:
        sample = bytes(colour)
    return png(width, height, sample * width * height, colour_type=2 if len(colour) == 3 else 0, depth=depth)


def grained_png_stream(width, height, colour):
    """The zlib stream of a grained picture's rows, as a PNG's image data holds it."""
    rows = pattern_rows(width, height, colour)
    raw = b"".join(b"\x00" + row for row in rows)
    return zlib.compress(raw, 9)


# JPEG, patched.

def markers(data):
    """The JPEG's segments before its first scan: (offset, marker, length)."""
    found = []
    index = 2
    while index + 4 <= len(data):
        marker = data[index + 1]
        length = struct.unpack(">H", data[index + 2:index + 4])[0]
        found.append((index, marker, length))
        if marker == 0xDA:
            break
        index += 2 + length
    return found


def frame_offset(data):
    return next(offset for offset, marker, _ in markers(data) if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC))


def with_frame(data, marker=None, precision=None, width=None, height=None):
    """The JPEG with its start-of-frame marker, precision or size changed."""
    data = bytearray(data)
    offset = frame_offset(data)
    if marker is not None:
        data[offset + 1] = marker
    if precision is not None:
        data[offset + 4] = precision
    if height is not None:
        data[offset + 5:offset + 7] = struct.pack(">H", height)
    if width is not None:
        data[offset + 7:offset + 9] = struct.pack(">H", width)
    return bytes(data)


def scans(data):
    """The JPEG's scans: (start of the SOS marker, end of its entropy-coded data)."""
    found = []
    index = 2
    while index + 4 <= len(data):
        marker = data[index + 1]
        if marker == 0xD9:
            break
        length = struct.unpack(">H", data[index + 2:index + 4])[0]
        end = index + 2 + length
        if marker == 0xDA:
            at = end
            while True:
                at = data.index(b"\xff", at)
                if data[at + 1] == 0 or 0xD0 <= data[at + 1] <= 0xD7:
                    at += 2
                    continue
                break
            found.append((index, at))
            end = at
        index = end
    return found


def with_scans(data, count):
    """A progressive JPEG with its shortest scan repeated after its last until it has `count`
    scans (as a file made to be slow has them: 20,000 scans in 2 MB)."""
    found = scans(data)
    start, end = min(found, key=lambda scan: scan[1] - scan[0])
    last = found[-1][1]
    return data[:last] + data[start:end] * (count - len(found)) + data[last:]


# HEIF, box by box.

def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def children(data, start, end):
    found = []
    index = start
    while index + 8 <= end:
        size, kind = struct.unpack(">I4s", data[index:index + 8])
        found.append((kind, index, index + size))
        index += size
    return found


def hevc_image(path):
    """The primary image of a HEIC file vips wrote: its whole `hvcC` box and its coded data."""
    with open(path, "rb") as file:
        data = file.read()
    top = {kind: (start, end) for kind, start, end in children(data, 0, len(data))}
    meta_start, meta_end = top[b"meta"]
    meta = {kind: (start, end) for kind, start, end in children(data, meta_start + 12, meta_end)}
    pitm = meta[b"pitm"]
    primary = struct.unpack(">H", data[pitm[0] + 12:pitm[0] + 14])[0]
    iprp = meta[b"iprp"]
    inside = {kind: (start, end) for kind, start, end in children(data, iprp[0] + 8, iprp[1])}
    properties = children(data, inside[b"ipco"][0] + 8, inside[b"ipco"][1])
    hvcc = next(data[start:end] for kind, start, end in properties if kind == b"hvcC")
    # iloc as vips writes it: version 0 or 1, 4-byte offsets and lengths, one extent an item.
    start, end = meta[b"iloc"]
    version = data[start + 8]
    sizes = struct.unpack(">H", data[start + 12:start + 14])[0]
    offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    index_size = sizes & 15 if version >= 1 else 0
    at = start + 14
    count = struct.unpack(">H", data[at:at + 2])[0]
    at += 2

    def number(size):
        nonlocal at
        value = int.from_bytes(data[at:at + size], "big") if size else 0
        at += size
        return value

    for _ in range(count):
        item = number(2)
        if version >= 1:
            number(2)
        number(2)
        base = number(base_size)
        extents = number(2)
        pieces = []
        for _ in range(extents):
            number(index_size)
            offset = number(offset_size)
            length = number(length_size)
            pieces.append(data[base + offset:base + offset + length])
        if item == primary:
            return hvcc, b"".join(pieces)
    raise AssertionError(f"{path}: no data for the primary image")


def heif(images, primary_type=b"hvc1", brand=b"mif1", thumbnail_of=None):
    """A HEIF file of `images`, each (hvcC box, coded data, (width, height) its ispe says, colr
    box or None); the first is the primary image, of item type `primary_type`; with
    `thumbnail_of`, the second is the first's thumbnail (a `thmb` reference)."""
    count = len(images)
    infe = b"".join(full_box(b"infe", 2, 0, struct.pack(">HH", number + 1, 0) + (primary_type if number == 0 else b"hvc1") + b"\0")
                    for number in range(count))
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", count) + infe)
    properties = []
    associations = b""
    for number, (hvcc, _, size, colr) in enumerate(images):
        own = [hvcc, full_box(b"ispe", 0, 0, struct.pack(">II", *size))] + ([colr] if colr else [])
        first = len(properties) + 1
        properties += own
        associations += struct.pack(">HB", number + 1, len(own)) + bytes(0x80 | (first + index) for index in range(len(own)))
    ipco = box(b"ipco", b"".join(properties))
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", count) + associations)
    iprp = box(b"iprp", ipco + ipma)
    iref = full_box(b"iref", 0, 0, box(b"thmb", struct.pack(">HHH", 2, 1, 1))) if thumbnail_of is not None else b""
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", 1))
    ftyp = box(b"ftyp", brand + b"\0\0\0\0mif1heic")

    def build(offsets):
        iloc_entries = b"".join(struct.pack(">HHHII", number + 1, 0, 1, offsets[number], len(image[1])) for number, image in enumerate(images))
        iloc = full_box(b"iloc", 0, 0, struct.pack(">BBH", 0x44, 0x00, count) + iloc_entries)
        meta = full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iprp + iref)
        return ftyp + meta

    head = build([0] * count)
    offsets = []
    at = len(head) + 8
    for image in images:
        offsets.append(at)
        at += len(image[1])
    return build(offsets) + box(b"mdat", b"".join(image[1] for image in images))


def heif_grid(tiles, columns, rows, size, colr=None):
    """A HEIF file whose primary image is a grid of HEVC `tiles` (each (hvcC box, coded data),
    `columns` × `rows` of them, left to right, top to bottom) of `size` in all, as iPhones write
    their photos; `colr` on the grid."""
    count = len(tiles)
    grid_id = count + 1
    infe = b"".join(full_box(b"infe", 2, 0, struct.pack(">HH", number + 1, 1) + b"hvc1" + b"\0") for number in range(count))
    infe += full_box(b"infe", 2, 0, struct.pack(">HH", grid_id, 0) + b"grid" + b"\0")
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", count + 1) + infe)
    tile_width, tile_height = (size[0] + columns - 1) // columns, (size[1] + rows - 1) // rows
    properties = [tiles[0][0], full_box(b"ispe", 0, 0, struct.pack(">II", tile_width, tile_height)),
                  full_box(b"ispe", 0, 0, struct.pack(">II", *size))] + ([colr] if colr else [])
    associations = b"".join(struct.pack(">HBBB", number + 1, 2, 0x81, 0x02) for number in range(count))
    grid_properties = [3] + ([4] if colr else [])
    associations += struct.pack(">HB", grid_id, len(grid_properties)) + bytes(0x80 | index for index in grid_properties)
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", count + 1) + associations)
    iprp = box(b"iprp", box(b"ipco", b"".join(properties)) + ipma)
    iref = full_box(b"iref", 0, 0, box(b"dimg", struct.pack(">HH", grid_id, count) + b"".join(struct.pack(">H", number + 1) for number in range(count))))
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", grid_id))
    ftyp = box(b"ftyp", b"heic\0\0\0\0mif1heic")
    grid = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, *size)
    datas = [tile[1] for tile in tiles] + [grid]

    def build(offsets):
        entries = b"".join(struct.pack(">HHHII", number + 1, 0, 1, offsets[number], len(data)) for number, data in enumerate(datas))
        iloc = full_box(b"iloc", 0, 0, struct.pack(">BBH", 0x44, 0x00, len(datas)) + entries)
        return ftyp + full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iprp + iref)

    head = build([0] * len(datas))
    offsets = []
    at = len(head) + 8
    for data in datas:
        offsets.append(at)
        at += len(data)
    return build(offsets) + box(b"mdat", b"".join(datas))


def nclx(primaries, transfer=13, matrix=6, full_range=True):
    """A `colr` box of type `nclx`, as iPhones write it (Display P3: primaries 12)."""
    return box(b"colr", b"nclx" + struct.pack(">HHHB", primaries, transfer, matrix, 0x80 if full_range else 0))
