"""Pictures as an attacker and a careless camera make them, through `digno build` of the shipped
content with one product's pictures replaced: every decode bounded in memory (the build's peak,
from wait4) and in scans, damaged pixel data refused rather than shipped, the primary image
rather than an embedded thumbnail, formats told by what they are, and colours passed through or
converted as the file says (the renditions decoded by Pillow, independent of libvips).

    python3 -m unittest discover -s Tests/Pictures -v

Needs Debian's libvips-tools (vips) and libimage-exiftool-perl, and Pillow; `DIGNO` names the
binary (default: .build/debug/digno).
"""

import io
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import tempfile
import threading
import unittest
import zlib

import picture_files as files

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))
# What a build may take in all: the budget (docs/CONTENT-FORMAT.md, "Pictures").
BUDGET_MB = 500


def pillow():
    try:
        from PIL import Image
    except ImportError:
        raise AssertionError("Pillow is not installed, and this test runs it (pip install pillow)")
    return Image


class Build:
    """A build's outcome: exit status, output, errors and the process's peak memory."""

    def __init__(self, status, output, errors, peak_mb, bundle):
        self.status, self.output, self.errors, self.peak_mb, self.bundle = status, output, errors, peak_mb, bundle

    def diagnostics(self, code):
        return [line for line in self.errors.splitlines() if line.endswith(f"[{code}]")]


class PictureCase(unittest.TestCase):
    def setUp(self):
        if not os.path.exists(DIGNO):
            raise AssertionError(f"{DIGNO} does not exist: run `swift build` first, or name the binary with DIGNO=")
        self.folder = tempfile.mkdtemp(prefix="digno-hostile-pictures-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.scratch = os.path.join(self.folder, "scratch")
        os.makedirs(self.scratch)

    def path(self, name):
        return os.path.join(self.scratch, name)

    # Where a picture goes: the coffee beans' first and second pictures, and their icon.
    SLOTS = {"first": "images/products/coffee-beans-1.png", "second": "images/products/coffee-beans-2.png",
             "icon": "images/products/coffee-beans-icon.png"}

    def build(self, **pictures):
        """`digno build` of the shipped content with each slot's picture (name, bytes) in place."""
        content = os.path.join(self.folder, f"content-{len(os.listdir(self.folder))}")
        shutil.copytree(os.path.join(REPOSITORY, "content"), content)
        entity = os.path.join(content, "products", "coffee-beans.xml")
        with open(entity, encoding="utf-8") as file:
            text = file.read()
        for slot, (name, data) in pictures.items():
            os.makedirs(os.path.dirname(os.path.join(content, "images/products", name)), exist_ok=True)
            with open(os.path.join(content, "images/products", name), "wb") as file:
                file.write(data)
            text = text.replace(f'src="{self.SLOTS[slot]}"', f'src="images/products/{name}"')
        with open(entity, "w", encoding="utf-8") as file:
            file.write(text)
        bundle = os.path.join(self.folder, f"{os.path.basename(content)}.sqlite")
        with tempfile.TemporaryFile("w+") as output, tempfile.TemporaryFile("w+") as errors:
            process = subprocess.Popen([DIGNO, "build", content, "--output", bundle], stdout=output, stderr=errors, text=True)
            # Killed if it takes far longer than any build here should (a hang is a failure).
            timer = threading.Timer(600, process.kill)
            timer.start()
            # wait4: the build's own peak resident memory.
            _, status, usage = os.wait4(process.pid, 0)
            timer.cancel()
            process.returncode = os.waitstatus_to_exitcode(status)
            output.seek(0)
            errors.seek(0)
            return Build(process.returncode, output.read(), errors.read(), usage.ru_maxrss / 1024, bundle)

    def assertNoDecoderLines(self, build):
        """No line of a decoder's own on the terminal: its words only inside a diagnostic."""
        for line in build.errors.splitlines():
            self.assertNotRegex(line, r"VIPS-WARNING|^\(digno:|^(VIPS|vips|libpng|libjpeg|Corrupt|Premature|heif|Warning|WARNING|\*\*)",
                                "a decoder's line reached the terminal")

    def renditions(self, bundle, slot="first"):
        """The picture's rows: its JPEG or PNG, then its WebPs, as (media type, bytes)."""
        connection = sqlite3.connect(f"file:{bundle}?mode=ro", uri=True)
        try:
            if slot == "icon":
                image = connection.execute("SELECT icon FROM products WHERE id = 'coffee-beans'").fetchone()[0]
            else:
                position = 1 if slot == "first" else 2
                image = connection.execute("SELECT image FROM product_images WHERE product_id = 'coffee-beans' AND position = ?", (position,)).fetchone()[0]
            rows = connection.execute("SELECT media_type, bytes FROM images WHERE sha256 = ?", (image,)).fetchall()
            rows += connection.execute("SELECT media_type, bytes FROM renditions WHERE image = ? ORDER BY width DESC", (image,)).fetchall()
            return rows
        finally:
            connection.close()

    def centre(self, data):
        """The colour Pillow decodes at the middle of a picture, as RGB."""
        image = pillow().open(io.BytesIO(data)).convert("RGB")
        return image.getpixel((image.width // 2, image.height // 2))

    def assertNear(self, found, expected, tolerance, what=""):
        self.assertTrue(all(abs(a - b) <= tolerance for a, b in zip(found, expected)),
                        f"{what}: {tuple(found)} is not within ±{tolerance} of {tuple(expected)}")

    def jpeg(self, name, width, height, colour=(150, 90, 60), options="Q=90", grain=True):
        ppm = self.path(name + ".ppm")
        files.ppm(ppm, width, height, colour, grain=grain)
        path = self.path(name)
        files.encode(ppm, path, options)
        with open(path, "rb") as file:
            return file.read()

    def heic(self, name, width, height, colour, options=""):
        """A HEIC vips encodes of a flat `colour`: its primary image's hvcC box and coded data."""
        ppm = self.path(name + ".ppm")
        files.ppm(ppm, width, height, colour, grain=False)
        path = self.path(name + ".heic")
        files.encode(ppm, path, options)
        return files.hevc_image(path)


class MemoryTests(PictureCase):
    def test_a_heic_coded_far_larger_than_it_says_is_refused_before_a_pixel_is_decoded(self):
        hvcc, data = self.heic("large", 2400, 2400, (120, 80, 40))
        # The file says 240 × 240; its stream decodes to 2400 × 2400.
        lying = files.heif([(hvcc, data, (240, 240), None)])
        build = self.build(first=("lying.heic", lying))
        self.assertEqual(build.status, 1, build.errors)
        [line] = build.diagnostics("image-damaged")
        self.assertIn("'images/products/lying.heic' is damaged: the HEIC file says its picture is 240×240 pixels, but holds one of 5.8 megapixels", line)
        # Nothing of it was decoded: the build's own memory, far below a decode of 5.8 MP.
        self.assertLess(build.peak_mb, 200)

    def test_the_largest_pictures_within_the_limits_build_under_the_budget_two_at_a_time(self):
        # Two 48-megapixel HEICs, as the largest phone cameras take them (a flat colour: the
        # decoder's memory does not depend on what the picture shows).
        ppm = self.path("large.ppm")
        files.ppm(ppm, 8064, 6048, (120, 80, 40), grain=False)
        heics = []
        for number in range(2):
            path = self.path(f"large-{number}.heic")
            files.encode(ppm, path, f"Q={50 + number}")
            with open(path, "rb") as file:
                heics.append(file.read())
        build = self.build(first=("large-1.heic", heics[0]), second=("large-2.heic", heics[1]))
        self.assertEqual(build.status, 0, build.errors)
        self.assertLess(build.peak_mb, BUDGET_MB, "two 48-megapixel HEICs")

        # Two 8064 × 6048 progressive JPEGs with full colour resolution (4:4:4): libjpeg keeps
        # every coefficient of each, 290 MB.
        jpegs = [self.jpeg(f"progressive-{number}.jpg", 8064, 6048, (120, 80, 40 + number), "interlace,subsample_mode=off,Q=90", grain=False)
                 for number in range(2)]
        build = self.build(first=("progressive-1.jpg", jpegs[0]), second=("progressive-2.jpg", jpegs[1]))
        self.assertEqual(build.status, 0, build.errors)
        self.assertLess(build.peak_mb, BUDGET_MB, "two progressive 4:4:4 JPEGs of 48 megapixels")

        # Two 49-megapixel 16-bit interlaced PNGs of a few hundred KB.
        pngs = []
        for number in range(2):
            files.vips("black", self.path("black.v"), 7000, 7000, "--bands", 3)
            files.vips("linear", self.path("black.v"), self.path("float.v"), "1 1 1", f"32896 16448 {49344 + number}")
            files.vips("cast", self.path("float.v"), self.path("short.v"), "ushort")
            files.vips("copy", self.path("short.v"), self.path("rgb16.v"), "--interpretation", "rgb16")
            path = self.path(f"deep-{number}.png")
            files.encode(self.path("rgb16.v"), path, "interlace,bitdepth=16")
            with open(path, "rb") as file:
                pngs.append(file.read())
        build = self.build(first=("deep-1.png", pngs[0]), second=("deep-2.png", pngs[1]))
        self.assertEqual(build.status, 0, build.errors)
        self.assertLess(build.peak_mb, BUDGET_MB, "two 49-megapixel 16-bit interlaced PNGs")
        self.assertNoDecoderLines(build)

    def test_a_picture_whose_decode_alone_passes_the_budget_is_refused_with_its_reason(self):
        # A progressive CMYK JPEG of 50 megapixels at full resolution: four components' every
        # coefficient, 400 MB.
        ppm = self.path("cmyk.ppm")
        files.ppm(ppm, 8150, 6130, (120, 80, 40), grain=False)
        files.vips("colourspace", ppm, self.path("cmyk.v"), "cmyk")
        path = self.path("cmyk.jpg")
        files.encode(self.path("cmyk.v"), path, "interlace,subsample_mode=off,Q=90")
        with open(path, "rb") as file:
            data = file.read()
        build = self.build(first=("cmyk.jpg", data))
        self.assertEqual(build.status, 1, build.errors)
        [line] = build.diagnostics("image-dimensions")
        self.assertRegex(line, r"image 'images/products/cmyk\.jpg' would take about \d+ MB to decode \(a progressive JPEG keeps every part of "
                               r"the picture in memory while decoding\), more than the 400 MB a picture may take")
        self.assertLess(build.peak_mb, 200)


class ScanTests(PictureCase):
    def test_a_progressive_jpeg_of_too_many_scans_is_refused_before_decoding(self):
        progressive = self.jpeg("progressive.jpg", 640, 480, options="interlace,Q=90")
        ordinary = len(files.scans(progressive))
        self.assertLess(ordinary, 20)
        build = self.build(first=("ordinary.jpg", progressive))
        self.assertEqual(build.status, 0, build.errors)
        many = files.with_scans(progressive, 20000)
        self.assertLess(len(many), 16 << 20)
        build = self.build(first=("scans.jpg", many))
        self.assertEqual(build.status, 1, build.errors)
        [line] = build.diagnostics("image-dimensions")
        self.assertIn("'images/products/scans.jpg' is a progressive JPEG in 20000 scans, more than the 100 a picture may have", line)


class DamageTests(PictureCase):
    def damaged(self, name, data):
        build = self.build(first=(name, data))
        self.assertEqual(build.status, 1, f"{name}: {build.errors}")
        lines = build.diagnostics("image-damaged")
        self.assertEqual(len(lines), 1, f"{name}: {build.errors}")
        self.assertIn(f"'images/products/{name}' ", lines[0])
        self.assertNoDecoderLines(build)
        return lines[0]

    def test_pixel_data_a_decoder_would_make_up_is_refused(self):
        width, height = 300, 200
        stream = files.grained_png_stream(width, height, (120, 80, 40))
        pixels = b"".join(files.pattern_rows(width, height, (120, 80, 40)))
        # Image data that is not zlib at all: libpng made the picture black.
        not_zlib = files.png(width, height, pixels, idat=bytes(range(256)) * 64)
        line = self.damaged("not-zlib.png", not_zlib)
        self.assertIn("is damaged: part of its picture data is missing or broken", line)
        self.assertRegex(line, r"copy or export it again from the original \(.+\) \[image-damaged\]$")
        # Too short: half the stream, its chunk's CRC right.
        self.damaged("short.png", files.png(width, height, pixels, idat=stream[:len(stream) // 2]))
        # Bytes changed inside the stream, the CRC made right again (the lower half garbage).
        flipped = bytearray(stream)
        for index in range(len(flipped) // 2, len(flipped) // 2 + 8):
            flipped[index] ^= 0x55
        self.damaged("flipped.png", files.png(width, height, pixels, idat=bytes(flipped)))

        # A JPEG cut in half and closed with an end-of-image marker: libjpeg made its lower half
        # flat grey.
        jpeg = self.jpeg("photo.jpg", 640, 480)
        line = self.damaged("half.jpg", jpeg[:len(jpeg) // 2] + b"\xff\xd9")
        self.assertIn("(Corrupt JPEG data: premature end of data segment)", line)

        # A camera's JPEG, its EXIF thumbnail's own markers inside its APP1 segment, cut in half:
        # cut short, though the thumbnail's end-of-image marker is in the half that is left.
        thumbnail = self.path("thumbnail.jpg")
        files.vips("thumbnail", self.path("photo.jpg"), thumbnail, 160)
        camera = self.path("camera.jpg")
        shutil.copy(self.path("photo.jpg"), camera)
        exiftool = files.tool("exiftool", "libimage-exiftool-perl")
        subprocess.run([exiftool, "-q", "-overwrite_original", f"-ThumbnailImage<={thumbnail}", "-Make=Canon", camera], check=True)
        with open(camera, "rb") as file:
            data = file.read()
        self.assertIn(b"\xff\xd9", data[:len(data) // 2], "the thumbnail's end-of-image marker is in the half left")
        line = self.damaged("camera-half.jpg", data[:len(data) // 2])
        self.assertIn("is cut short", line)

    def test_a_warning_about_metadata_is_no_damage(self):
        width, height = 300, 200
        pixels = b"".join(files.pattern_rows(width, height, (120, 80, 40)))
        # An iCCP chunk whose profile is no profile: libpng warns about the profile alone.
        iccp = files.chunk(b"iCCP", b"broken\0\0" + zlib.compress(b"not an ICC profile" * 10))
        build = self.build(first=("odd-profile.png", files.png(width, height, pixels, before_idat=iccp)))
        self.assertEqual(build.status, 0, build.errors)
        self.assertNoDecoderLines(build)
        # A JPEG whose ICC marker is out of sequence (libjpeg: "bad ICC marker").
        jpeg = self.jpeg("photo.jpg", 640, 480)
        marker = b"ICC_PROFILE\0\x02\x01" + b"nothing"
        odd = jpeg[:2] + b"\xff\xe2" + struct.pack(">H", 2 + len(marker)) + marker + jpeg[2:]
        build = self.build(first=("odd-profile.jpg", odd))
        self.assertEqual(build.status, 0, build.errors)
        self.assertNoDecoderLines(build)


class PrimaryImageTests(PictureCase):
    def test_renditions_come_from_the_primary_image_never_its_thumbnail(self):
        # As after an edit on the phone: the image red, the thumbnail still the old blue one.
        red = self.heic("red", 1200, 1200, (220, 30, 30))
        blue = self.heic("blue", 320, 320, (30, 30, 220))
        edited = files.heif([(red[0], red[1], (1200, 1200), None), (blue[0], blue[1], (320, 320), None)], thumbnail_of=1)
        # As the icon (180 px at 3×), which the thumbnail covers: libvips' thumbnail took it.
        build = self.build(icon=("edited.heic", edited))
        self.assertEqual(build.status, 0, build.errors)
        for media_type, data in self.renditions(build.bundle, "icon"):
            self.assertNear(self.centre(data), (220, 30, 30), 8, media_type)


class GridTests(PictureCase):
    def test_a_grid_of_tiles_as_iphones_write_it_is_one_picture(self):
        # 2 × 2 tiles of 256 × 256, each its own colour, 500 × 500 in all (the last row and
        # column cut, as a photo's size rarely divides by 512).
        colours = [(220, 30, 30), (30, 200, 30), (30, 30, 220), (230, 230, 40)]
        tiles = [self.heic(f"tile-{number}", 256, 256, colour) for number, colour in enumerate(colours)]
        grid = files.heif_grid(tiles, 2, 2, (500, 500))
        build = self.build(first=("grid.heic", grid))
        self.assertEqual(build.status, 0, build.errors)
        Image = pillow()
        for media_type, data in self.renditions(build.bundle):
            image = Image.open(io.BytesIO(data)).convert("RGB")
            self.assertEqual(image.size[0], image.size[1], media_type)
            for (x, y), colour in zip([(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)], colours):
                self.assertNear(image.getpixel((int(x * image.width), int(y * image.height))), colour, 8, f"{media_type} at {x}, {y}")
        # Tiles coded far larger than their share of the grid: refused before decoding.
        large = [self.heic(f"large-{number}", 1024, 1024, colour) for number, colour in enumerate(colours)]
        build = self.build(first=("lying-grid.heic", files.heif_grid(large, 2, 2, (500, 500))))
        self.assertEqual(build.status, 1, build.errors)
        [line] = build.diagnostics("image-damaged")
        self.assertIn("says its picture is 500×500 pixels, but holds one of 4.2 megapixels", line)


class FormatTests(PictureCase):
    def refused(self, name, data, code):
        build = self.build(first=(name, data))
        self.assertEqual(build.status, 1, build.errors)
        lines = build.diagnostics(code)
        self.assertEqual(len(lines), 1, build.errors)
        self.assertNoDecoderLines(build)
        return lines[0]

    def test_formats_are_told_by_what_they_are(self):
        hvcc, data = self.heic("small", 64, 64, (120, 80, 40))
        # An AVIF whose major brand is the general `mif1`: its image is AV1, not HEVC.
        avif = files.heif([(hvcc, data, (64, 64), None)], primary_type=b"av01")
        self.assertIn("'images/products/avif.heic' is an AVIF picture, not a JPEG, PNG, HEIC or WebP file",
                      self.refused("avif.heic", avif, "image-format"))
        self.assertIn("is a JPEG XL picture, not a JPEG, PNG, HEIC or WebP file",
                      self.refused("photo.jxl", b"\xff\x0a" + b"\0" * 64, "image-format"))
        jpeg = self.jpeg("photo.jpg", 64, 48)
        self.assertIn("'images/products/deep.jpg' is a 12-bit JPEG, which the app cannot show",
                      self.refused("deep.jpg", files.with_frame(jpeg, precision=12), "image-format"))
        self.assertIn("'images/products/lossless.jpg' is a lossless JPEG, which the app cannot show",
                      self.refused("lossless.jpg", files.with_frame(jpeg, marker=0xC3), "image-format"))
        # Over what the decoders take (libjpeg 65,500 a side, libheif 16,384): over the limits,
        # not damaged.
        self.assertIn("'images/products/wide.jpg' is 65535×48 pixels",
                      self.refused("wide.jpg", files.with_frame(jpeg, width=65535), "image-dimensions"))
        wide = files.heif([(hvcc, data, (20000, 64), None)])
        self.assertIn("'images/products/wide.heic' is 20000×64 pixels", self.refused("wide.heic", wide, "image-dimensions"))

    def test_a_link_out_is_outside_the_root_wherever_it_is_on_the_path(self):
        outside = os.path.join(self.folder, "outside")
        os.makedirs(os.path.join(outside, "deep"))
        with open(os.path.join(outside, "deep", "photo.png"), "wb") as file:
            file.write(files.flat_png(64, 64, (120, 80, 40)))
        build = self.build(first=("placeholder.png", files.flat_png(64, 64, (1, 2, 3))))
        root = build.bundle[:-len(".sqlite")]
        os.symlink(outside, os.path.join(root, "images", "products", "elsewhere"))
        entity = os.path.join(root, "products", "coffee-beans.xml")
        with open(entity, encoding="utf-8") as file:
            text = file.read().replace("images/products/placeholder.png", "images/products/elsewhere/deep/photo.png")
        with open(entity, "w", encoding="utf-8") as file:
            file.write(text)
        result = subprocess.run([DIGNO, "validate", root], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual([line for line in result.stdout.splitlines() if "[image-outside-root]" in line], [
            "products/coffee-beans.xml:30:5: error: 'images/products/elsewhere/deep/photo.png' leads outside the content folder through "
            "'images/products/elsewhere', a symbolic link to a folder outside it; put the image itself in the content folder [image-outside-root]"])
        # The link is used (by the path that leads out): not also to be removed as unused.
        self.assertNotIn("images/products/elsewhere: warning", result.stdout)


class ColourTests(PictureCase):
    def test_a_picture_without_a_profile_passes_through_as_it_is(self):
        for name, data, expected in [
            ("red.png", files.flat_png(300, 200, (230, 20, 20)), (230, 20, 20)),
            ("grey.png", files.flat_png(300, 200, (100,)), (100, 100, 100)),
            ("deep.png", files.flat_png(300, 200, (128 * 257, 64 * 257, 192 * 257), depth=16), (128, 64, 192)),
        ]:
            build = self.build(first=(name, data))
            self.assertEqual(build.status, 0, build.errors)
            rows = self.renditions(build.bundle)
            # The PNG, and its lossless WebPs: within one level.
            self.assertEqual({media_type for media_type, _ in rows}, {"image/png", "image/webp"}, name)
            for media_type, rendition in rows:
                self.assertNear(self.centre(rendition), expected, 1, f"{name} as {media_type}")
        # A JPEG without a profile: its JPEG and lossy WebPs within three levels of what Pillow
        # decodes of the source.
        jpeg = self.jpeg("red.jpg", 640, 480, (230, 20, 20), grain=False)
        source = self.centre(jpeg)
        build = self.build(first=("red.jpg", jpeg))
        self.assertEqual(build.status, 0, build.errors)
        for media_type, rendition in self.renditions(build.bundle):
            self.assertNear(self.centre(rendition), source, 3, f"red.jpg as {media_type}")

    def test_a_heic_in_display_p3_by_its_nclx_box_keeps_its_colours(self):
        # sRGB (200, 60, 40) as Display P3 values, stored as an iPhone stores them: no ICC
        # profile, an nclx box naming the P3 primaries (12) and sRGB's transfer (13).
        ppm = self.path("srgb.ppm")
        files.ppm(ppm, 640, 480, (200, 60, 40), grain=False)
        files.vips("icc_transform", ppm, self.path("p3.v"), "p3", "--input-profile", "srgb", "--embedded=false")
        files.encode(self.path("p3.v"), self.path("p3.heic"), "strip,Q=90")
        hvcc, data = files.hevc_image(self.path("p3.heic"))
        p3 = files.heif([(hvcc, data, (640, 480), files.nclx(12))])
        build = self.build(first=("p3.heic", p3))
        self.assertEqual(build.status, 0, build.errors)
        for media_type, rendition in self.renditions(build.bundle):
            self.assertNear(self.centre(rendition), (200, 60, 40), 4, f"p3.heic as {media_type}")
        # The same pixels said to be sRGB (primaries 1) pass through as they are: the P3 values.
        same = files.heif([(hvcc, data, (640, 480), files.nclx(1))])
        build = self.build(first=("same.heic", same))
        self.assertEqual(build.status, 0, build.errors)
        shown = self.centre(self.renditions(build.bundle)[0][1])
        self.assertFalse(all(abs(a - b) <= 6 for a, b in zip(shown, (200, 60, 40))), f"{shown}: the P3 values were converted")


if __name__ == "__main__":
    unittest.main()
