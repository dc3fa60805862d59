"""Photos as a phone saves them, for the studio's browser tests: a JPEG whose top eighth is dark
(where that ends up tells which way up it is shown), turned by its EXIF orientation, with the
place, the phone and the day it was taken; made by Debian's `vips` and exiftool."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Pictures"))
import picture_files  # noqa: E402


def phone_photo(folder, name, width, height, orientation):
    """A JPEG of `width` × `height` stored pixels in `folder`, named `name`; its path."""
    os.makedirs(folder, exist_ok=True)
    drawing = os.path.join(folder, name + ".ppm")
    with open(drawing, "wb") as file:
        file.write(b"P6 %d %d 255\n" % (width, height))
        for y in range(height):
            file.write((bytes([30, 30, 30]) if y < height // 8 else bytes([200, 150, 90])) * width)
    path = os.path.join(folder, name)
    picture_files.encode(drawing, path, "Q=85")
    subprocess.run([picture_files.tool("exiftool", "libimage-exiftool-perl"), "-q", "-overwrite_original", "-n", "-Orientation=%d" % orientation,
                    "-Make=Apple", "-Model=iPhone 13", "-DateTimeOriginal=2026:11:03 10:22:05", "-GPSLatitude=60.1699", "-GPSLatitudeRef=N",
                    "-GPSLongitude=24.9384", "-GPSLongitudeRef=E", path], check=True)
    return path
