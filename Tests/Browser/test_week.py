"""An editor's week in `digno studio`, in Chromium, without XML or a terminal: a new product with
two phone photos (one turned by its EXIF orientation, both with GPS) and its Swedish and English
texts, a recipe using it, a translation left missing then found from the coverage table, saved
to git and pushed; another clone changes the product's other text and pushes, the studio pulls
and merges it; then both change the same text, and the editor chooses in the form. At the end
the repository's files validate, the photos' renditions in a built bundle are upright and carry
no GPS, and git's log names the editor as the author of the studio's commits. git and a bare
repository as the remote, both on this machine. Its screenshots are docs/EDITING.md's.

    python3 -m unittest discover -s Tests/Browser -p 'test_week.py' -v

Environment as test_studio.py's; git, vips (libvips-tools) and exiftool besides.
"""

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import Served  # noqa: E402
from phones import phone_photo  # noqa: E402
from test_studio import CHROMEDRIVER, CHROMIUM, DIGNO, REPOSITORY, SCREENSHOTS, By, Keys, StudioBrowsing, chromium, left  # noqa: E402

EDITOR = ("Eeva Editor", "eeva@example.com")
OTHER = ("Olli Other", "olli@example.com")


def git(folder, *arguments):
    result = subprocess.run(["git", *arguments], cwd=folder, capture_output=True, text=True, env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))
    if result.returncode != 0:
        raise AssertionError("git %s: %s" % (" ".join(arguments), result.stderr))
    return result.stdout


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def write(path, text):
    with open(path + ".saving", "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(path + ".saving", path)


class EditorsWeekTests(StudioBrowsing, unittest.TestCase):
    shots = "week-"
    patience = 30

    @classmethod
    def setUpClass(cls):
        for tool, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver"), (shutil.which("git") or "git", "git")]:
            if not os.access(tool, os.X_OK):
                raise RuntimeError(f"{tool} is missing: install it (Debian: apt-get install {package}); .ci/run does")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        cls.root = tempfile.mkdtemp(prefix="digno-week-")
        cls.remote, cls.work, cls.other = (os.path.join(cls.root, name) for name in ("remote.git", "work", "other"))
        git(cls.root, "init", "--quiet", "--bare", "--initial-branch=main", cls.remote)
        git(cls.root, "clone", "--quiet", cls.remote, cls.work)
        for folder, (name, email) in [(cls.work, EDITOR)]:
            git(folder, "config", "user.name", name)
            git(folder, "config", "user.email", email)
        shutil.copytree(os.path.join(REPOSITORY, "content"), os.path.join(cls.work, "content"))
        git(cls.work, "add", "--all")
        git(cls.work, "commit", "--quiet", "-m", "The content as shipped")
        git(cls.work, "push", "--quiet", "origin", "main")
        git(cls.root, "clone", "--quiet", cls.remote, cls.other)
        git(cls.other, "config", "user.name", OTHER[0])
        git(cls.other, "config", "user.email", OTHER[1])
        cls.studio = Served(DIGNO, "studio", content=os.path.join(cls.work, "content"))
        cls.browser = chromium()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        status = cls.studio.stop()
        shutil.rmtree(cls.root, ignore_errors=True)
        assert status == 0, "digno studio exited with %s" % status

    def save(self):
        # The page after the save, not the one before (a new entity's form says "saved" too).
        before = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, "#entity-form p.actions button").click()
        self.wait_for(lambda: left(before) and ("saved=1" in self.browser.current_url or "done=" in self.browser.current_url), what="the saved form")

    def git_action(self, action, message=None):
        self.open("git")
        if message is not None:
            self.browser.find_element(By.ID, "commit-message").send_keys(message)
        before = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, 'form[action="/_studio/git/%s"] button' % action).click()
        self.wait_for(lambda: left(before) and ("done=" in self.browser.current_url or self.browser.find_elements(By.CSS_SELECTOR, ".refusal")),
                      what="git's " + action)
        refusals = self.browser.find_elements(By.CSS_SELECTOR, ".refusal")
        self.assertFalse(refusals and "done=" not in self.browser.current_url, refusals[0].text if refusals else "")

    def texts(self, texts):
        """Writes the texts the form has, by key (a name marked translate="no" has no translation)."""
        for key, text in texts.items():
            found = self.browser.find_elements(By.NAME, "t:" + key)
            if found:
                self.typed(found[0], text)

    def rich(self, texts):
        for key, text in texts.items():
            editor = self.browser.find_element(By.CSS_SELECTOR, '[data-key="%s"] .rich' % key)
            editor.click()
            editor.send_keys(Keys.CONTROL, "a")
            editor.send_keys(Keys.BACKSPACE)
            editor.send_keys(text)

    def create(self, kind, name, identifier, icon, picture):
        """A new product or recipe made from its page: its name, id, icon and first picture."""
        self.open("new/" + kind)
        for field, value in [("new-name", name), ("new-id", identifier), ("new-icon", icon), ("new-picture", picture)]:
            self.browser.find_element(By.ID, field).send_keys(value)
        self.browser.find_element(By.CSS_SELECTOR, "form.new-entity button").click()
        self.wait_for(lambda: "/edit/%s/%s" % (kind, identifier) in self.browser.current_url, what="the new %s's form" % kind)

    def test_an_editors_week(self):
        product = os.path.join(self.work, "content", "products", "viikon-kahvi.xml")
        # Monday: a new product, its two photos straight from the phone.
        self.create("product", "Viikon kahvi", "viikon-kahvi", "images/products/espresso-icon.png", "images/products/espresso-1.png")
        turned = phone_photo(os.path.join(self.root, "phone"), "IMG_4032.JPG", 1200, 900, 6)
        upright = phone_photo(os.path.join(self.root, "phone"), "IMG_4033.JPG", 1000, 750, 1)
        pictures = self.browser.find_element(By.CSS_SELECTOR, 'fieldset[data-list="images"]')
        # The first photo dropped on the picture the new product was made with, replacing it.
        with open(turned, "rb") as file:
            data = list(file.read())
        self.browser.execute_script("""
            var row = document.querySelector('fieldset[data-list="images"] li.row');
            var transfer = new DataTransfer();
            transfer.items.add(new File([new Uint8Array(arguments[0])], "IMG_4032.JPG", { type: "image/jpeg" }));
            row.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));""", data)
        taken = pictures.find_element(By.CSS_SELECTOR, ".drop .taken")
        self.wait_for(lambda: "viikon-kahvi-1.jpg" in taken.text, what="the first photo")
        pictures.find_element(By.CSS_SELECTOR, ".drop input[type=file]").send_keys(upright)
        self.wait_for(lambda: "viikon-kahvi-2.jpg" in taken.text, what="the second photo")
        self.assertIn("60.16990° N", taken.text)
        rows = pictures.find_elements(By.CSS_SELECTOR, "li.row")
        self.assertEqual([row.find_element(By.CSS_SELECTOR, "input.reference").get_attribute("value") for row in rows],
                         ["images/products/viikon-kahvi-1.jpg", "images/products/viikon-kahvi-2.jpg"])
        for row, words in zip(rows, [("Viikon kahvi -pussi", "Veckans kaffe, påsen", "This week's coffee, the bag"),
                                     ("Kuppi viikon kahvia", "En kopp veckans kaffe", "A cup of this week's coffee")]):
            for code, text in zip(["fi", "sv", "en"], words):
                field = row.find_element(By.NAME, "l:images@" + code)
                self.typed(field, text)
        self.typed(self.field("t:summary@fi"), "Viikon paahto")
        self.typed(self.field("t:summary@sv"), "Veckans rostning")
        self.texts({"name@sv": "Veckans kaffe", "name@en": "This week's coffee"})
        self.rich({"body@fi": "Viikon kahvi on paahdettu tällä viikolla.", "body@sv": "Veckans kaffe är rostat den här veckan.",
                   "body@en": "This week's coffee was roasted this week."})
        # The English summary is left for later.
        self.browser.execute_script("arguments[0].scrollIntoView()", pictures)
        self.shot("photos")
        self.save()
        self.assertIn('<image src="images/products/viikon-kahvi-1.jpg" alt="Viikon kahvi -pussi">', read(product))

        # Tuesday: a recipe that uses it.
        self.create("recipe", "Viikon latte", "viikon-latte", "images/recipes/cafe-latte-icon.png", "images/recipes/cafe-latte-1.png")
        for code, text in [("fi", "Latte viikon kahvista"), ("sv", "Latte på veckans kaffe"), ("en", "A latte of this week's coffee")]:
            self.typed(self.field("t:summary@" + code), text)
        first = self.browser.find_elements(By.CSS_SELECTOR, 'fieldset[data-list="ingredients"] li.row')[0]
        first.find_element(By.NAME, "l:ingredients:ref").send_keys("viikon-kahvi")
        for code, text in [("fi", "2 annosta viikon kahvia"), ("sv", "2 doser veckans kaffe"), ("en", "2 shots of this week's coffee")]:
            self.typed(first.find_element(By.NAME, "l:ingredients@" + code), text)
        for code, text in [("fi", "Latte lasissa"), ("sv", "Latte i glas"), ("en", "A latte in a glass")]:
            self.typed(self.browser.find_element(By.NAME, "l:images@" + code), text)
        self.texts({"name@sv": "Veckans latte", "name@en": "This week's latte"})
        self.rich({"method@fi": "Vaahdota maito ja kaada kahvin päälle.", "method@sv": "Skumma mjölken och häll den över kaffet.",
                   "method@en": "Froth the milk and pour it over the coffee."})
        self.save()

        # Wednesday: what is not translated, found from the coverage table and written.
        def listed():
            self.open("translations")
            return self.browser.find_elements(By.CSS_SELECTOR, 'a[href="/_studio/edit/product/viikon-kahvi#field-summary%40en"]')
        self.wait_for(listed, what="the missing English summary listed")
        self.shot("translations")
        listed()[0].click()
        self.wait_for(lambda: self.browser.switch_to.active_element.get_attribute("name") == "t:summary@en", what="the English summary's field")
        self.shot("side-by-side")
        self.browser.switch_to.active_element.send_keys("This week's roast")
        self.save()

        # Thursday: saved to git and sent.
        self.open("git")
        changes = self.browser.find_element(By.ID, "changes-heading").find_element(By.XPATH, "..").text
        self.assertIn("viikon-kahvi", changes)
        self.assert_accessible("the versions page")
        self.shot("git")
        self.git_action("commit", "Viikon kahvi ja viikon latte")
        self.git_action("push")
        self.assertIn("Viikon kahvi ja viikon latte", git(self.remote, "log", "-1", "--format=%s", "main"))

        # Another clone changes the product's other text and sends it; the studio takes it in.
        git(self.other, "pull", "--quiet")
        theirs = os.path.join(self.other, "content", "products", "viikon-kahvi.xml")
        write(theirs, read(theirs).replace("Veckans rostning", "Veckans rostning, mörk"))
        git(self.other, "commit", "--quiet", "-am", "Ruotsinkielinen kuvaus")
        git(self.other, "push", "--quiet")
        self.git_action("pull")
        self.assertIn("Veckans rostning, mörk", read(product))

        # Friday: both change the Finnish summary; the editor chooses in the form.
        git(self.other, "pull", "--quiet")
        write(theirs, read(theirs).replace("<summary>Viikon paahto</summary>", "<summary>Viikon tumma paahto</summary>"))
        git(self.other, "commit", "--quiet", "-am", "Tummempi")
        git(self.other, "push", "--quiet")
        self.open("edit/product/viikon-kahvi")
        self.typed(self.field("t:summary@fi"), "Viikon vaalea paahto")
        self.save()
        self.git_action("commit", "Vaaleampi")
        self.git_action("pull")
        self.assertIn("done=choose", self.browser.current_url)
        self.browser.find_element(By.CSS_SELECTOR, 'a[href="/_studio/edit/product/viikon-kahvi"]').click()
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, ".conflict"), what="both values shown")
        conflict = self.browser.find_element(By.CSS_SELECTOR, ".conflict").text
        self.assertIn("Viikon tumma paahto", conflict)
        self.assertIn("Viikon vaalea paahto", conflict)
        self.assert_accessible("a form after a pull, both values shown")
        self.shot("conflict")
        self.browser.find_element(By.CSS_SELECTOR, 'input[name="c:summary@fi"][value="theirs"]').click()
        self.save()
        self.assertIn("done=", self.browser.current_url)
        self.assertIn("<summary>Viikon tumma paahto</summary>", read(product))
        self.git_action("push")

        # At the end of the week: the repository's files validate; the photos' renditions are
        # upright, without GPS; the studio's commits are the editor's.
        content = os.path.join(self.work, "content")
        checked = subprocess.run([DIGNO, "validate", content, "--today", "2026-11-22"], capture_output=True, text=True)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        bundle = os.path.join(self.root, "catalog.sqlite")
        built = subprocess.run([DIGNO, "build", content, "--output", bundle, "--quiet"], capture_output=True, text=True)
        self.assertEqual(built.returncode, 0, built.stderr)
        from PIL import Image
        with sqlite3.connect(bundle) as database:
            photos = database.execute("SELECT image FROM product_images WHERE product_id = 'viikon-kahvi' ORDER BY position").fetchall()
            self.assertEqual(len(photos), 2)
            for (sha256,), shape in zip(photos, ["portrait", "landscape"]):
                kept = database.execute("SELECT bytes FROM images WHERE sha256 = ? UNION ALL SELECT bytes FROM renditions WHERE image = ?",
                                        (sha256, sha256)).fetchall()
                self.assertTrue(kept)
                for (data,) in kept:
                    picture = Image.open(io.BytesIO(data))
                    self.assertEqual(picture.height > picture.width, shape == "portrait", "upright as the phone showed it")
                    self.assertNotIn(0x8825, picture.getexif(), "no GPS")
        authors = git(self.work, "log", "--format=%an|%s").splitlines()
        for line in authors:
            author, subject = line.split("|", 1)
            if subject in ("Viikon kahvi ja viikon latte", "Vaaleampi") or subject.startswith("Merge"):
                self.assertEqual(author, EDITOR[0], line)
        self.assertTrue(any(line.startswith(EDITOR[0] + "|Merge") for line in authors), authors)


if __name__ == "__main__":
    unittest.main()
