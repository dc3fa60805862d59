"""Tests of the release path against a real static host: `digno publish` writes a channel
folder, Debian's nginx serves it, a fault-injecting proxy stands in front, and `digno update`
(the app's BundleStore) installs from it.

    python3 -m unittest discover -s Tests/Channel -v

Environment: DIGNO (the binary; default .build/debug/digno), NGINX (default: nginx on PATH, or
/usr/sbin/nginx). Needs Python's `cryptography` (Debian: python3-cryptography) to sign the heads
digno publish will not write. `.ci/run` installs what they need and runs them.
"""

import json
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import unittest

from channel_host import (DIGNO, REPOSITORY, Fault, Nginx, Proxy, digno, release_copy, sha256_file,
                          sign_head, verified_payload)

HEAD = "channels/stable/head.json"


class ChannelTestCase(unittest.TestCase):
    """One nginx and one proxy for the suite; each test has its own channel folder under the
    served root, its own store and its own keys."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="digno-channel-")
        # nginx's worker runs as another user (nobody) when the tests run as root.
        os.chmod(cls.work, 0o755)
        cls.root = os.path.join(cls.work, "root")
        os.makedirs(cls.root)
        cls.base_bundle = os.path.join(cls.work, "base.sqlite")
        digno("build", os.path.join(REPOSITORY, "content"), "--output", cls.base_bundle, check=0)
        cls.nginx = Nginx(cls.root)
        cls.proxy = Proxy(cls.nginx.port)

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        cls.nginx.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.proxy.clear()
        self.name = self.id().rsplit(".", 1)[-1]
        self.folder = os.path.join(self.work, self.name)
        os.makedirs(self.folder)
        self.channel = os.path.join(self.root, self.name)
        self.store = os.path.join(self.folder, "store")
        self.key_file = os.path.join(self.folder, "signing.key")
        self.public_key = self.keygen(self.key_file)
        self.seed = release_copy(self.base_bundle, os.path.join(self.folder, "seed.sqlite"), "2026.1.0")

    def keygen(self, path):
        output = digno("keygen", "--output", path, check=0).stdout
        return output.strip().splitlines()[-1]

    def release(self, version):
        return release_copy(self.base_bundle, os.path.join(self.folder, f"{version}.sqlite"), version)

    def publish(self, version, *extra, key=None):
        result = digno("publish", "--bundle", self.release(version), "--channel-dir", self.channel, "--key", key or self.key_file, *extra, check=0)
        return result.stdout

    def path(self, relative):
        """The path the proxy sees for a file of this test's channel folder."""
        return f"/{self.name}/{relative}"

    def head(self):
        with open(os.path.join(self.channel, HEAD), "rb") as file:
            return file.read()

    def bundle_path(self):
        return self.path(verified_payload(self.head())["bundle"]["path"])

    def update(self, *extra, key=None, check=None):
        return digno("update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store, "--key", key or self.public_key,
                     "--seed", self.seed, *extra, check=check)

    def serving(self):
        """What the store serves now, asked of digno update --current: (version, source, path)."""
        output = self.update("--current", check=0).stdout
        found = re.fullmatch(r"serving release (\S+) from (.+?): (\S+)\n", output)
        self.assertIsNotNone(found, output)
        return found.group(1), found.group(2), found.group(3)

    def store_state(self):
        with open(os.path.join(self.store, "store.json"), "rb") as file:
            return file.read()


class UpdateTests(ChannelTestCase):
    def test_first_install_from_the_seed_then_a_newer_release(self):
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))
        self.publish("2026.2.0")
        result = self.update(check=0)
        self.assertRegex(result.stdout, r"^installed release 2026\.2\.0 \(head 1\): \d+ bytes, SHA-256 [0-9a-f]{64}\n")
        version, source, path = self.serving()
        self.assertEqual((version, source), ("2026.2.0", "installed"))
        self.assertEqual(os.path.basename(path), sha256_file(path) + ".sqlite")
        # The first download came compressed (nginx's gzip_static and the .gz copy).
        download = self.proxy.requests(self.bundle_path())[0]
        self.assertEqual(download["headers"].get("Content-Encoding"), "gzip")
        self.assertLess(download["sent"], os.path.getsize(path) / 2)

        self.publish("2026.3.0")
        # With the release notes since the previous head (the same entities here: 0 changes).
        self.assertIn("what changed since 2026.2.0: 0 entities (release notes in ", self.update(check=0).stdout)
        self.assertEqual(self.serving()[:2], ("2026.3.0", "installed"))
        # The previous release is kept, and the new one's notes; nothing else.
        self.assertEqual(sorted(name.split(".", 1)[1] for name in os.listdir(os.path.join(self.store, "bundles"))),
                         ["notes.json", "sqlite", "sqlite"])

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


class DeltaTests(ChannelTestCase):
    """Delta updates: digno publish writes deltas from the channel's recent releases, nginx
    serves them (gzip_static), and digno update uses one when the store holds its source,
    falling back to the whole bundle in the same run when it fails."""

    def install_then_publish(self):
        """Release 2026.2.0 installed, then 2026.3.0 published with a delta from it; the delta."""
        self.publish("2026.2.0")
        self.update(check=0)
        self.old_sha = verified_payload(self.head())["bundle"]["sha256"]
        output = self.publish("2026.3.0")
        self.assertIn("1 delta from recent releases: deltas/", output)
        deltas = verified_payload(self.head())["deltas"]
        self.assertEqual([delta["from"] for delta in deltas], [self.old_sha])
        return deltas[0]

    def assert_installed_whole(self, result, reason):
        """The update fell back to the bundle, said why, and installed the new release."""
        self.assertIn("warning: the delta failed, so the whole bundle was downloaded: ", result.stderr)
        self.assertIn(reason, result.stderr)
        self.assertNotIn("made from a delta", result.stdout)
        self.assertEqual(len(self.proxy.requests(self.bundle_path())), 1)
        self.assert_serving_the_new_release()

    def assert_serving_the_new_release(self):
        version, source, path = self.serving()
        self.assertEqual((version, source), ("2026.3.0", "installed"))
        self.assertEqual(sha256_file(path), verified_payload(self.head())["bundle"]["sha256"])
        self.assertEqual(os.listdir(os.path.join(self.store, "staging")), [])

    def test_an_update_by_delta(self):
        delta = self.install_then_publish()
        self.proxy.clear()
        result = self.update(check=0)
        self.assertIn(f"made from a delta on the bundle {self.old_sha}", result.stdout)
        self.assertNotIn("warning", result.stderr)
        self.assertEqual(self.proxy.requests(self.bundle_path()), [])
        fetched = self.proxy.requests(self.path(delta["path"]))
        self.assertEqual(len(fetched), 1)
        # Served from the .gz copy (gzip_static); a delta is under half the bundle.
        self.assertEqual(fetched[0]["headers"].get("Content-Encoding"), "gzip")
        self.assertLess(delta["bytes"] * 2, verified_payload(self.head())["bundle"]["bytes"])
        self.assert_serving_the_new_release()

    def test_a_missing_delta(self):
        delta = self.install_then_publish()
        for suffix in ("", ".gz"):
            os.remove(os.path.join(self.channel, delta["path"] + suffix))
        self.proxy.clear()
        self.assert_installed_whole(self.update(check=0), "answered HTTP 404")

    def test_a_corrupt_delta(self):
        delta = self.install_then_publish()
        self.proxy.clear()
        self.proxy.set(self.path(delta["path"]), Fault(flip=delta["bytes"] // 2))
        self.assert_installed_whole(self.update(check=0), f"{delta['path']}: its SHA-256 is ")

    def test_a_delta_from_another_source(self):
        """The head names a delta from the installed bundle, but the file was made from another
        (signed as the head says: only the result can tell)."""
        delta = self.install_then_publish()
        head = verified_payload(self.head())
        # The installed bundle's bytes 4 KiB further on: every copy lands elsewhere in it.
        other = os.path.join(self.folder, "other.sqlite")
        with open(os.path.join(self.store, "bundles", self.old_sha + ".sqlite"), "rb") as source, open(other, "wb") as file:
            file.write(b"x" * 4096 + source.read())
        new = os.path.join(self.channel, head["bundle"]["path"])
        path = os.path.join(self.channel, delta["path"])
        os.remove(path + ".gz")
        subprocess.run(["xdelta3", "-e", "-9", "-S", "none", "-A", "-f", "-s", other, new, path], check=True)
        head["deltas"][0]["sha256"] = sha256_file(path)
        head["deltas"][0]["bytes"] = os.path.getsize(path)
        with open(os.path.join(self.channel, HEAD), "wb") as file:
            file.write(sign_head(self.key_file, head))
        self.proxy.clear()
        result = self.update(check=0)
        self.assertRegex(result.stderr, r"Adler-32|gives a bundle whose SHA-256 is|copies from outside what it may copy from")
        self.assert_installed_whole(result, delta["path"])

    def test_an_app_five_releases_behind_updates_by_delta(self):
        for minor in range(2, 5):
            self.publish(f"2026.{minor}.0")
        self.update(check=0)
        installed = verified_payload(self.head())["bundle"]["sha256"]
        for minor in range(5, 10):
            self.publish(f"2026.{minor}.0")
        head = verified_payload(self.head())
        self.assertEqual(len(head["deltas"]), 5)
        self.assertEqual(head["deltas"][-1]["from"], installed)
        # On the host: the deltas to the head's bundle and to those it retains (each with its .gz
        # copy), no others.
        served = {head["bundle"]["sha256"]} | {retained["sha256"] for retained in head["retained"]}
        on_host = os.listdir(os.path.join(self.channel, "deltas"))
        self.assertEqual({name.split(".")[0].split("-")[1] for name in on_host}, served)
        self.assertTrue({delta["path"][len("deltas/"):] for delta in head["deltas"]} <= set(on_host))
        self.proxy.clear()
        result = self.update(check=0)
        self.assertIn(f"made from a delta on the bundle {installed}", result.stdout)
        self.assertEqual(self.proxy.requests(self.bundle_path()), [])
        self.assertEqual(self.serving()[0], "2026.9.0")


class KilledUpdateTests(ChannelTestCase):
    KILLS = int(os.environ.get("KILLS", "100"))

    def test_an_update_killed_at_random_points_leaves_a_valid_bundle(self):
        """`digno update` killed (SIGKILL) at a random time, 100 times, each time with a new
        release on the channel and the download slowed so that kills land in every step (the
        head, the download, the checks, the renames). Every other release comes with a delta
        from the one before (slowed too), so kills also land while a delta is fetched and
        applied. After each, the store serves a bundle that opens, is the one it names, and is
        the release served before or the new one."""
        random.seed(23)
        # Uncapped rate, then one slowed to about 0.3 s for the download, to time a whole update.
        self.publish("2026.2.0")
        # The download comes as the gzip copy: its size decides how many pieces the proxy sends.
        compressed = os.path.getsize(os.path.join(self.channel, verified_payload(self.head())["bundle"]["path"] + ".gz"))
        pieces = -(-compressed // 16384)
        self.proxy.set(self.bundle_path(), Fault(delay=0.3 / pieces))
        started = time.monotonic()
        self.update(check=0)
        duration = time.monotonic() - started
        before = "2026.2.0"
        installs = resumed = 0
        for round in range(self.KILLS):
            version = f"2026.3.{round}"
            self.publish(version, *(["--deltas", "0"] if round % 2 else []))
            self.proxy.set(self.bundle_path(), Fault(delay=0.3 / pieces))
            for delta in verified_payload(self.head()).get("deltas", []):
                self.proxy.set(self.path(delta["path"]), Fault(delay=0.3))
            process = subprocess.Popen([DIGNO, "update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store, "--key", self.public_key],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(random.uniform(0, duration * 1.2))
            process.send_signal(signal.SIGKILL)
            process.wait()
            served, source, path = self.serving()
            self.assertIn(served, (before, version), f"round {round}")
            self.assertEqual(source, "installed", f"round {round}")
            self.assertEqual(os.path.basename(path), sha256_file(path) + ".sqlite", f"round {round}")
            if served == version:
                installs += 1
            elif round % 5 == 4:
                # Every fifth round the update is finished, resuming what the killed one left.
                self.proxy.clear()
                self.update(check=0)
                served = self.serving()[0]
                self.assertEqual(served, version)
                resumed += 1
            before = served
        with open(os.path.join(self.store, "store.json")) as file:
            applied = json.load(file).get("deltas", {}).get("applied", 0)
        print(f"\n{self.KILLS} kills: {installs} had installed, {resumed} finished by the next update, {applied} by a delta", flush=True)
        self.assertGreater(applied, 0)
        self.assertGreater(installs, 0)
        self.assertLess(installs, self.KILLS)


if __name__ == "__main__":
    unittest.main()
