"""Delta updates against nginx: a delta instead of the bundle, and every way one fails falls back
to the whole bundle in the same update.

    python3 -m unittest discover -s Tests/Channel -v
"""

import os
import subprocess
import unittest

from channel_host import Fault, sha256_file, sign_head, verified_payload
from channel_case import HEAD, ChannelTestCase


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
        # The plain delta (Linux: no encoded body, as for the bundle); under half the bundle.
        self.assertNotIn("Content-Encoding", fetched[0]["headers"])
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


if __name__ == "__main__":
    unittest.main()
