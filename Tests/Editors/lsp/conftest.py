"""`digno lsp` driven through the protocol by pytest-lsp (PyPI), as an editor drives it."""

import os
import shutil
import tempfile

import pytest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))


@pytest.fixture(scope="module")
def workspace():
    """A copy of the repository's content/ in a workspace folder of its own."""
    folder = tempfile.mkdtemp(prefix="digno-lsp-")
    shutil.copytree(os.path.join(REPOSITORY, "content"), os.path.join(folder, "content"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
