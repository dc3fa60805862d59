"""The CI recipes: `digno validate --format sarif` read by an independent SARIF implementation
(sarif-pydantic, PyPI), the composite GitHub Action's own shell steps run with bash as a runner
would run them (no GitHub runner exists here: the upload step is not run), and the pre-commit
hook run by pre-commit (PyPI) on a scratch repository.

    python3 -m unittest discover -s Tests/Editors -v

Environment: DIGNO (the binary; default .build/debug/digno). Needs sarif-pydantic, PyYAML and
pre-commit from PyPI; .ci/run installs them.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGNO = os.environ.get("DIGNO", os.path.join(REPOSITORY, ".build", "debug", "digno"))
TODAY = "2026-11-22"


def require(module, package):
    try:
        return __import__(module)
    except ImportError:
        raise AssertionError(f"{package} is not installed, and this test uses it (pip install {package})")


def git(folder, *arguments):
    subprocess.run(["git", "-C", folder, "-c", "user.name=test", "-c", "user.email=test@example.com", *arguments],
                   check=True, capture_output=True)


class RecipeCase(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="digno-recipes-")
        # A content repository: the shipped content with two mistakes, in a git repository.
        self.repository = os.path.join(self.scratch, "brand")
        shutil.copytree(os.path.join(REPOSITORY, "content"), os.path.join(self.repository, "content"))
        product = os.path.join(self.repository, "content", "products", "espresso.xml")
        with open(product, encoding="utf-8") as file:
            text = file.read()
        text = text.replace("<summary>", "<summary>" + "Hyvin " * 20, 1)
        with open(product, "w", encoding="utf-8") as file:
            file.write(text)
        recipe = os.path.join(self.repository, "content", "recipes", "cafe-latte.xml")
        with open(recipe, encoding="utf-8") as file:
            text = file.read()
        with open(recipe, "w", encoding="utf-8") as file:
            file.write(re.sub(r'product="[a-z-]+"', 'product="espreso"', text, count=1))
        subprocess.run(["git", "init", "-q", self.repository], check=True)

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def validate(self, *arguments, folder=None):
        return subprocess.run([DIGNO, "validate", "content", "--today", TODAY, *arguments], cwd=folder or self.repository,
                              capture_output=True, text=True)


class SARIFTests(RecipeCase):
    def test_the_report_is_sarif_2_1_0_with_every_rule_documented(self):
        sarif_pydantic = require("sarif_pydantic", "sarif-pydantic")
        outcome = self.validate("--format", "sarif", "--docs-url", "https://example.com/digno/docs")
        self.assertEqual(outcome.returncode, 1, outcome.stderr)
        document = json.loads(outcome.stdout)
        log = sarif_pydantic.Sarif.model_validate(document)
        # The models accept fields they do not know: none may be left over, anywhere.
        def unknown(model, where):
            found = [f"{where}.{name}" for name in (model.model_extra or {})]
            for name, value in model:
                for index, item in enumerate(value if isinstance(value, list) else [value]):
                    if hasattr(item, "model_extra"):
                        found += unknown(item, f"{where}.{name}[{index}]")
                if isinstance(value, dict):
                    for key, item in value.items():
                        if hasattr(item, "model_extra"):
                            found += unknown(item, f"{where}.{name}[{key}]")
            return found
        # run.columnKind (SARIF 2.1.0, 3.14.17) is not in sarif-pydantic's models: checked here.
        self.assertEqual(unknown(log, "log"), ["log.runs[0].columnKind"])
        self.assertEqual(document["runs"][0]["columnKind"], "unicodeCodePoints")
        self.assertEqual(log.version, "2.1.0")
        self.assertEqual(document["$schema"], "https://json.schemastore.org/sarif-2.1.0.json")
        run = log.runs[0]
        rules = run.tool.driver.rules
        self.assertEqual(run.tool.driver.name, "digno")
        # Every code of docs/DIAGNOSTICS.md, each with words and a link to them.
        with open(os.path.join(REPOSITORY, "docs", "DIAGNOSTICS.md"), encoding="utf-8") as file:
            rows = re.findall(r"^\| (`[a-z0-9-]+`(?:, `[a-z0-9-]+`)*) \| (?:error|warning)", file.read(), re.M)
        documented = [code for row in rows for code in re.findall(r"`([a-z0-9-]+)`", row)]
        self.assertEqual(sorted(rule.id for rule in rules), sorted(set(documented)))
        for rule in rules:
            self.assertTrue(rule.short_description.text and rule.full_description.text, rule.id)
            self.assertEqual(rule.help_uri, "https://example.com/digno/docs/DIAGNOSTICS.md")
        by_id = {rule.id: rule for rule in rules}
        self.assertEqual(by_id["summary-too-long"].short_description.text, "over the field's limit")
        self.assertEqual(by_id["missing-file"].short_description.text, "catalog.xml, home.xml or company.xml is missing")
        results = {(result.rule_id, result.locations[0].physical_location.artifact_location.uri): result for result in run.results}
        long = results[("summary-too-long", "content/products/espresso.xml")]
        self.assertEqual(long.level, "error")
        self.assertEqual(long.locations[0].physical_location.region.start_line, 5)
        self.assertEqual(long.locations[0].physical_location.artifact_location.uri_base_id, "%SRCROOT%")
        self.assertEqual(rules[long.rule_index].id, "summary-too-long")
        self.assertIn(("unknown-product", "content/recipes/cafe-latte.xml"), results)
        self.assertEqual(len(run.results), 2)

    def test_the_same_content_gives_the_same_bytes_wherever_it_is(self):
        first = self.validate("--format", "sarif").stdout
        moved = os.path.join(self.scratch, "elsewhere", "brand")
        shutil.copytree(self.repository, moved)
        self.assertEqual(self.validate("--format", "sarif", folder=moved).stdout, first)
        # From inside the content folder, paths are still the repository's.
        inside = subprocess.run([DIGNO, "validate", ".", "--today", TODAY, "--format", "sarif"],
                                cwd=os.path.join(moved, "content"), capture_output=True, text=True)
        self.assertEqual(inside.stdout, first)


    def test_a_folder_outside_any_repository_is_located_so_code_scanning_can_place_it(self):
        bare = os.path.join(self.scratch, "bare")
        shutil.copytree(os.path.join(self.repository, "content"), os.path.join(bare, "content"))
        # Inside the working directory: relative to it, on %SRCROOT%.
        inside = json.loads(self.validate("--format", "sarif", folder=bare).stdout)
        location = inside["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        self.assertTrue(location["uri"].startswith("content/"), location)
        self.assertEqual(location["uriBaseId"], "%SRCROOT%")
        # Outside it: an absolute file:// URI with no base, never an absolute path on %SRCROOT%.
        working = os.path.join(self.scratch, "working")
        os.makedirs(working)
        elsewhere = subprocess.run([DIGNO, "validate", os.path.join(bare, "content"), "--today", TODAY, "--format", "sarif"],
                                   cwd=working, capture_output=True, text=True)
        for result in json.loads(elsewhere.stdout)["runs"][0]["results"]:
            location = result["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertTrue(location["uri"].startswith("file://" + os.path.realpath(bare) + "/content/"), location)
            self.assertNotIn("uriBaseId", location)


class ActionTests(RecipeCase):
    def steps(self):
        yaml = require("yaml", "PyYAML")
        with open(os.path.join(REPOSITORY, "action.yml"), encoding="utf-8") as file:
            action = yaml.safe_load(file)
        self.assertEqual(action["runs"]["using"], "composite")
        return action["runs"]["steps"]

    def run_step(self, step, env):
        """A `run:` step as the runner runs it: bash with -e and pipefail, the step's env with
        its expressions replaced by what the test gives."""
        self.assertEqual(step["shell"], "bash")
        self.assertNotIn("${{", step["run"], "expressions belong in env:, not in the script")
        environment = dict(os.environ, **env)
        for name, value in step.get("env", {}).items():
            environment[name] = env.get(name, "")
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=self.repository, env=environment, capture_output=True, text=True)

    def outputs(self, path):
        with open(path, encoding="utf-8") as file:
            return dict(line.split("=", 1) for line in file.read().splitlines())

    def test_the_steps_validate_upload_fall_back_and_fail_as_digno_does(self):
        validate, upload, annotate, result = self.steps()
        self.assertEqual(upload["uses"], "github/codeql-action/upload-sarif@v3")
        output = os.path.join(self.scratch, "github-output")
        env = {"GITHUB_ACTION_PATH": REPOSITORY, "GITHUB_OUTPUT": output, "RUNNER_TEMP": self.scratch,
               "CONTENT": "content", "DIGNO": DIGNO, "DOCS_URL": "https://example.com/digno/docs"}
        ran = self.run_step(validate, env)
        self.assertEqual(ran.returncode, 0, ran.stderr)
        outputs = self.outputs(output)
        self.assertEqual(outputs["status"], "1")
        with open(outputs["sarif"], encoding="utf-8") as file:
            sarif = json.load(file)
        self.assertEqual(len(sarif["runs"][0]["results"]), 2)
        # The fallback: annotations, one per problem.
        annotated = self.run_step(annotate, env)
        self.assertEqual(annotated.returncode, 0)
        self.assertIn("::error file=content/products/espresso.xml,line=5,col=3,title=summary-too-long::", annotated.stdout)
        # The job fails on errors, passes on valid content.
        failed = self.run_step(result, dict(env, STATUS="1"))
        self.assertEqual(failed.returncode, 1)
        self.assertEqual(self.run_step(result, dict(env, STATUS="0")).returncode, 0)
        self.assertEqual(self.run_step(result, dict(env, STATUS="")).returncode, 2)

    def test_a_missing_digno_is_named(self):
        validate = self.steps()[0]
        output = os.path.join(self.scratch, "github-output")
        ran = self.run_step(validate, {"GITHUB_ACTION_PATH": REPOSITORY, "GITHUB_OUTPUT": output, "CONTENT": "content",
                                       "DIGNO": "/nowhere/digno", "DOCS_URL": ""})
        self.assertEqual(ran.returncode, 0)
        self.assertIn("::error title=digno missing::'/nowhere/digno' is not installed", ran.stdout)
        self.assertEqual(self.outputs(output), {"status": "2"})


class PreCommitTests(RecipeCase):
    def test_the_hook_checks_the_whole_folder_and_stops_a_commit_with_errors(self):
        require("pre_commit", "pre-commit")
        command = [sys.executable, "-m", "pre_commit"]
        # The hook's repository: this one's .pre-commit-hooks.yaml, as committed or not.
        hooks = os.path.join(self.scratch, "hooks")
        os.makedirs(hooks)
        shutil.copy(os.path.join(REPOSITORY, ".pre-commit-hooks.yaml"), hooks)
        subprocess.run(["git", "init", "-q", hooks], check=True)
        git(hooks, "add", "-A")
        git(hooks, "commit", "-qm", "hooks")
        environment = dict(os.environ, PATH=os.path.dirname(DIGNO) + os.pathsep + os.environ["PATH"],
                           PRE_COMMIT_HOME=os.path.join(self.scratch, "pre-commit-home"))
        git(self.repository, "add", "-A")
        refused = subprocess.run([*command, "try-repo", hooks, "digno-validate", "--all-files"], cwd=self.repository,
                                 env=environment, capture_output=True, text=True)
        self.assertEqual(refused.returncode, 1, refused.stdout + refused.stderr)
        self.assertIn("products/espresso.xml:5:3: error:", refused.stdout)
        self.assertIn("[unknown-product]", refused.stdout)
        # Fixed (the shipped files again): the hook passes. Only one file staged, yet the whole
        # folder is checked: the hook takes no file names.
        for path in ("products/espresso.xml", "recipes/cafe-latte.xml"):
            shutil.copy(os.path.join(REPOSITORY, "content", path), os.path.join(self.repository, "content", path))
        git(self.repository, "add", "-A")
        passed = subprocess.run([*command, "try-repo", hooks, "digno-validate", "--all-files"], cwd=self.repository,
                                env=environment, capture_output=True, text=True)
        self.assertEqual(passed.returncode, 0, passed.stdout + passed.stderr)
        self.assertIn("Passed", passed.stdout)


if __name__ == "__main__":
    unittest.main()
