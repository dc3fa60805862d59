"""Translators' tools read what `digno translations export` writes: the Translate Toolkit
(PyPI's translate-toolkit, the library behind Pootle and Virtaal, which reads XLIFF 1.2 and 2.0)
opens the export, finds every unit by its id with its note and length limit, fills a target
(keeping a rich text's inline codes) and saves a file that keeps them; `digno translations
import` takes that file back into the content.

    python3 -m unittest discover -s Tests/Editors -v

Environment: DIGNO (the binary; default .build/debug/digno). Needs translate-toolkit from PyPI
(`pip install translate-toolkit`); .ci/run installs it.
"""

import copy
import os
import re
import shutil
import subprocess
import tempfile
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))

try:
    from translate.storage import factory, xliff2
except ImportError:  # pragma: no cover - the message is the point
    factory = None


class TranslationExportTests(unittest.TestCase):
    def setUp(self):
        if factory is None:
            self.fail("translate-toolkit is not installed, and this test uses it (pip install translate-toolkit)")
        self.scratch = tempfile.mkdtemp(prefix="digno-xliff-")
        self.content = os.path.join(self.scratch, "content")
        shutil.copytree(os.path.join(REPOSITORY, "content"), self.content)

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def export(self, *extra, name="sv.xlf"):
        path = os.path.join(self.scratch, name)
        result = subprocess.run([DIGNO, "translations", "export", self.content, "--language", "sv", "--output", path, *extra],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        return path

    @staticmethod
    def ids(path):
        with open(path, encoding="utf-8") as file:
            return re.findall(r'<(?:trans-unit|unit) id="([^"]+)"', file.read())

    def test_the_toolkit_reads_xliff_1_2_and_a_filled_target_keeps_its_codes(self):
        # A missing translation, to fill.
        recipe = os.path.join(self.content, "recipes", "cappuccino.xml")
        with open(recipe, encoding="utf-8") as file:
            text = file.read()
        with open(recipe, "w", encoding="utf-8") as file:
            file.write(text.replace('  <summary xml:lang="sv">Italienskt kaffe med mjölk</summary>\n', ""))
        path = self.export()
        store = factory.getobject(path)
        units = {unit.xmlelement.get("id"): unit for unit in store.units}
        self.assertEqual(list(units), self.ids(path))
        missing = units["recipe.cappuccino.summary"]
        self.assertEqual(missing.source, "Italialainen maitokahvi")
        self.assertFalse(missing.istranslated())
        self.assertIn("recipe “Cappuccino”, summary; at most 100 characters", missing.getnotes())
        self.assertEqual(missing.xmlelement.get("maxwidth"), "100")
        self.assertTrue(units["product.espresso.summary"].istranslated())

        # A translator fills the missing target and retranslates a rich text, keeping its codes.
        missing.target = "Italienskt kaffe med mjölk"
        body = units["product.espresso.body"]
        rich = copy.deepcopy(body.rich_source[0])
        body.rich_target = [rich]
        body.marktranslated()
        saved = os.path.join(self.scratch, "saved.xlf")
        store.savefile(saved)
        reread = {unit.xmlelement.get("id"): unit for unit in factory.getobject(saved).units}
        self.assertEqual(list(reread), self.ids(path))
        self.assertEqual(reread["recipe.cappuccino.summary"].target, "Italienskt kaffe med mjölk")
        with open(saved, encoding="utf-8") as file:
            self.assertIn('<target state="translated"><g id="1" ctype="x-p">', file.read())

        # digno takes the toolkit's file back: the summary where an editor wrote it (the file
        # as it was before), the body with the translator's words, nothing else touched.
        result = self.import_(saved)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("recipes/cappuccino.xml: recipe “Cappuccino”: summary (new)\n", result.stdout)
        self.assertIn("products/espresso.xml: product “Espresso”: body\n", result.stdout)
        self.assertIn("imported 2 translations into sv (1 new, 1 changed) in 2 files; 128 unchanged", result.stdout)
        with open(recipe, encoding="utf-8") as file:
            self.assertEqual(file.read(), text)
        with open(os.path.join(self.content, "products", "espresso.xml"), encoding="utf-8") as file:
            self.assertIn('<body xml:lang="sv">\n    <p>Café Digno Espresso on ylellinen espressokahvi', file.read())
        self.assertEqual(subprocess.run([DIGNO, "validate", self.content], capture_output=True, timeout=120).returncode, 0)

    def test_the_toolkit_reads_xliff_2_0(self):
        path = self.export("--xliff", "2.0", name="sv-2.xlf")
        store = xliff2.Xliff2File.parsefile(path)
        units = {unit.getid(): unit for unit in store.units}
        self.assertEqual(list(units), self.ids(path))
        summary = units["product.espresso.summary"]
        self.assertEqual((summary.source, summary.target), ("Tummapaahteinen espressojauhe", "Mörkrostat malet espressokaffe"))

        # The toolkit saves 2.0 that its schema refuses (notes inside the segment) and keeps
        # each segment's state: a translated unit retranslated comes back.
        summary.target = "Mörkrostat finmalet espressokaffe"
        saved = os.path.join(self.scratch, "saved-2.xlf")
        store.savefile(saved)
        result = self.import_(saved)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("products/espresso.xml: product “Espresso”: summary\n", result.stdout)
        with open(os.path.join(self.content, "products", "espresso.xml"), encoding="utf-8") as file:
            self.assertIn('  <summary xml:lang="sv">Mörkrostat finmalet espressokaffe</summary>\n', file.read())

    def import_(self, path):
        return subprocess.run([DIGNO, "translations", "import", path, self.content], capture_output=True, text=True, timeout=120)

if __name__ == "__main__":
    unittest.main()
