"""Browser tests of `digno preview`: the real binary serving a copy of content/, driven in the
Chromium of Debian's `chromium` and `chromium-driver` packages through Selenium.

    python3 -m unittest discover -s Tests/Browser -v

Environment: DIGNO (the binary; default .build/debug/digno), CHROMIUM (default
/usr/bin/chromium), CHROMEDRIVER (default /usr/bin/chromedriver), SCREENSHOTS (where the
screenshots of each screen go; default artifacts/screenshots). `.ci/run` installs what they need
and runs them.

One file over 300 lines on purpose: its tests run in order (test_1 … test_9) in one Chromium
session over one running preview, which a split would start twice.
"""

import http.client
import os
import re
import subprocess
import sys
import time
import unittest

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError as error:
    raise ImportError("Selenium is missing: install it (pip install selenium); .ci/run does") from error

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The phone photo the channel's picture tests make (vips and exiftool): drawn halves and a marker
# in the stored top left, with a GPS position, make, model and an EXIF orientation.
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "Channel"))
from test_pictures import photo as phone_photo  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import Served  # noqa: E402
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = os.environ.get("SCREENSHOTS", os.path.join(REPOSITORY, "artifacts", "screenshots"))
TODAY = "2026-11-22"
TABS = ["Etusivu", "Tuotteet", "Kahvireseptit", "Jälleenmyyjät", "Deling Group"]


class Preview(Served):
    """`digno preview` running over a copy of content/ on a free port."""

    def __init__(self):
        super().__init__(DIGNO, "preview")


def write(path, text):
    # As an editor saves: a new file renamed over the old one.
    temporary = path + ".saving"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


class PreviewInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for tool, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")]:
            if not os.access(tool, os.X_OK):
                raise RuntimeError(f"{tool} is missing: install it (Debian: apt-get install {package}); .ci/run does")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        cls.preview = Preview()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1000,1000", "--lang=fi"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        cls.browser.implicitly_wait(0)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        lines = cls.preview.lines
        status = cls.preview.stop()
        # Stopped cleanly, its scratch folder removed.
        assert status == 0, "digno preview exited with %s:\n%s" % (status, "\n".join(lines))
        removed = [line for line in lines if line.startswith("stopped; removed ")]
        assert removed and not os.path.exists(removed[0][len("stopped; removed "):]), lines

    # Helpers

    def open(self, relative):
        self.browser.get(self.preview.address + relative)

    def path(self):
        return "/" + self.browser.current_url.split("/", 3)[3]

    def shot(self, name):
        self.browser.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))

    def wait_for(self, condition, seconds=15, what="the page"):
        deadline = time.monotonic() + seconds
        while True:
            try:
                if condition():
                    return
            except WebDriverException:
                # The page reloaded while it was being read: Chromium says so as a stale element,
                # a missing one, or "Node with given id does not belong to the document".
                pass
            if time.monotonic() > deadline:
                self.fail("waited %s s for %s; the page is %s" % (seconds, what, self.browser.current_url))
            time.sleep(0.02)

    def tab_titles(self):
        return [link.text for link in self.browser.find_elements(By.CSS_SELECTOR, "nav.tab-bar a")]

    def selected_tab(self):
        selected = self.browser.find_elements(By.CSS_SELECTOR, 'nav.tab-bar a[aria-current="page"]')
        self.assertEqual(len(selected), 1, "one tab is marked")
        return selected[0].text

    def navigation_bar(self):
        """(title, back label), or None when the screen has no navigation bar."""
        bars = self.browser.find_elements(By.CSS_SELECTOR, "header.navigation-bar")
        if not bars:
            return None
        titles = bars[0].find_elements(By.TAG_NAME, "h1")
        backs = bars[0].find_elements(By.CSS_SELECTOR, "a.back")
        return (titles[0].text if titles else None, backs[0].text.lstrip("‹ ").strip() if backs else None)

    def check_screen(self, tab, bar):
        self.assertEqual(self.tab_titles(), TABS, "the tab bar is always there, in order")
        self.assertEqual(self.selected_tab(), tab)
        self.assertEqual(self.navigation_bar(), bar)
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "fi")
        for image in self.browser.find_elements(By.TAG_NAME, "img"):
            self.assertIsNotNone(image.get_attribute("alt"), image.get_attribute("src"))
            self.assertTrue(self.browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
                            "picture %s loaded" % image.get_attribute("src"))
        self.assertEqual(self.problems(), [], "no errors on a good build")

    def problems(self):
        return [item.text for item in self.browser.find_elements(By.CSS_SELECTOR, "#digno-problems li")]

    def console_errors(self):
        return [entry["message"] for entry in self.browser.get_log("browser") if entry["level"] == "SEVERE"]

    # The specification's user test

    def test_1_user_test_through_every_tab(self):
        self.open("")
        self.check_screen("Etusivu", None)
        self.shot("01-etusivu")

        self.browser.find_element(By.LINK_TEXT, "Tuotteet").click()
        self.assertEqual(self.path(), "/products")
        self.check_screen("Tuotteet", ("Tuotteet", None))
        self.shot("02-tuotteet")

        self.browser.find_element(By.CSS_SELECTOR, 'main a.row[href="/products/espresso"]').click()
        self.assertEqual(self.path(), "/products/espresso")
        self.check_screen("Tuotteet", (None, "Tuotteet"))
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "main h1").text, "Espresso")
        self.shot("03-tuote-espresso")

        # A product's link to a recipe; the recipe's back button leads to its own list.
        self.browser.find_element(By.CSS_SELECTOR, 'main a[href="/recipes/cappuccino"]').click()
        self.assertEqual(self.path(), "/recipes/cappuccino")
        self.check_screen("Kahvireseptit", (None, "Kahvireseptit"))
        self.shot("04-resepti-cappuccino")

        # The browser's back button, then the screen's.
        self.browser.back()
        self.assertEqual(self.path(), "/products/espresso")
        self.check_screen("Tuotteet", (None, "Tuotteet"))
        self.browser.find_element(By.CSS_SELECTOR, "header.navigation-bar a.back").click()
        self.assertEqual(self.path(), "/products")
        self.check_screen("Tuotteet", ("Tuotteet", None))

        self.browser.find_element(By.LINK_TEXT, "Kahvireseptit").click()
        self.assertEqual(self.path(), "/recipes")
        self.check_screen("Kahvireseptit", ("Kahvireseptit", None))
        self.assertGreaterEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "main a.row")), 13)
        self.shot("05-kahvireseptit")

        self.browser.find_element(By.LINK_TEXT, "Jälleenmyyjät").click()
        self.assertEqual(self.path(), "/retailers")
        self.check_screen("Jälleenmyyjät", ("Jälleenmyyjät", None))
        retailer = self.browser.find_element(By.CSS_SELECTOR, "li.retailer")
        self.assertTrue(retailer.find_element(By.CSS_SELECTOR, "img.retailer-logo").get_attribute("alt"))
        self.assertTrue(retailer.find_element(By.CSS_SELECTOR, ".phone a").get_attribute("href").startswith("tel:"))
        self.shot("06-jalleenmyyjat")

        self.browser.find_element(By.LINK_TEXT, "Deling Group").click()
        self.assertEqual(self.path(), "/company")
        self.check_screen("Deling Group", None)
        self.shot("07-deling-group")

        # Reload on a deep link: the same screen.
        self.open("recipes/cafe-latte")
        self.browser.refresh()
        self.assertEqual(self.path(), "/recipes/cafe-latte")
        self.check_screen("Kahvireseptit", (None, "Kahvireseptit"))

        # A phone-sized window: the full width, no frame.
        self.browser.set_window_size(390, 844)
        self.open("products/espresso")
        self.shot("08-kapea-ikkuna")
        self.browser.set_window_size(1000, 1000)
        self.assertEqual(self.console_errors(), [], "no script errors and no Content-Security-Policy reports")

    def test_2_keyboard(self):
        self.open("")
        body = self.browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        for _ in range(40):
            active = self.browser.switch_to.active_element
            if active.text == "Tuotteet":
                break
            active.send_keys(Keys.TAB)
        self.assertEqual(self.browser.switch_to.active_element.text, "Tuotteet", "the tabs are reached with Tab")
        self.browser.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait_for(lambda: self.path() == "/products", what="Enter to open Tuotteet")
        self.check_screen("Tuotteet", ("Tuotteet", None))

    # Live editing

    def test_3_an_edit_shows_in_place_on_the_same_screen(self):
        self.open("products/espresso")
        self.browser.execute_script("window.diginoMarker = 1")
        generation = self.browser.find_element(By.CSS_SELECTOR, 'meta[name="digno-generation"]').get_attribute("content")
        espresso = self.preview.path("products/espresso.xml")
        original = read(espresso)
        try:
            saved = time.monotonic()
            write(espresso, original.replace(">Espresso</name>", ">Espresso Muokattu</name>", 1))
            self.wait_for(lambda: self.browser.find_element(By.CSS_SELECTOR, "main h1").text == "Espresso Muokattu",
                          what="the edited name")
            print("\n  save to visible change: %.0f ms" % ((time.monotonic() - saved) * 1000))
            self.assertEqual(self.path(), "/products/espresso", "still on the same screen")
            # Updated in place, not reloaded: the page's own state (this marker) is still there,
            # and it names the new build.
            self.assertEqual(self.browser.execute_script("return window.diginoMarker"), 1, "the page was updated in place")
            self.assertNotEqual(self.browser.find_element(By.CSS_SELECTOR, 'meta[name="digno-generation"]').get_attribute("content"),
                                generation, "the page names the new build")
            self.check_screen("Tuotteet", (None, "Tuotteet"))
        finally:
            write(espresso, original)
            self.wait_for(lambda: self.browser.find_element(By.CSS_SELECTOR, "main h1").text == "Espresso",
                          what="the name back")

    def test_4_a_broken_file_shows_its_diagnostic_and_the_app_comes_back(self):
        self.open("recipes/cappuccino")
        espresso = self.preview.path("products/espresso.xml")
        original = read(espresso)
        try:
            write(espresso, original.replace("</name>", "</nam>", 1))
            self.wait_for(lambda: self.problems(), what="the error panel")
            # Worded as digno validate words it, with file, line, column and code.
            validate = subprocess.run([DIGNO, "validate", "--content", self.preview.content],
                                      capture_output=True, text=True)
            self.assertEqual(validate.returncode, 1)
            # The problems are the report's lines before its summary (after which come the
            # languages' coverage).
            lines = validate.stdout.strip().splitlines()
            summary = next(i for i, line in enumerate(lines) if re.match(r"^\d+ errors?, \d+ warnings? in ", line))
            # The panel's own words are the page's language's (Finnish here): "virhe" for "error".
            self.assertEqual(self.problems(), [line.replace(": error: ", ": virhe: ", 1) for line in lines[:summary]])
            self.assertRegex(self.problems()[0], r"^products/espresso\.xml:\d+:\d+: virhe: .* \[xml-malformed\]$")
            self.assertTrue(self.browser.find_element(By.ID, "digno-problems-title").text.startswith("Sisällössä on virheitä: 1 virhe, "))
            # Over the last version that built, on the same screen.
            self.assertEqual(self.path(), "/recipes/cappuccino")
            self.assertEqual(self.tab_titles(), TABS)
            self.shot("09-virhe")
            # In the HTML as served, so it shows without JavaScript too.
            connection = http.client.HTTPConnection("127.0.0.1", self.preview.port, timeout=10)
            connection.request("GET", "/recipes/cappuccino")
            served = connection.getresponse().read().decode()
            connection.close()
            self.assertIn('<section id="digno-problems"', served)
            self.assertIn("[xml-malformed]", served)
        finally:
            write(espresso, original)
        self.wait_for(lambda: not self.problems(), what="the app to come back")
        self.check_screen("Kahvireseptit", (None, "Kahvireseptit"))

    def test_5_a_file_renamed_away_and_back(self):
        self.open("products")
        recipe = self.preview.path("recipes/cappuccino.xml")
        moved = self.preview.path("cappuccino.xml.moved")
        os.rename(recipe, moved)
        try:
            # Espresso links to it: an error, shown over the last version.
            self.wait_for(lambda: any("cappuccino" in line for line in self.problems()), what="the missing recipe's error")
            self.assertEqual(self.path(), "/products")
        finally:
            os.rename(moved, recipe)
        self.wait_for(lambda: not self.problems(), what="the app to come back")
        self.check_screen("Tuotteet", ("Tuotteet", None))

    # Hostile content and requests

    def test_6_script_in_content_is_shown_as_text(self):
        espresso = self.preview.path("products/espresso.xml")
        original = read(espresso)
        hostile = "&lt;script&gt;window.dignoHacked=1&lt;/script&gt;&lt;img src=x onerror=\"window.dignoHacked=2\"&gt;"
        try:
            write(espresso, original.replace("<summary>Tummapaahteinen espressojauhe</summary>",
                                             "<summary>" + hostile + "</summary>"))
            self.open("products/espresso")
            self.wait_for(lambda: "<script>" in self.browser.find_element(By.CSS_SELECTOR, "main .lead").text,
                          what="the summary as text")
            self.open("products")
            self.wait_for(lambda: "<script>" in self.browser.find_element(By.CSS_SELECTOR, 'a[href="/products/espresso"]').text,
                          what="the summary as text in the list")
            self.assertIsNone(self.browser.execute_script("return window.dignoHacked"), "nothing executed")
        finally:
            write(espresso, original)
        self.open("products")
        self.wait_for(lambda: "<script>" not in self.browser.find_element(By.CSS_SELECTOR, "main").text, what="the summary back")

    def test_7_javascript_web_address_is_an_error_and_never_a_link(self):
        # Validation refuses it, so it never reaches a bundle; the page shows the error over the
        # last version. (That the renderer links only http(s) addresses, whatever a bundle
        # holds, is CatalogSiteTests' EscapingTests.)
        retailer = self.preview.path("retailers/cafe-kahvila.xml")
        original = read(retailer)
        self.assertIn("<web>", original)
        try:
            write(retailer, re.sub(r"<web>[^<]*</web>", "<web>javascript:window.dignoHacked=1</web>", original))
            self.open("retailers")
            self.wait_for(lambda: self.problems(), what="the web address's error")
            self.assertTrue(any(line.startswith("retailers/cafe-kahvila.xml:") and "javascript:" in line
                                for line in self.problems()), self.problems())
            self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, 'a[href^="javascript:"]'), [])
            self.assertIsNone(self.browser.execute_script("return window.dignoHacked"))
        finally:
            write(retailer, original)
        self.wait_for(lambda: not self.problems(), what="the app to come back")

    def request(self, target, host=None):
        """A raw request, the target sent as it is: (status, content type, body)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.preview.port, timeout=60)
        connection.putrequest("GET", target, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or "127.0.0.1:%d" % self.preview.port)
        connection.endheaders()
        try:
            response = connection.getresponse()
            return response.status, response.getheader("Content-Type"), response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def test_8_hostile_requests_get_a_plain_refusal(self):
        cases = [
            ("/", "evil.example", 403),
            ("/", "evil.example:%d" % self.preview.port, 403),
            ("/images/../../../../etc/passwd", None, 400),
            ("/images/..%2f..%2f..%2f..%2fetc%2fpasswd", None, 400),
            ("/images/%2e%2e/%2e%2e/etc/passwd", None, 400),
            ("/images/" + "0" * 64, None, 404),
            ("/images/../../../../proc/self/environ", None, 400),
            # Twice what nginx accepts by default (8 KB). FlyingFox reads a request line in time
            # that grows with its square (docs/CLI.md, digno preview), so not 100 KB here.
            ("/?" + "a" * 16_000, None, 414),
        ]
        for target, host, status in cases:
            with self.subTest(target=target[:60], host=host):
                got, content_type, body = self.request(target, host)
                self.assertEqual(got, status, body)
                self.assertEqual(content_type, "text/plain; charset=utf-8")
                self.assertNotIn("root:", body)
                self.assertNotIn("PATH=", body)
        # The browser, sent to another site's name for this address, is refused too.
        self.browser.get("http://localhost.:%d/" % self.preview.port)
        self.assertIn("403 Forbidden", self.browser.find_element(By.TAG_NAME, "body").text)

    # Languages

    def test_9a_a_phone_screen_lays_out_without_wrapping_or_shifting(self):
        """On a phone's width (360 and 390 pixels), every tab's label is one line, English ones
        too ("Coffee recipes"); every picture and logo has its width and height, so the page does
        not shift as they load; a product and a recipe of one name have titles of their own."""
        one_line = ("const range = document.createRange(); range.selectNodeContents(arguments[0]);"
                    " return range.getClientRects().length;")
        try:
            for width in (360, 390):
                self.browser.set_window_size(width, 844)
                for page in ("en/recipes", "en/products/espresso", "en/company", "en/retailers", ""):
                    self.open(page)
                    labels = self.browser.find_elements(By.CSS_SELECTOR, "nav.tab-bar a span")
                    self.assertEqual(len(labels), 5, page)
                    for label in labels:
                        self.assertEqual(self.browser.execute_script(one_line, label), 1, f"{label.text!r} at {width} px on /{page}")
                    for image in self.browser.find_elements(By.CSS_SELECTOR, "img.picture, img.logo, img.retailer-logo"):
                        self.assertTrue(image.get_dom_attribute("width") and image.get_dom_attribute("height"),
                                        f"{image.get_dom_attribute('src')} on /{page}")
                self.shot(f"09a-{width}-px")
        finally:
            self.browser.set_window_size(1000, 1000)
        titles = []
        for page in ("products/espresso", "recipes/espresso"):
            self.open(page)
            titles.append(self.browser.title)
        self.assertEqual(titles, ["Espresso – Tuotteet – Café Digno", "Espresso – Kahvireseptit – Café Digno"])

    def test_9_swedish_screens_mark_what_is_not_translated(self):
        self.console_errors()  # test_8's refused page logged its 403; start from none
        recipe = self.preview.path("recipes/cafe-latte.xml")
        original = read(recipe)
        swedish_summary = '  <summary xml:lang="sv">Italienskt kaffe med mjölk</summary>\n'
        self.assertIn(swedish_summary, original)
        write(recipe, original.replace(swedish_summary, ""))
        try:
            self.open("sv/recipes/cafe-latte")
            lead = lambda: self.browser.find_element(By.CSS_SELECTOR, "main p.lead")
            self.wait_for(lambda: lead().text == "Italialainen maitokahvi", what="the Finnish summary on the Swedish screen")
            self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "sv")
            self.assertEqual(self.tab_titles(), ["Hem", "Produkter", "Kafferecept", "Återförsäljare", "Deling Group"])
            self.assertEqual(self.selected_tab(), "Kafferecept")
            self.assertEqual(self.navigation_bar(), (None, "Kafferecept"))
            # The untranslated summary says it is Finnish, for a screen reader; the rest is Swedish.
            self.assertEqual(lead().get_dom_attribute("lang"), "fi")
            self.assertIsNone(self.browser.find_element(By.CSS_SELECTOR, "main h1").get_dom_attribute("lang"))
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "main h1").text, "Caffè latte")
            self.assertEqual([h.text for h in self.browser.find_elements(By.CSS_SELECTOR, "main h2")],
                             ["Ingredienser", "Gör så här", "Produkter"])
            self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "main [lang]")), 1, "one text fell back")
            self.assertNotEqual(lead().value_of_css_property("outline-style"), "none", "the preview outlines it")
            self.shot("09-resepti-ruotsiksi")

            # The language switch: the same screen in Finnish, then in English.
            switch = 'nav.language-switch a[hreflang="%s"]'
            current = self.browser.find_element(By.CSS_SELECTOR, 'nav.language-switch a[aria-current="true"]')
            self.assertEqual(current.text, "Svenska")
            self.browser.find_element(By.CSS_SELECTOR, switch % "fi").click()
            self.assertEqual(self.path(), "/recipes/cafe-latte")
            self.check_screen("Kahvireseptit", (None, "Kahvireseptit"))
            self.browser.find_element(By.CSS_SELECTOR, switch % "en").click()
            self.assertEqual(self.path(), "/en/recipes/cafe-latte")
            self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "en")
            self.assertEqual(lead().text, "Italian coffee with milk")
            self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "main [lang]"), [])
            # Within English, a link stays in English.
            self.browser.find_element(By.CSS_SELECTOR, 'main a[href="/en/products/espresso"]').click()
            self.assertEqual(self.path(), "/en/products/espresso")
            self.assertEqual(self.selected_tab(), "Products")
        finally:
            write(recipe, original)
        self.open("sv/recipes/cafe-latte")
        self.wait_for(lambda: self.browser.find_element(By.CSS_SELECTOR, "main p.lead").text == "Italienskt kaffe med mjölk",
                      what="the Swedish summary back")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "main [lang]"), [])
        self.assertEqual(self.console_errors(), [])

    # Pictures

    def test_9b_a_phone_photo_is_chosen_from_srcset_and_shown_upright(self):
        """A photo as a phone takes it (640 × 480 stored, EXIF orientation 6: turned a quarter
        clockwise to show) in place of Espresso's first picture: the page offers its WebP
        renditions in srcset, Chromium (one device pixel per CSS pixel, the picture 358 CSS
        pixels wide at most: 390 less the page's margins) takes the 390-pixel one, and it is upright: the marker drawn in the
        stored top left shows top right."""
        espresso = self.preview.path("products/espresso.xml")
        original = read(espresso)
        photo = self.preview.path("images/products/espresso-phone.jpg")
        phone_photo(photo, 640, 480, orientation=6)
        old = 'src="images/products/espresso-1.png"'
        self.assertIn(old, original)
        try:
            write(espresso, original.replace(old, 'src="images/products/espresso-phone.jpg"', 1))
            self.open("products/espresso")
            picture = lambda: self.browser.find_element(By.CSS_SELECTOR, "main img.picture")
            self.wait_for(lambda: "/390.webp" in (self.browser.execute_script(
                "return arguments[0].complete && arguments[0].currentSrc", picture()) or ""), what="the photo's 390-pixel WebP")
            source = self.browser.find_element(By.CSS_SELECTOR, "main picture source")
            self.assertEqual(source.get_attribute("type"), "image/webp")
            # Not enlarged: 480 × 640 as shown is the largest; 390 × 520 the smallest rung.
            self.assertRegex(source.get_attribute("srcset"), r"^/images/[0-9a-f]{64}/390\.webp 390w, /images/[0-9a-f]{64}/480\.webp 480w$")
            # Chromium gives its size per CSS pixel: the 390-pixel file shown in a 358-pixel slot
            # (`sizes`: the page less its margins) is 357 × 477; upright, 3 : 4.
            natural = self.browser.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", picture())
            self.assertAlmostEqual(natural[0] / natural[1], 0.75, delta=0.01, msg=f"{natural}")
            colours = self.browser.execute_script("""
                const image = arguments[0], canvas = document.createElement('canvas');
                canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
                const context = canvas.getContext('2d');
                context.drawImage(image, 0, 0);
                const at = (x, y) => Array.from(context.getImageData(Math.floor(x * canvas.width), Math.floor(y * canvas.height), 1, 1).data.slice(0, 3));
                return [at(0.95, 0.03), at(0.05, 0.03), at(0.5, 0.25), at(0.5, 0.9)];
            """, picture())
            marker, top_left, top, bottom = colours
            near = lambda colour, expected: all(abs(a - b) <= 40 for a, b in zip(colour, expected))
            self.assertTrue(near(marker, (40, 200, 60)), f"the marker is top right: {colours}")
            self.assertTrue(near(top_left, (200, 60, 40)) and near(top, (200, 60, 40)), f"the stored left half is on top: {colours}")
            self.assertTrue(near(bottom, (40, 90, 200)), f"the stored right half is below: {colours}")
            self.shot("10-puhelimen-kuva")
        finally:
            write(espresso, original)
            os.remove(photo)
        self.open("products/espresso")
        self.wait_for(lambda: "/images/" in (self.browser.find_element(By.CSS_SELECTOR, "main img.picture").get_attribute("src") or ""),
                      what="Espresso's own picture back")


if __name__ == "__main__":
    unittest.main()
