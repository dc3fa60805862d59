#!/usr/bin/env bash
# Writes the seed corpus of fuzz-picture (docs/FUZZING.md) into Fuzz/Corpus/picture: small
# pictures in each of the content's formats, made here (nothing copied from elsewhere) with
# libvips' `vips` command (Debian: libvips-tools) and given a phone's metadata with exiftool
# (libimage-exiftool-perl): a JPEG turned by its EXIF orientation with a GPS position, a PNG
# with transparency, a HEIC, a WebP, and a grey JPEG with a Display P3 profile. Deterministic:
# the same tools write the same bytes.
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
exiftool -q -overwrite_original -n -Orientation=6 "${phone[@]}" "$scratch/turned.jpg"
vips bandjoin_const "$scratch/drawing.ppm" "$scratch/alpha.png" 128
vips copy "$scratch/drawing.ppm" "$scratch/photo.heic[Q=50]"
exiftool -q -overwrite_original "${phone[@]}" "$scratch/photo.heic"
vips copy "$scratch/drawing.ppm" "$scratch/photo.webp[Q=70]"
vips icc_transform "$scratch/drawing.ppm" "$scratch/p3.v" p3 --input-profile srgb --embedded=false
vips colourspace "$scratch/p3.v" "$scratch/grey.v" b-w
vips copy "$scratch/grey.v" "$scratch/grey.jpg[Q=80]"
for file in turned.jpg alpha.png photo.heic photo.webp grey.jpg; do
  cp "$scratch/$file" "$corpus/${file%.*}-${file##*.}.seed"
done
ls -l "$corpus"
