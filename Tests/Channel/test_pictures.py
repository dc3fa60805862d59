"""Apps from before pictures became renditions, against nginx: a release whose pictures are phone
photos (a JPEG turned by its EXIF orientation, a HEIC, each with a GPS position) is published in
schemas 2 and 3, and the clients apps in the field run install it: `digno` built at
OLD_CLIENT_COMMIT (schema 2) and at SCHEMA_3_CLIENT_COMMIT (the last commit before renditions,
schema 3). Each then writes the static site of what it installed, with its own code, and every
picture of every page is there and decodes (Pillow), the turned photo upright.

    python3 -m unittest discover -s Tests/Channel -v

Needs Debian's libvips-tools (vips) and libimage-exiftool-perl to make the photos, and Pillow.
"""

import glob
import os
import re
import shutil
import subprocess
import sqlite3

from channel_host import REPOSITORY, digno, sha256_file
from channel_case import ChannelTestCase
from test_schemas import OLD_CLIENT_COMMIT, old_client

# The last commit before the pictures issue made renditions of the pictures: its `digno update`
# and CatalogModel are the schema-3 apps in the field.
SCHEMA_3_CLIENT_COMMIT = "6b4fcc7a5aa0448d1b37b73366fe68c8d1e9c47c"


def tool(name, package):
    path = shutil.which(name)
    if not path:
        raise AssertionError(f"{name} is not installed, and this test runs it (Debian: apt-get install {package})")
    return path


def photo(path, width, height, orientation=1):
    """A photo as a phone takes it: two halves and a marker square in the stored top left, with
    a GPS position, make and model, and (a JPEG) an EXIF orientation."""
    ppm = path + ".ppm"
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            rows += bytes((40, 200, 60) if x < width // 8 and y < height // 8 else (200, 60, 40) if x < width // 2 else (40, 90, 200))
    with open(ppm, "wb") as file:
        file.write(b"P6 %d %d 255\n" % (width, height) + rows)
    subprocess.run([tool("vips", "libvips-tools"), "copy", ppm, path + ("[Q=90]" if path.endswith(".jpg") else "[Q=60]")], check=True)
    os.remove(ppm)
    tags = ["-Make=Apple", "-Model=iPhone 15 Pro", "-GPSLatitude=60.1699", "-GPSLatitudeRef=N", "-GPSLongitude=24.9384", "-GPSLongitudeRef=E"]
    if path.endswith(".jpg"):
        tags += ["-n", f"-Orientation={orientation}"]
    subprocess.run([tool("exiftool", "libimage-exiftool-perl"), "-q", "-overwrite_original", *tags, path], check=True)


class OldAppPictureTests(ChannelTestCase):
    SCHEMAS = (3, 2)

    @classmethod
    def setUpClass(cls):
        cls.clients = {2: old_client(OLD_CLIENT_COMMIT), 3: old_client(SCHEMA_3_CLIENT_COMMIT)}
        super().setUpClass()

    def test_apps_from_before_renditions_show_every_picture(self):
        content = os.path.join(self.folder, "content")
        shutil.copytree(os.path.join(REPOSITORY, "content"), content)
        photo(os.path.join(content, "images/products/espresso-phone.jpg"), 640, 480, orientation=6)
        photo(os.path.join(content, "images/recipes/cafe-latte-phone.heic"), 640, 480)
        for entity, old, new in (("products/espresso.xml", "images/products/espresso-1.png", "images/products/espresso-phone.jpg"),
                                 ("recipes/cafe-latte.xml", "images/recipes/cafe-latte-1.png", "images/recipes/cafe-latte-phone.heic")):
            path = os.path.join(content, entity)
            with open(path, encoding="utf-8") as file:
                text = file.read()
            self.assertIn(f'src="{old}"', text)
            with open(path, "w", encoding="utf-8") as file:
                file.write(text.replace(f'src="{old}"', f'src="{new}"'))
            os.remove(os.path.join(content, old))
        release = os.path.join(self.folder, "2026.2.0.sqlite")
        digno("build", content, "--output", release, "--release-version", "2026.2.0", check=0)
        digno("publish", "--bundle", release, "--channel-dir", self.channel, "--key", self.key_file, check=0)

        for schema, client in sorted(self.clients.items()):
            store = os.path.join(self.folder, f"store-{schema}")
            seed = self.release_file(f"seed-{schema}", "2026.1.0", schema)
            result = self.update(check=0, client=client, store=store, seed=seed)
            self.assertRegex(result.stdout, r"^installed release 2026\.2\.0 ")
            served, source, installed = self.serving(client=client, store=store, seed=seed)
            self.assertEqual((served, source), ("2026.2.0", "installed"))
            self.assertEqual(sha256_file(installed), sha256_file(self.schema_path(release, schema)))

            # The app's own code shows every screen: its static site, written by that client.
            site = os.path.join(self.folder, f"site-{schema}")
            digno("site", "--bundle", installed, "--output", site, check=0, binary=client)
            shown = set()
            for page in glob.glob(os.path.join(site, "**/*.html"), recursive=True):
                with open(page, encoding="utf-8") as file:
                    shown.update(os.path.normpath(os.path.join(os.path.dirname(page), source))
                                 for source in re.findall(r'<img[^>]* src="([^"]+)"', file.read()))
            connection = sqlite3.connect(f"file:{installed}?mode=ro", uri=True)
            images = dict(connection.execute("SELECT sha256, width || 'x' || height FROM images").fetchall())
            turned = connection.execute("SELECT image FROM product_images WHERE product_id = 'espresso' AND position = 1").fetchone()[0]
            connection.close()
            self.assertEqual({os.path.basename(path).split(".")[0] for path in shown}, set(images), f"schema {schema}")
            # Every picture decodes, at the size the bundle gives, the turned photo upright.
            script = ("import sys\ntry:\n    from PIL import Image\nexcept ImportError:\n"
                      "    sys.exit('Pillow is not installed, and this test runs it (pip install pillow)')\n"
                      "for path in sys.argv[1:]:\n    image = Image.open(path)\n    image.load()\n"
                      "    print(path.rsplit('/', 1)[-1].split('.')[0], '%dx%d' % image.size)\n")
            decoded = subprocess.run(["python3", "-c", script, *sorted(shown)], capture_output=True, text=True)
            self.assertEqual(decoded.returncode, 0, decoded.stderr)
            sizes = dict(line.split(" ") for line in decoded.stdout.splitlines())
            self.assertEqual(sizes, images, f"schema {schema}")
            self.assertEqual(images[turned], "480x640", f"schema {schema}")
