"""The content's schema as editors' tools find it, checked by an independent XML Schema
implementation (Python's xmlschema, which follows xsi:noNamespaceSchemaLocation by itself, as
Xerces does in VS Code's XML extension, IntelliJ and Oxygen).

    python3 -m unittest discover -s Tests/Editors -v

Environment: DIGNO (the binary; default .build/debug/digno). Needs xmlschema from PyPI
(`pip install xmlschema`); .ci/run installs it.
"""

import glob
import os
import shutil
import subprocess
import tempfile
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))

try:
    import xmlschema
except ImportError:  # pragma: no cover - the message is the point
    xmlschema = None


def content_files(folder):
    return sorted(glob.glob(os.path.join(folder, "*.xml")) + glob.glob(os.path.join(folder, "*", "*.xml")))


class SchemaReferenceTests(unittest.TestCase):
    def setUp(self):
        if xmlschema is None:
            self.fail("xmlschema is not installed, and this test uses it (pip install xmlschema)")
        self.scratch = tempfile.mkdtemp(prefix="digno-editors-")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_every_shipped_file_validates_against_the_schema_it_names_in_a_moved_copy(self):
        """The shipped content copied far from the repository: each file names its schema by a
        relative path, and the schema (with the xml.xsd it imports) travels with the folder."""
        moved = os.path.join(self.scratch, "elsewhere", "content")
        shutil.copytree(os.path.join(REPOSITORY, "content"), moved)
        files = content_files(moved)
        self.assertEqual(len(files), 24)
        for path in files:
            with self.subTest(path=os.path.relpath(path, moved)):
                document = xmlschema.XmlDocument(path)
                location = document.root.get("{http://www.w3.org/2001/XMLSchema-instance}noNamespaceSchemaLocation")
                depth = os.path.relpath(path, moved).count(os.sep)
                self.assertEqual(location, "../" * depth + "schema/content.xsd")
                # No schema given: xmlschema takes the one the file names.
                xmlschema.validate(path)
        # A mistake is refused through the same reference.
        product = os.path.join(moved, "products", "espresso.xml")
        with open(product, encoding="utf-8") as file:
            text = file.read()
        with open(product, "w", encoding="utf-8") as file:
            file.write(text.replace("<summary>", "<sumary>", 1).replace("</summary>", "</sumary>", 1))
        with self.assertRaises(xmlschema.XMLSchemaValidationError) as refused:
            xmlschema.validate(product)
        self.assertIn("sumary", str(refused.exception))

    def test_a_new_folder_from_init_validates_against_its_own_schema(self):
        folder = os.path.join(self.scratch, "brand")
        subprocess.run([DIGNO, "init", folder], check=True, capture_output=True)
        files = content_files(folder)
        self.assertEqual(len(files), 6)
        for path in files:
            with self.subTest(path=os.path.relpath(path, folder)):
                xmlschema.validate(path)

    def test_the_schema_folder_is_the_compilers_schema(self):
        printed = subprocess.run([DIGNO, "schema"], check=True, capture_output=True).stdout
        with open(os.path.join(REPOSITORY, "content", "schema", "content.xsd"), "rb") as file:
            self.assertEqual(file.read(), printed)
        self.assertEqual(xmlschema.XMLSchema(os.path.join(REPOSITORY, "content", "schema", "content.xsd")).version, "3")


if __name__ == "__main__":
    unittest.main()
