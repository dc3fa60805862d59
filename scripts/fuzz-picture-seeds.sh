#!/usr/bin/env bash
# Writes the seed corpus of fuzz-picture (docs/FUZZING.md) into Fuzz/Corpus/picture: small
# pictures in each of the content's formats, made here (nothing copied from elsewhere) with
# libvips' `vips` command (Debian: libvips-tools) and given a phone's metadata with exiftool
# (libimage-exiftool-perl): a JPEG turned by its EXIF orientation with a GPS position and an
# EXIF thumbnail, a PNG with transparency, a HEIC (and one with a thumbnail item), a WebP, a
# grey JPEG with a Display P3 profile and a progressive JPEG; and the hostile pictures of
# Tests/Pictures, small. Deterministic: the same tools write the same bytes.
#
#   bash scripts/fuzz-picture-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in vips exiftool python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: libvips-tools, libimage-exiftool-perl, python3)" >&2; exit 2; }
done
corpus=Fuzz/Corpus/picture
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$corpus"
rm -f "$corpus"/*.seed

# A 24 × 16 drawing: two halves and a marker in the top left corner.
python3 - "$scratch/drawing.ppm" <<'PYTHON'
import sys
width, height = 24, 16
rows = []
for y in range(height):
    for x in range(width):
        rows += (40, 200, 60) if x < 3 and y < 2 else (200, 60, 40) if x < width // 2 else (40, 90, 200)
open(sys.argv[1], "wb").write(b"P6 %d %d 255\n" % (width, height) + bytes(rows))
PYTHON
phone=(-Make=Apple "-Model=iPhone 15 Pro" -GPSLatitude=60.1699 -GPSLatitudeRef=N -GPSLongitude=24.9384 -GPSLongitudeRef=E)

vips copy "$scratch/drawing.ppm" "$scratch/turned.jpg[Q=80]"
# With an EXIF thumbnail, as cameras write one (the preview's stand-in reads it).
vips thumbnail "$scratch/drawing.ppm" "$scratch/thumbnail.jpg" 8
exiftool -q -overwrite_original -n -Orientation=6 "${phone[@]}" "-ThumbnailImage<=$scratch/thumbnail.jpg" "$scratch/turned.jpg"
vips bandjoin_const "$scratch/drawing.ppm" "$scratch/alpha.png" 128
vips copy "$scratch/drawing.ppm" "$scratch/photo.heic[Q=50]"
exiftool -q -overwrite_original "${phone[@]}" "$scratch/photo.heic"
vips copy "$scratch/drawing.ppm" "$scratch/photo.webp[Q=70]"
vips icc_transform "$scratch/drawing.ppm" "$scratch/p3.v" p3 --input-profile srgb --embedded=false
vips colourspace "$scratch/p3.v" "$scratch/grey.v" b-w
vips copy "$scratch/grey.v" "$scratch/grey.jpg[Q=80]"
vips copy "$scratch/drawing.ppm" "$scratch/progressive.jpg[Q=80,interlace]"
# Pictures as an attacker makes them (Tests/Pictures/picture_files.py writes them): a HEIC whose
# boxes say 2 x 2 pixels of its 24 x 16 stream, one whose grid's tiles lie the same way, one
# in Display P3 by its nclx box; a progressive JPEG of 150 scans; PNGs whose image data is not
# zlib, is cut short, or has bytes changed under a right CRC.
PYTHONPATH=Tests/Pictures python3 - "$scratch" <<'PYTHON'
import sys, zlib
import picture_files as files
scratch = sys.argv[1]
hvcc, data = files.hevc_image(f"{scratch}/photo.heic")
def write(name, data):
    open(f"{scratch}/{name}", "wb").write(data)
write("lying.heic", files.heif([(hvcc, data, (2, 2), None)]))
write("lying-grid.heic", files.heif_grid([(hvcc, data)] * 4, 2, 2, (4, 4)))
write("nclx.heic", files.heif([(hvcc, data, (24, 16), files.nclx(12))]))
write("thumbnailed.heic", files.heif([(hvcc, data, (24, 16), None)] * 2, thumbnail_of=0))
write("scans.jpg", files.with_scans(open(f"{scratch}/progressive.jpg", "rb").read(), 150))
rows = files.pattern_rows(24, 16, (120, 80, 40))
pixels = b"".join(rows)
stream = zlib.compress(b"".join(b"\0" + row for row in rows), 9)
write("not-zlib.png", files.png(24, 16, pixels, idat=bytes(range(256))))
write("short.png", files.png(24, 16, pixels, idat=stream[:len(stream) // 2]))
# Full boxes shorter than their version and flags (a `meta` of two bytes, an `iinf` of one),
# which fuzz-picture once found read as backwards ranges.
def box(kind, content):
    return (8 + len(content)).to_bytes(4, "big") + kind + content
ftyp = box(b"ftyp", b"heic\0\0\0\0mif1heic")
write("short-meta.heic", ftyp + box(b"meta", b"\0\0"))
write("short-iinf.heic", ftyp + box(b"meta", b"\0\0\0\0" + box(b"pitm", b"\0\0\0\0\0\1") + box(b"iinf", b"\1")))
flipped = bytearray(stream)
flipped[len(flipped) // 2] ^= 0x55
write("flipped.png", files.png(24, 16, pixels, idat=bytes(flipped)))
PYTHON
for file in turned.jpg alpha.png photo.heic photo.webp grey.jpg progressive.jpg lying.heic lying-grid.heic nclx.heic thumbnailed.heic scans.jpg not-zlib.png short.png flipped.png short-meta.heic short-iinf.heic; do
  cp "$scratch/$file" "$corpus/${file%.*}-${file##*.}.seed"
done
ls -l "$corpus"
