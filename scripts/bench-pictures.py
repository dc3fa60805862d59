#!/usr/bin/env python3
"""The pictures' benchmark (docs/BENCHMARKS.md, "Pictures"): the renditions of 100 camera photos.

Makes 100 photos as phones take them, 4032 x 3024 pixels in Display P3 with a GPS position, make
and model and a thumbnail: 50 JPEGs at quality 92 (with an EXIF thumbnail of 160 x 120) and 50
HEICs (with a thumbnail item of 320 x 240) (numpy draws them; vips converts and encodes the
JPEGs and their thumbnails; heif-enc, libheif's encoder, the HEICs; exiftool writes the
metadata). Writes a content
folder whose 50 products and 50 recipes show one photo each. Then, side by side, run for run:

  A  `digno validate` of that folder with no rendition cache (validation makes every rendition,
     as the first build does), and
  B  `vipsthumbnail` making the same renditions, two photos at a time (`xargs -P2`), each
     decoded once as ours are: to 1170 x 2340 in sRGB (an uncompressed .v file), then from that
     the JPEG at quality 80 and the WebPs at quality 75 and effort 1 at 1170, 780 and 390 pixels wide, all
     without metadata,

and prints each one's wall seconds and peak memory (the largest process's, from wait4), the
ratio A/B pair by pair, then a rebuild with every rendition in the cache against the first
build, and the renditions' bytes against the sources'.

Needs numpy, Debian's libvips-tools, libheif-examples and libimage-exiftool-perl, and a release
build of digno (`swift build -c release --product digno`).

  python3 scripts/bench-pictures.py [--work /tmp/digno-bench-pictures] [--runs 5] [--digno PATH]
"""
import argparse
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, HEIGHT = 4032, 3024
PHONE = ["-Make=Apple", "-Model=iPhone 15 Pro", "-GPSLatitude=60.1699", "-GPSLatitudeRef=N",
         "-GPSLongitude=24.9384", "-GPSLongitudeRef=E"]


def run(*arguments, **options):
    subprocess.run(arguments, check=True, **options)


def photos(folder):
    """The 100 photos, made once: photo-00.jpg … photo-49.jpg, photo-50.heic … photo-99.heic."""
    import numpy as np
    done = os.path.join(folder, ".done")
    if os.path.exists(done):
        return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.startswith("photo-"))
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(43)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    # Smooth shapes, a grain at a quarter of the resolution and a fine one: about 5 MB as a
    # JPEG at quality 92 and 2 MB as a HEIC, as a phone's photo of a product on a table.
    base = np.stack([128 + 90 * np.sin(x / 300), 128 + 90 * np.sin(y / 250), 128 + 90 * np.sin((x + y) / 400)], axis=2)
    base += rng.normal(0, 10, (HEIGHT // 4, WIDTH // 4, 3)).astype(np.float32).repeat(4, 0).repeat(4, 1)
    base += rng.normal(0, 4, (HEIGHT, WIDTH, 3)).astype(np.float32)
    made = []
    for index in range(100):
        # Each photo its own: the drawing moved and tinted.
        picture = np.roll(base, (index * 37, index * 53), axis=(0, 1)) + np.array([index % 7 * 6, index % 5 * 8, index % 3 * 10], np.float32)
        ppm = os.path.join(folder, "drawing.ppm")
        with open(ppm, "wb") as file:
            file.write(b"P6 %d %d 255\n" % (WIDTH, HEIGHT) + np.clip(picture, 0, 255).astype(np.uint8).tobytes())
        p3 = os.path.join(folder, "p3.v")
        run("vips", "icc_transform", ppm, p3, "p3", "--input-profile", "srgb", "--embedded=false")
        jpeg = os.path.join(folder, "photo-%02d.jpg" % index)
        run("vips", "copy", p3, jpeg + "[Q=92]")
        if index >= 50:
            heic = os.path.join(folder, "photo-%02d.heic" % index)
            run("heif-enc", "-q", "50", "-p", "preset=ultrafast", "-t", "320", "-o", heic, jpeg, stdout=subprocess.DEVNULL)
            os.remove(jpeg)
            jpeg = heic
        made.append(jpeg)
        print("photo %d of 100" % (index + 1), end="\r", file=sys.stderr)
    os.remove(ppm)
    os.remove(p3)
    run("exiftool", "-q", "-overwrite_original", *PHONE, *made)
    # A camera's EXIF thumbnail, 160 x 120, in each JPEG (a HEIC's is heif-enc's item).
    thumbnail = os.path.join(folder, "thumbnail.jpg")
    for photo in made:
        if photo.endswith(".jpg"):
            run("vips", "thumbnail", photo, thumbnail, "160")
            run("exiftool", "-q", "-overwrite_original", "-ThumbnailImage<=" + thumbnail, photo)
    os.remove(thumbnail)
    open(done, "w").close()
    return made


def content(folder, photos):
    """A valid content folder: the valid fixture's singles and 50 products and 50 recipes with a
    photo each (each recipe uses the product of its number)."""
    shutil.rmtree(folder, ignore_errors=True)
    fixture = os.path.join(REPOSITORY, "Tests/BundleCompilerTests/Fixtures/valid")
    shutil.copytree(fixture, folder, ignore=shutil.ignore_patterns("products", "recipes", "retailers"))
    for sub in ["products", "recipes", "retailers", "images/photos"]:
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    for photo in photos:
        os.link(photo, os.path.join(folder, "images/photos", os.path.basename(photo)))
    shutil.copy(os.path.join(fixture, "retailers/deling-group.xml"), os.path.join(folder, "retailers"))
    for index, photo in enumerate(photos[:50]):
        with open(os.path.join(folder, "products/tuote-%02d.xml" % index), "w") as file:
            file.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<product id="tuote-{index:02d}">
  <name>Tuote {index}</name>
  <icon src="images/icon.png"/>
  <summary>Kahvi numero {index}</summary>
  <body><p>Tuote {index} kuvattuna puhelimella.</p></body>
  <images><image src="images/photos/{os.path.basename(photo)}" alt="Tuote {index}"/></images>
</product>
""")
    for index, photo in enumerate(photos[50:]):
        with open(os.path.join(folder, "recipes/resepti-%02d.xml" % index), "w") as file:
            file.write(f"""<?xml version="1.0" encoding="UTF-8"?>
<recipe id="resepti-{index:02d}">
  <name>Resepti {index}</name>
  <icon src="images/icon.png"/>
  <summary>Kahvijuoma numero {index}</summary>
  <ingredients><ingredient product="tuote-{index:02d}">Tuote {index}</ingredient></ingredients>
  <method><p>Valmista resepti {index}.</p></method>
  <images><image src="images/photos/{os.path.basename(photo)}" alt="Resepti {index}"/></images>
</recipe>
""")
    # The retailer sells, and the home's promotion links, products that still exist.
    for name in ["retailers/deling-group.xml", "home.xml"]:
        path = os.path.join(folder, name)
        numbers = iter(range(50))
        text = re.sub(r'product="[a-z-]+"', lambda _: 'product="tuote-%02d"' % next(numbers), open(path).read())
        open(path, "w").write(text)


def timed(command):
    """Wall seconds, and the peak memory in MB of the largest process `command` runs: the
    command runs under a Python process of its own, whose RUSAGE_CHILDREN peak is then the
    largest of its descendants' (digno itself; the largest of xargs' vipsthumbnails)."""
    probe = ("import resource, subprocess, sys\n"
             "status = subprocess.run(sys.argv[1], shell=True, stdout=subprocess.DEVNULL).returncode\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.exit(status)\n")
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", probe, command], capture_output=True, text=True)
    wall = time.monotonic() - started
    if result.returncode != 0:
        sys.exit("failed: %s\n%s" % (command, result.stderr))
    return wall, int(result.stdout.split()[-1]) / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", default="/tmp/digno-bench-pictures")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--digno", default=os.path.join(REPOSITORY, ".build/release/digno"),
                        help="the binary to measure (another commit's, for a before and after)")
    arguments = parser.parse_args()
    for tool in ["vips", "vipsthumbnail", "heif-enc", "exiftool"]:
        if not shutil.which(tool):
            sys.exit("%s is not installed (Debian: libvips-tools, libheif-examples, libimage-exiftool-perl)" % tool)
    digno = arguments.digno
    if not os.path.exists(digno):
        sys.exit("build digno first: swift build -c release --product digno")
    work = arguments.work
    made = photos(os.path.join(work, "photos"))
    folder = os.path.join(work, "content")
    content(folder, made)
    cache = os.path.join(work, ".digno-cache")
    thumbnails = os.path.join(work, "thumbnails")
    os.makedirs(thumbnails, exist_ok=True)

    ours = f"rm -rf {cache} && {digno} validate {folder}"
    # One photo's ladder, as ours: one decode, then each rendition from its pixels.
    ladder = os.path.join(work, "ladder.sh")
    with open(ladder, "w") as file:
        file.write(f"""set -e
name=$(basename "$1"); out="{thumbnails}/$name"
vipsthumbnail "$1" -s 1170x2340 --export-profile srgb -o "$out.v"
vips copy "$out.v" "$out.jpg[Q=80,strip,optimize_coding]"
for width in 1170 780 390; do
  vipsthumbnail "$out.v" -s "${{width}}x$((width * 2))" -o "$out-$width.webp[Q=75,strip,effort=1]"
done
rm "$out.v"
""")
    theirs = f"ls {folder}/images/photos/* | xargs -P2 -n1 sh {ladder}"
    rows = []
    timed(ours), timed(theirs)  # a warm-up each: the photos in the page cache
    for _ in range(arguments.runs):
        rows.append(timed(ours) + timed(theirs))
    print("first build's renditions (digno validate, no cache) against vipsthumbnail -P2, %d pairs:" % arguments.runs)
    for name, index in [("digno wall s", 0), ("digno peak MB", 1), ("vipsthumbnail wall s", 2), ("vipsthumbnail peak MB", 3)]:
        values = [row[index] for row in rows]
        print("  %-22s median %.2f (%.2f to %.2f)" % (name, statistics.median(values), min(values), max(values)))
    ratios = [row[0] / row[2] for row in rows]
    print("  ratio digno/vipsthumbnail median %.2f (%.2f to %.2f)" % (statistics.median(ratios), min(ratios), max(ratios)))

    # A rebuild with nothing changed against the first build, each with its bundle.
    first_command = f"rm -rf {cache} && {digno} build {folder} --output {work}/out/catalog.sqlite --quiet"
    again_command = f"{digno} build {folder} --output {work}/out/catalog.sqlite --quiet"
    pairs = []
    for _ in range(arguments.runs):
        first = timed(first_command)[0]
        again = timed(again_command)[0]
        pairs.append((first, again))
    print("a rebuild with every rendition cached against a first build, %d pairs:" % arguments.runs)
    print("  first median %.2f s, rebuild median %.2f s, ratio median %.3f" % (
        statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs), statistics.median(p[1] / p[0] for p in pairs)))

    # The photos' renditions in each bundle: their images, and in schema 4 their WebPs too.
    sources = sum(os.path.getsize(photo) for photo in made)
    for bundle in ["catalog.sqlite", "catalog.schema-3.sqlite", "catalog.schema-2.sqlite"]:
        database = sqlite3.connect(os.path.join(work, "out", bundle))
        photos_bytes = database.execute("SELECT sum(byte_count) FROM images WHERE width >= 1000").fetchone()[0]
        if database.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'renditions'").fetchone()[0]:
            photos_bytes += database.execute(
                "SELECT sum(byte_count) FROM renditions WHERE image IN (SELECT sha256 FROM images WHERE width >= 1000)").fetchone()[0]
        print("%s: the photos' renditions %d bytes against %d of sources: %.1f %% smaller" % (
            bundle, photos_bytes, sources, 100 * (1 - photos_bytes / sources)))


if __name__ == "__main__":
    main()
