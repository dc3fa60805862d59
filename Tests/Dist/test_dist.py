"""The release archive `make dist` writes, unpacked in a clean folder as on a Debian machine that
has only the README's libraries: a PATH with a shell and nothing else (no Swift), a home of its
own, no toolchain library. Its `digno studio --version`, its launcher's start of a studio on a
copy of content/ as from the desktop (no terminal), and the desktop entry it adds.

    python3 -m unittest discover -s Tests/Dist -v

DIST_ARCHIVE names an archive already made; else the test runs `make dist` (a release build,
minutes the first time). SCRATCH_PATH is make's build folder (default .build): its checkouts
give the licences when the archive is made again to compare its bytes. `.ci/run` passes both.
"""

import glob
import http.client
import os
import re
import shutil
import signal
import subprocess
import tarfile
import tempfile
import time
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH_PATH = os.environ.get("SCRATCH_PATH", os.path.join(REPOSITORY, ".build"))


def made_archive():
    given = os.environ.get("DIST_ARCHIVE")
    if given:
        return given
    made = subprocess.run(["make", "dist", "SCRATCH_PATH=" + SCRATCH_PATH], cwd=REPOSITORY, capture_output=True, text=True)
    if made.returncode != 0:
        raise RuntimeError("make dist failed:\n" + made.stdout[-3000:] + made.stderr[-3000:])
    archives = sorted(glob.glob(os.path.join(REPOSITORY, "dist", "digno-*.tar.gz")), key=os.path.getmtime)
    return archives[-1]


class ReleaseArchiveTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.archive = made_archive()
        cls.folder = tempfile.mkdtemp(prefix="digno-dist-")
        with tarfile.open(cls.archive) as tar:
            cls.members = tar.getmembers()
            tar.extractall(cls.folder, filter="data")
        roots = os.listdir(cls.folder)
        assert len(roots) == 1, roots
        cls.root = os.path.join(cls.folder, roots[0])
        cls.home = os.path.join(cls.folder, "home")
        os.makedirs(cls.home)
        # A PATH of a shell and the programs the launcher may run: nothing else, no Swift.
        cls.path = os.path.join(cls.folder, "path")
        os.makedirs(cls.path)
        for program in ["sh", "mkdir", "dirname", "mv"]:
            os.symlink(shutil.which(program), os.path.join(cls.path, program))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def clean(self, **extra):
        """An environment with nothing of this machine's but the system's libraries."""
        return dict({"PATH": self.path, "HOME": self.home, "LANG": "C.UTF-8"}, **extra)

    def test_1_the_archive_holds_the_binary_the_launcher_and_the_licences(self):
        name = os.path.basename(self.archive)[:-len(".tar.gz")]
        self.assertRegex(name, r"^digno-\d+\.\d+\.\d+-linux-[a-z0-9_]+$")
        files = {member.name: member for member in self.members if member.isfile()}
        for path, mode in [("bin/digno", 0o755), ("bin/digno-studio", 0o755), ("README.txt", 0o644),
                           ("licences/swift-runtime-and-foundation/LICENSE.txt", 0o644), ("licences/GRDB.swift/LICENSE", 0o644),
                           ("licences/swift-crypto/LICENSE.txt", 0o644), ("licences/swift-crypto/BoringSSL-NOTICES.txt", 0o644),
                           ("licences/FlyingFox/LICENSE", 0o644), ("licences/swift-argument-parser/LICENSE.txt", 0o644)]:
            with self.subTest(path=path):
                self.assertIn(name + "/" + path, files)
                self.assertEqual(files[name + "/" + path].mode, mode)
        self.assertFalse([member.name for member in self.members if "docc" in member.name], "nothing of the documentation plugin")
        self.assertEqual({(member.uid, member.gid, member.uname) for member in self.members}, {(0, 0, "root")})
        self.assertEqual(len({member.mtime for member in self.members}), 1)
        with open(os.path.join(self.root, "licences", "swift-crypto", "BoringSSL-NOTICES.txt"), encoding="utf-8") as file:
            notices = file.read()
        self.assertIn("Eric Young", notices)
        self.assertIn("The BoringSSL Authors", notices)

    def test_2_made_again_from_the_same_binary_it_is_the_same_bytes(self):
        checkouts = os.path.join(SCRATCH_PATH, "checkouts")
        if not os.path.isdir(checkouts):
            self.fail("no %s: set SCRATCH_PATH to the build folder make dist used" % checkouts)
        again = os.path.join(self.folder, "again")
        epoch = str(next(member.mtime for member in self.members))
        for _ in range(2):
            subprocess.run(["python3", os.path.join(REPOSITORY, "scripts", "dist.py"), "--binary", os.path.join(self.root, "bin", "digno"),
                            "--checkouts", checkouts, "--output", again], check=True, capture_output=True, env=dict(os.environ, SOURCE_DATE_EPOCH=epoch))
            with open(os.path.join(again, os.path.basename(self.archive)), "rb") as made, open(self.archive, "rb") as first:
                self.assertEqual(made.read(), first.read())

    def test_3_it_runs_where_there_is_no_swift(self):
        digno = os.path.join(self.root, "bin", "digno")
        self.assertIsNone(shutil.which("swift", path=self.path))
        linked = subprocess.run(["ldd", digno], capture_output=True, text=True, check=True).stdout
        self.assertNotRegex(linked, r"libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime")
        self.assertNotIn("not found", linked)
        for command in [[digno, "studio", "--version"], [os.path.join(self.root, "bin", "digno-studio"), "--version"]]:
            with self.subTest(command=command[-2:]):
                said = subprocess.run(command, capture_output=True, text=True, env=self.clean(), cwd=self.home, timeout=60)
                self.assertEqual(said.returncode, 0, said.stderr)
                self.assertRegex(said.stdout, r"^digno \d+\.\d+\.\d+ \(bundle schema \d+")

    def test_4_the_launcher_starts_the_studio_as_from_the_desktop(self):
        content = os.path.join(self.folder, "content")
        shutil.copytree(os.path.join(REPOSITORY, "content"), content)
        state = os.path.join(self.folder, "state")
        # No terminal: what the studio says goes to its log.
        studio = subprocess.Popen([os.path.join(self.root, "bin", "digno-studio"), content, "--no-browser", "--port", "0"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=self.clean(XDG_STATE_HOME=state), cwd=self.home)
        try:
            log = os.path.join(state, "digno", "studio.log")
            address = None
            deadline = time.monotonic() + 120
            while address is None and time.monotonic() < deadline and studio.poll() is None:
                time.sleep(0.1)
                if os.path.exists(log):
                    with open(log, encoding="utf-8") as file:
                        found = re.search(r" at http://127\.0\.0\.1:(\d+)/_studio/ ", file.read())
                    address = found and int(found.group(1))
            self.assertIsNotNone(address, "the studio said no address in its log")
            for target in ["/_studio/", "/_studio/edit/product/espresso", "/"]:
                # The app's screens once the first bundle is written (503 "being built" before).
                deadline = time.monotonic() + 60
                while True:
                    connection = http.client.HTTPConnection("127.0.0.1", address, timeout=60)
                    connection.request("GET", target, headers={"Host": "127.0.0.1:%d" % address})
                    response = connection.getresponse()
                    body = response.read().decode("utf-8", "replace")
                    connection.close()
                    if response.status != 503 or time.monotonic() > deadline:
                        break
                    time.sleep(0.1)
                with self.subTest(target=target):
                    self.assertEqual(response.status, 200, body[:500])
                    if target.endswith("espresso"):
                        self.assertIn('value="Espresso"', body)
        finally:
            studio.send_signal(signal.SIGINT)
            status = studio.wait(30)
        self.assertEqual(status, 0)
        # Its drafts in the state folder given, none in the content folder.
        self.assertTrue(os.path.isdir(os.path.join(state, "digno")))
        self.assertEqual(subprocess.run(["diff", "-r", os.path.join(REPOSITORY, "content"), content], capture_output=True).returncode, 0)

    def test_5_the_desktop_entry_opens_the_folder(self):
        content = os.path.join(self.folder, "desk content")
        os.makedirs(content)
        data = os.path.join(self.folder, "data")
        launcher = os.path.join(self.root, "bin", "digno-studio")
        added = subprocess.run([launcher, "--desktop", content], capture_output=True, text=True, env=self.clean(XDG_DATA_HOME=data))
        self.assertEqual(added.returncode, 0, added.stderr)
        with open(os.path.join(data, "applications", "digno-studio.desktop"), encoding="utf-8") as file:
            entry = file.read()
        self.assertIn('Exec="%s" "%s"\n' % (os.path.realpath(launcher), os.path.realpath(content)), entry)
        self.assertIn("Terminal=false\n", entry)
        # A path a desktop entry cannot hold as written: refused, nothing written.
        odd = os.path.join(self.folder, 'say "cheese"')
        os.makedirs(odd)
        refused = subprocess.run([launcher, "--desktop", odd], capture_output=True, text=True, env=self.clean(XDG_DATA_HOME=data))
        self.assertEqual(refused.returncode, 2)
        with open(os.path.join(data, "applications", "digno-studio.desktop"), encoding="utf-8") as file:
            self.assertEqual(file.read(), entry)


if __name__ == "__main__":
    unittest.main()
