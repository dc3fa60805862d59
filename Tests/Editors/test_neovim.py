"""`digno lsp` in a real editor: Debian's Neovim, headless, with its built-in LSP client
(neovim.lua), opens a content file, receives a diagnostic for a mistake typed and not saved,
sees it go, jumps to a definition and renames a product's id across the folder; and with the
setup docs/EDITING.md gives, as written there (neovim-setup.lua), one server for three files.

    python3 -m unittest discover -s Tests/Editors -v

Environment: DIGNO (the binary; default .build/debug/digno). Needs Neovim (Debian: apt-get
install neovim); .ci/run installs it.
"""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))


class NeovimTests(unittest.TestCase):
    def workspace(self):
        """A scratch folder holding a copy of the shipped content."""
        workspace = tempfile.mkdtemp(prefix="digno-nvim-")
        self.addCleanup(shutil.rmtree, workspace, True)
        shutil.copytree(os.path.join(REPOSITORY, "content"), os.path.join(workspace, "content"))
        return workspace

    def run_neovim(self, script, workspace, **environment):
        """Debian's Neovim, headless and with no configuration, running `script` (in
        Tests/Editors) in `workspace`: the steps it reported, by name."""
        nvim = shutil.which("nvim")
        if nvim is None:
            self.fail("Neovim is not installed, and this test runs it (Debian: apt-get install neovim)")
        result = os.path.join(workspace, "result.jsonl")
        environment = dict(os.environ, WORKSPACE=workspace, RESULT=result, **environment,
                           XDG_CONFIG_HOME=os.path.join(workspace, "config"), XDG_DATA_HOME=os.path.join(workspace, "data"),
                           XDG_STATE_HOME=os.path.join(workspace, "state"))
        ran = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
                              "-c", "luafile " + os.path.join(REPOSITORY, "Tests", "Editors", script)],
                             cwd=workspace, env=environment, capture_output=True, text=True, timeout=300)
        with open(result, encoding="utf-8") as file:
            steps = {entry["step"]: entry["value"] for entry in map(json.loads, file)}
        self.assertNotIn("error", steps, steps)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        return steps

    def test_a_diagnostic_a_definition_and_a_rename_in_neovim(self):
        workspace = self.workspace()
        before = subprocess.run([DIGNO, "validate", "content"], cwd=workspace, capture_output=True, text=True).stdout
        steps = self.run_neovim("neovim.lua", workspace, DIGNO=os.path.abspath(DIGNO))
        self.assertTrue(steps["started"])
        self.assertEqual(steps["diagnostic"]["message"],
                         "ingredient names product 'espreso', which does not exist; use the id of a file in products/ (did you mean 'espresso'?)")
        self.assertEqual(steps["cleared"], 0)
        self.assertEqual(steps["definition"], os.path.join(workspace, "content", "products", "espresso.xml"))
        self.assertTrue(steps["renamed"])
        # Every reference went with the file: digno validate finds nothing new.
        after = subprocess.run([DIGNO, "validate", "content"], cwd=workspace, capture_output=True, text=True).stdout
        self.assertEqual(after, before)
        with open(os.path.join(workspace, "content", "recipes", "cappuccino.xml"), encoding="utf-8") as file:
            self.assertIn('product="espresso-tumma"', file.read())

    def test_the_guides_setup_starts_one_server_for_the_folder(self):
        """docs/EDITING.md's Neovim 0.7 setup, as written there: three files opened, one server
        attached to all of them, completion and the keys set; a diagnostic in one buffer about a
        product another buffer then saves goes (with a server per file it stayed)."""
        with open(os.path.join(REPOSITORY, "docs", "EDITING.md"), encoding="utf-8") as file:
            guide = file.read()
        section = guide[guide.index("- **Neovim**"):]
        setup = section[section.index("```lua\n") + len("```lua\n"):section.index("```\n", section.index("```lua\n") + 6)]
        setup = "\n".join(line[2:] if line.startswith("  ") else line for line in setup.split("\n"))
        self.assertIn('cmd = { "digno", "lsp" }', setup)
        workspace = self.workspace()
        setup_file = os.path.join(workspace, "setup.lua")
        with open(setup_file, "w", encoding="utf-8") as file:
            file.write(setup.replace('cmd = { "digno", "lsp" }', "cmd = { %s, \"lsp\" }" % json.dumps(os.path.abspath(DIGNO))))
        steps = self.run_neovim("neovim-setup.lua", workspace, SETUP=setup_file)
        self.assertEqual(steps["servers"], 1)
        self.assertEqual(steps["attached"], 3)
        self.assertEqual(steps["omnifunc"], "v:lua.vim.lsp.omnifunc")
        self.assertEqual(set(steps["keys"]) >= {"K", "gd", "gr", "\\rn", "\\ca"}, True, steps["keys"])
        self.assertIn("espresso-tumma", steps["named"])
        self.assertEqual(steps["after save"], [])


if __name__ == "__main__":
    unittest.main()
