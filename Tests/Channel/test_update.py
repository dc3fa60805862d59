"""Tests of the release path against a real static host: `digno publish` writes a channel
folder, Debian's nginx serves it, a fault-injecting proxy stands in front, and `digno update`
(the app's BundleStore) installs from it.

    python3 -m unittest discover -s Tests/Channel -v

Environment: DIGNO (the binary; default .build/debug/digno), NGINX (default: nginx on PATH, or
/usr/sbin/nginx). Needs Python's `cryptography` (Debian: python3-cryptography) to sign the heads
digno publish will not write. `.ci/run` installs what they need and runs them.
"""

import os
import re
import resource
import signal
import sqlite3
import subprocess
import unittest

from channel_host import DIGNO, Fault, digno, sha256_file, sign_head, verified_payload
from channel_case import HEAD, ChannelTestCase


class UpdateTests(ChannelTestCase):
    def test_first_install_from_the_seed_then_a_newer_release(self):
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
        self.publish("2026.2.0")
        result = self.update(check=0)
        self.assertRegex(result.stdout, r"^installed release 2026\.2\.0 \(head 1\): \d+ bytes, SHA-256 [0-9a-f]{64}\n")
        version, source, path = self.serving()
        self.assertEqual((version, source), ("2026.2.0", "installed"))
        self.assertEqual(os.path.basename(path), sha256_file(path) + ".sqlite")
        # The plain bundle, asked for as such: Linux's URLSession cannot inflate a gzip copy in
        # step with the store, so the store takes no encoded body there (an app on Apple's
        # systems takes the gzip copy).
        download = self.proxy.requests(self.bundle_path())[0]
        self.assertEqual(download["request"].get("Accept-Encoding"), "identity")
        self.assertNotIn("Content-Encoding", download["headers"])
        self.assertEqual(download["sent"], os.path.getsize(path))

        self.publish("2026.3.0")
        # With the release notes since the previous head (the same entities here: 0 changes).
        self.assertIn("what changed since 2026.2.0: 0 entities (release notes in ", self.update(check=0).stdout)
        self.assertEqual(self.serving()[:2], ("2026.3.0", "installed"))
        # The previous release is kept, each with the signed head that installed it, and the new
        # one's notes; nothing else.
        self.assertEqual(sorted(name.split(".", 1)[1] for name in os.listdir(os.path.join(self.store, "bundles"))),
                         ["head.json", "head.json", "notes.json", "sqlite", "sqlite"])

        # Two releases later, the notes start from the release the store had, not the last step.
        self.publish("2026.4.0")
        self.publish("2026.5.0")
        self.assertIn("what changed since 2026.3.0: 0 entities (release notes in ", self.update(check=0).stdout)

    def test_nothing_new_is_one_request_with_no_body(self):
        self.publish("2026.2.0")
        self.update(check=0)
        self.proxy.clear()
        result = self.update(check=0)
        self.assertEqual(result.stdout.splitlines()[0], "already current: release 2026.2.0")
        requests = self.proxy.requests()
        self.assertEqual([(entry["path"], entry["status"], entry["sent"]) for entry in requests], [(self.path(HEAD), 304, 0)])
        self.assertIn("If-None-Match", requests[0]["request"])

    def test_a_tampered_head_or_one_signed_by_another_key_is_refused(self):
        self.publish("2026.2.0")
        self.update(check=0)
        state = self.store_state()
        self.publish("2026.3.0")
        tampered = bytearray(self.head())
        # A byte of the signature changed.
        index = tampered.index(b'"sig":"') + 12
        tampered[index] = ord("A") if tampered[index] != ord("A") else ord("B")
        self.proxy.set(self.path(HEAD), Fault(body=bytes(tampered)))
        result = self.update(check=1)
        self.assertIn("refused: no trusted key signed this file", result.stderr)

        other = os.path.join(self.folder, "other.key")
        self.keygen(other)
        other_channel = os.path.join(self.folder, "other-channel")
        digno("publish", "--bundle", self.release("2026.4.0"), "--channel-dir", other_channel, "--key", other, check=0)
        with open(os.path.join(other_channel, HEAD), "rb") as file:
            self.proxy.set(self.path(HEAD), Fault(body=file.read()))
        result = self.update(check=1)
        self.assertIn("refused: no trusted key signed this file", result.stderr)
        self.assertEqual(self.store_state(), state)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_key_rotation_reaches_apps_that_pin_the_old_key(self):
        self.publish("2026.2.0")
        self.update(check=0)
        new_key_file = os.path.join(self.folder, "new.key")
        new_key = self.keygen(new_key_file)
        result = digno("rotate-key", "--channel-dir", self.channel, "--key", self.key_file, "--new-key", new_key_file, check=0)
        self.assertEqual(result.stdout.splitlines()[0], f"wrote keys/1.json: the channel's key is now {new_key}")
        # The head is signed again (the same release): the app takes the statement and stays current.
        self.assertEqual(self.update(check=0).stdout.splitlines()[0], "already current: release 2026.2.0")
        self.assertEqual([entry["status"] for entry in self.proxy.requests(self.path("keys/1.json"))], [404, 200])
        # The old key publishes no more; the new one does, and the app, still pinning the old key, installs it.
        old = digno("publish", "--bundle", self.release("2026.3.0"), "--channel-dir", self.channel, "--key", self.key_file, check=1)
        self.assertIn("error: the key given was handed over to another by keys/1.json; sign with the key it names", old.stderr)
        other = os.path.join(self.folder, "third.key")
        self.keygen(other)
        again = digno("rotate-key", "--channel-dir", self.channel, "--key", self.key_file, "--new-key", other, check=1)
        self.assertIn("handed over to another by keys/1.json", again.stderr)
        self.publish("2026.3.0", key=new_key_file)
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.3.0"))
        # A store that never saw the rotation follows it too.
        self.store = os.path.join(self.folder, "fresh-store")
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.3.0"))

    def test_a_replayed_older_head_is_refused(self):
        self.publish("2026.2.0")
        old = self.head()
        self.update(check=0)
        self.publish("2026.3.0")
        self.update(check=0)
        self.proxy.set(self.path(HEAD), Fault(body=old))
        result = self.update(check=1)
        self.assertIn("refused: the head's sequence number 1 is lower than 2, already seen", result.stderr)
        self.assertEqual(self.serving()[0], "2026.3.0")

    def test_an_expired_head_and_a_newer_schema_install_nothing(self):
        self.publish("2026.2.0")
        head = verified_payload(self.head())
        head["expires"] = "2020-01-01T00:00:00Z"
        self.proxy.set(self.path(HEAD), Fault(body=sign_head(self.key_file, head)))
        result = self.update(check=1)
        self.assertIn("refused: the channel's head (release 2026.2.0) expired at 2020-01-01T00:00:00Z; nothing was installed", result.stderr)

        head["expires"] = "2099-01-01T00:00:00Z"
        head["sequence"] = 2
        head["schemaVersion"] = 99
        self.proxy.set(self.path(HEAD), Fault(body=sign_head(self.key_file, head)))
        result = self.update(check=1)
        self.assertIn("refused: release 2026.2.0 needs bundle schema 99", result.stderr)
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
        self.assertEqual(self.proxy.requests(self.bundle_path()), [])

    def test_a_renewed_head_installs_as_before(self):
        self.publish("2026.2.0")
        result = digno("publish", "--channel-dir", self.channel, "--key", self.key_file, "--renew", "--expires", "90d", check=0)
        self.assertTrue(result.stdout.startswith("renewed release 2026.2.0 on stable as head 2: bundles/"), result.stdout)
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.2.0 (head 2)"))

    def test_bundles_that_are_not_the_signed_bytes_are_refused(self):
        self.publish("2026.2.0")
        size = verified_payload(self.head())["bundle"]["bytes"]
        cases = [
            (Fault(truncate=size - 1000), f"is {size - 1000} bytes, not the {size} the head declares"),
            (Fault(flip=size // 2), "the downloaded bundle's SHA-256 is "),
            (Fault(extra=b"x" * 100_000), f"the host sent more than the {size} bytes the head declares; the download was stopped"),
        ]
        for fault, message in cases:
            with self.subTest(message=message):
                self.proxy.set(self.bundle_path(), fault)
                result = self.update(check=1)
                self.assertIn(message, result.stderr)
                self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
                self.assertEqual(os.listdir(os.path.join(self.store, "staging")), [])
                # Not fetched again for the same head.
                self.proxy.clear()
                self.assertIn("was refused at an earlier update", self.update(check=1).stderr)
                self.assertEqual(self.proxy.requests(self.bundle_path()), [])
                # A renewed head tries again.
                digno("publish", "--channel-dir", self.channel, "--key", self.key_file, "--renew", check=0)
        self.proxy.set(self.bundle_path(), None)
        self.update(check=0)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_404_and_500_are_errors_that_change_nothing(self):
        result = self.update(check=2)
        self.assertIn("answered HTTP 404", result.stderr)
        self.publish("2026.2.0")
        self.proxy.set(self.path(HEAD), Fault(status=500))
        self.assertIn("answered HTTP 500", self.update(check=2).stderr)
        self.proxy.set(self.path(HEAD), None)
        self.proxy.set(self.bundle_path(), Fault(status=404))
        self.assertIn("answered HTTP 404", self.update(check=2).stderr)
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
        self.proxy.set(self.bundle_path(), None)
        self.update(check=0)

    def test_a_connection_cut_midway_is_resumed(self):
        self.publish("2026.2.0")
        size = verified_payload(self.head())["bundle"]["bytes"]
        self.proxy.set(self.bundle_path(), Fault(cut_after=size // 3))
        result = self.update(check=2)
        self.assertIn("cannot fetch", result.stderr)
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
        staged = os.listdir(os.path.join(self.store, "staging"))
        self.assertEqual(len(staged), 1)
        self.assertEqual(os.path.getsize(os.path.join(self.store, "staging", staged[0])), size // 3)

        self.proxy.set(self.bundle_path(), None)
        self.proxy.clear()
        self.update(check=0)
        resumed = self.proxy.requests(self.bundle_path())
        self.assertEqual(len(resumed), 1)
        self.assertEqual(resumed[0]["request"].get("Range"), f"bytes={size // 3}-")
        self.assertEqual(resumed[0]["status"], 206)
        self.assertEqual(resumed[0]["sent"], size - size // 3)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_full_disk_loses_nothing(self):
        """Writes that fail midway, as on a full disk (a file size limit, RLIMIT_FSIZE: the
        system refuses to write past it), while the state or the bundle is written."""
        self.publish("2026.2.0")
        self.update(check=0)
        self.publish("2026.3.0")
        size = verified_payload(self.head())["bundle"]["bytes"]
        for limit, failing in ((1000, "store.json.partial"), (size // 2, ".part")):
            with self.subTest(limit=limit):
                def limited():
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
                result = subprocess.run([DIGNO, "update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store, "--key", self.public_key],
                                        capture_output=True, text=True, preexec_fn=limited, timeout=60)
                self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
                self.assertIn("cannot use the store: ", result.stderr)
                self.assertRegex(result.stderr, re.escape(failing) + r": File too large")
                self.assertEqual(self.serving()[:2], ("2026.2.0", "installed"))
        self.update(check=0)
        self.assertEqual(self.serving()[0], "2026.3.0")

    def test_two_updaters_at_once_install_once(self):
        self.publish("2026.2.0")
        self.proxy.set(self.bundle_path(), Fault(delay=0.01))
        command = [DIGNO, "update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store, "--key", self.public_key]
        processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [process.communicate(timeout=60) for process in processes]
        self.assertEqual([process.returncode for process in processes], [0, 0], outputs)
        firsts = sorted(output[0].splitlines()[0].split(" ")[0] for output in outputs)
        self.assertEqual(firsts, ["already", "installed"])
        self.assertEqual(len(self.proxy.requests(self.bundle_path())), 1)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_reader_keeps_reading_through_installs(self):
        self.publish("2026.2.0")
        self.update(check=0)
        _, _, path = self.serving()
        reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        reader.execute("BEGIN")
        products = reader.execute("SELECT count(*) FROM products").fetchone()[0]
        # Two more releases: the one the reader has open is removed from the store.
        self.publish("2026.3.0")
        self.update(check=0)
        self.publish("2026.4.0")
        self.update(check=0)
        self.assertFalse(os.path.exists(path))
        self.assertEqual(reader.execute("SELECT count(*) FROM products").fetchone()[0], products)
        self.assertEqual(reader.execute("PRAGMA quick_check").fetchone()[0], "ok")
        self.assertEqual(reader.execute("SELECT value FROM bundle_info WHERE key = 'release_version'").fetchone()[0], "2026.2.0")
        reader.close()
        self.assertEqual(self.serving()[0], "2026.4.0")


if __name__ == "__main__":
    unittest.main()
