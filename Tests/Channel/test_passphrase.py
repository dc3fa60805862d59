"""A root key's passphrase typed on a terminal, as a release manager types it in the key
ceremony: `digno root sign` in a pseudo-terminal. Ctrl-C at the prompt puts the terminal's echo
back; a wrong passphrase is asked again, three times in all; an empty DIGNO_PASSPHRASE is
refused. Needs nothing but digno (no nginx)."""

import os
import pty
import select
import shutil
import signal
import tempfile
import termios
import time
import unittest

from channel_host import digno

PASSPHRASE = "correct horse battery staple"


class PassphrasePromptTests(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="digno-passphrase-")
        self.key = os.path.join(self.work, "root.pem")
        made = digno("keygen", "--output", self.key, "--encrypt", env={**os.environ, "DIGNO_PASSPHRASE": PASSPHRASE}, check=0)
        root_key = made.stdout.strip().splitlines()[-1]
        release_key = digno("keygen", "--output", os.path.join(self.work, "release.key"), check=0).stdout.strip().splitlines()[-1]
        self.root = os.path.join(self.work, "root.json")
        digno("root", "draft", "--channel-dir", os.path.join(self.work, "channel"), "--root-key", root_key,
              "--release-key", release_key, "--expires", "30d", "--output", self.root, check=0)

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def sign_on_a_terminal(self):
        """`digno root sign` with a pseudo-terminal as its controlling terminal, and no
        DIGNO_PASSPHRASE: the child's pid and the terminal's master end."""
        from channel_host import DIGNO
        environment = {name: value for name, value in os.environ.items() if name != "DIGNO_PASSPHRASE"}
        pid, master = pty.fork()
        if pid == 0:
            os.execve(DIGNO, [DIGNO, "root", "sign", self.root, "--key", self.key], environment)
        self.addCleanup(os.close, master)
        return pid, master

    def read_until(self, master, text, seconds=60):
        """What the terminal shows until `text` appears (the child's output and prompts)."""
        shown = b""
        deadline = time.monotonic() + seconds
        while text.encode() not in shown:
            left = deadline - time.monotonic()
            self.assertGreater(left, 0, f"no {text!r} on the terminal; it showed {shown!r}")
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                try:
                    piece = os.read(master, 4096)
                except OSError:
                    piece = b""
                self.assertTrue(piece, f"the terminal closed before {text!r}; it showed {shown!r}")
                shown += piece
        return shown.decode(errors="replace")

    def echoes(self, master):
        return bool(termios.tcgetattr(master)[3] & termios.ECHO)

    def wait(self, pid):
        _, status = os.waitpid(pid, 0)
        return status

    def test_ctrl_c_at_the_prompt_puts_the_echo_back(self):
        pid, master = self.sign_on_a_terminal()
        shown = self.read_until(master, "Passphrase for")
        # What it signs is shown before the passphrase is asked.
        self.assertIn("root 1: heads signed by 1 of ed25519:", shown)
        self.assertFalse(self.echoes(master), "the passphrase would be echoed")
        os.write(master, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the foreground process
        status = self.wait(pid)
        self.assertTrue(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT, f"status {status}")
        self.assertTrue(self.echoes(master), "Ctrl-C left the terminal without echo")

    def test_a_wrong_passphrase_is_asked_again_three_times_in_all(self):
        pid, master = self.sign_on_a_terminal()
        self.read_until(master, "Passphrase for")
        os.write(master, b"not it at all\n")
        self.assertIn("try again (2 more)", self.read_until(master, "Passphrase for"))
        os.write(master, PASSPHRASE.encode() + b"\n")
        shown = self.read_until(master, "signed root 1 with ed25519:")
        self.assertNotIn(PASSPHRASE, shown)
        self.assertEqual(os.WEXITSTATUS(self.wait(pid)), 0)
        self.assertTrue(self.echoes(master))

        pid, master = self.sign_on_a_terminal()
        for attempt in range(3):
            self.read_until(master, "Passphrase for")
            os.write(master, b"wrong again\n")
        self.read_until(master, "the passphrase does not open it")
        self.assertEqual(os.WEXITSTATUS(self.wait(pid)), 2)
        self.assertTrue(self.echoes(master))

    def test_an_empty_variable_is_refused_not_used(self):
        result = digno("root", "sign", self.root, "--key", self.key, env={**os.environ, "DIGNO_PASSPHRASE": ""})
        self.assertEqual(result.returncode, 2)
        self.assertIn("DIGNO_PASSPHRASE is set but empty", result.stderr)


if __name__ == "__main__":
    unittest.main()
