"""Hostile hosts against `digno update`: bodies that inflate without end.

    python3 -m unittest discover -s Tests/Channel -v
"""

import struct
import subprocess
import sys
import unittest
import zlib

from channel_host import DIGNO, Fault, verified_payload
from channel_case import HEAD, ChannelTestCase


def gzip_bomb(gib):
    """A gzip body that inflates to `gib` GiB of zeros from about a thousandth of that: one
    compressed MiB, flushed so that it stands alone, repeated. The trailer's CRC is not the
    data's; nothing that reads the whole of it should ever get there."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(bytes(1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + block * (gib << 10) + end + struct.pack("<II", 0, (gib << 30) & 0xFFFFFFFF)


def peak_memory_of(*command):
    """Runs `command` in a Python process of its own, whose only child it is: its exit status,
    what it wrote to standard error, and its peak resident memory in MiB (ru_maxrss is in KiB)."""
    script = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
              "print(r.returncode); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024); "
              "sys.stdout.write(r.stderr)")
    output = subprocess.run([sys.executable, "-c", script, *command], capture_output=True, text=True, check=True).stdout
    status, peak, errors = output.split("\n", 2)
    return int(status), errors, int(peak)


class HostileHostTests(ChannelTestCase):
    # 10.3 MB that inflate to 10 GiB: once `digno update` reached 11.2 GB of memory and ran 47 s
    # for such a body, and 259 MiB when Linux's URLSession was asked for the plain file (it
    # decodes whatever it is sent). Now, on Linux, it fetches through libcurl, which decodes
    # nothing: an encoded answer is refused at its last header line, and a body goes to the
    # store as it arrives (Sources/CurlTransport). Each case peaked at 43 to 49 MiB here.
    BOMB = gzip_bomb(10)
    PEAK_MIB = 100

    def update_under_watch(self):
        """`digno update` in a process of its own: its status, its errors and its peak memory in MiB."""
        return peak_memory_of(DIGNO, "update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store,
                              "--key", self.public_key, "--seed", self.seed)

    def assert_bomb_refused(self, path, fault=None):
        """The bomb served for `path`: refused before its body is read, in bounded memory, and
        the store serves what it served (the seed)."""
        self.proxy.set(path, fault or Fault(body=self.BOMB, headers={"Content-Encoding": "gzip"}))
        status, errors, peak = self.update_under_watch()
        self.proxy.set(path, None)
        self.assertEqual(status, 2, errors)
        self.assertIn("encoded as 'gzip', which was not asked for", errors)
        self.assertLess(peak, self.PEAK_MIB, f"{peak} MiB")
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))

    def test_a_gzip_bomb_for_the_head_is_refused_before_its_body(self):
        """A gzip bomb served with `Content-Encoding: gzip` for the head: once the store held
        gigabytes (2.3 GB for a 2 GiB one), now the answer is refused before its body is read."""
        self.publish("2026.2.0")
        self.assert_bomb_refused(self.path(HEAD))
        self.assertEqual(self.update(check=0).returncode, 0)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_gzip_bomb_for_the_bundle_is_refused_before_its_body(self):
        self.publish("2026.2.0")
        self.assert_bomb_refused(self.bundle_path())
        self.assertEqual(self.update(check=0).returncode, 0)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_gzip_bomb_for_the_rest_of_a_bundle_is_refused_and_the_resume_goes_on(self):
        """A download cut midway, then a 206 answer to its resume that is a gzip bomb: refused,
        the part kept, and the next update resumes it."""
        self.publish("2026.2.0")
        size = verified_payload(self.head())["bundle"]["bytes"]
        self.proxy.set(self.bundle_path(), Fault(cut_after=size // 3))
        self.assertEqual(self.update(check=2).returncode, 2)
        bomb = Fault(body=self.BOMB, body_status=206,
                     headers={"Content-Encoding": "gzip", "Content-Range": f"bytes {size // 3}-{size - 1}/{size}"})
        self.assert_bomb_refused(self.bundle_path(), bomb)
        self.proxy.clear()
        self.update(check=0)
        self.assertEqual(self.proxy.requests(self.bundle_path())[0]["request"].get("Range"), f"bytes={size // 3}-")
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_gzip_bombs_for_the_notes_and_the_delta_leave_the_update_whole(self):
        """Release 2026.2.0 installed, then 2026.3.0 with a delta and release notes, both served
        as gzip bombs: the delta falls back to the whole bundle and the notes are left out, in
        bounded memory."""
        self.publish("2026.2.0")
        self.update(check=0)
        self.publish("2026.3.0")
        payload = verified_payload(self.head())
        for path in (payload["deltas"][0]["path"], payload["notes"]["json"]["path"]):
            self.proxy.set(self.path(path), Fault(body=self.BOMB, headers={"Content-Encoding": "gzip"}))
        status, errors, peak = self.update_under_watch()
        self.assertEqual(status, 0, errors)
        self.assertIn("warning: the delta failed, so the whole bundle was downloaded: ", errors)
        self.assertIn("encoded as 'gzip', which was not asked for", errors)
        self.assertLess(peak, self.PEAK_MIB, f"{peak} MiB")
        self.assertEqual(self.serving()[0], "2026.3.0")

    def test_an_endless_plain_body_for_the_notes_is_stopped_past_their_size(self):
        """Notes served as 64 MiB with no declared length (the body ends when the connection
        does): once 335 MB were held; now the transfer stops past the signed size."""
        self.publish("2026.2.0")
        self.update(check=0)
        self.publish("2026.3.0")
        notes = verified_payload(self.head())["notes"]["json"]
        self.proxy.set(self.path(notes["path"]), Fault(body=b"[" * (64 << 20), undeclared=True))
        status, errors, peak = self.update_under_watch()
        self.assertEqual(status, 0, errors)
        self.assertLess(peak, self.PEAK_MIB, f"{peak} MiB")
        self.assertEqual(self.serving()[0], "2026.3.0")
        self.assertLess(self.proxy.requests(self.path(notes["path"]))[0]["sent"], 64 << 20)


if __name__ == "__main__":
    unittest.main()
