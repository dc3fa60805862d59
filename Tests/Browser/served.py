"""A `digno` server the browser tests start: `digno preview` or `digno studio` over a copy of
content/ on a free port, its address read from what it prints, stopped by Ctrl-C."""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TODAY = "2026-11-22"


class Served:
    """`digno COMMAND` running over a copy of content/ on a free port; `address` is the first
    `http://127.0.0.1:<port>/…` it prints (the preview's root, the studio's `/_studio/`)."""

    def __init__(self, digno, command, content=None, extra=()):
        # A copy of content/, removed at stop; or a folder given, the caller's.
        self.owned = content is None
        if content is None:
            self.content = tempfile.mkdtemp(prefix="digno-browser-")
            shutil.rmtree(self.content)
            shutil.copytree(os.path.join(REPOSITORY, "content"), self.content)
        else:
            self.content = content
        # The studio's drafts go to the user's state folder: one of the test's own.
        self.state = tempfile.mkdtemp(prefix="digno-state-")
        self.process = subprocess.Popen(
            [digno, command, "--content", self.content, "--port", "0", "--today", TODAY] + (["--no-browser"] if command == "studio" else []) + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, XDG_STATE_HOME=self.state))
        self.lines = []
        self.address = None
        ready = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines.append(line.rstrip("\n"))
                found = re.search(r" at (http://127\.0\.0\.1:\d+/\S*) ", line)
                if found and self.address is None:
                    self.address = found.group(1)
                    ready.set()
            ready.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not ready.wait(60) or self.address is None:
            self.process.kill()
            raise RuntimeError("digno %s did not start: %s" % (command, "\n".join(self.lines)))
        self.port = int(self.address.split(":")[2].split("/")[0])
        self.origin = "http://127.0.0.1:%d" % self.port

    def path(self, relative):
        return os.path.join(self.content, relative)

    def stop(self):
        """Ctrl-C; returns the exit status."""
        self.process.send_signal(signal.SIGINT)
        status = self.process.wait(20)
        self.reader.join(5)
        if self.owned:
            shutil.rmtree(self.content, ignore_errors=True)
        shutil.rmtree(self.state, ignore_errors=True)
        return status

    def drafts(self):
        """The files of the drafts the studio keeps (`StudioDrafts`), by name."""
        found = []
        for folder, _, files in os.walk(self.state):
            found += [name for name in files if name.endswith(".json")]
        return sorted(found)
