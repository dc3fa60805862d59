"""Hostile hosts against `digno update`: bodies that inflate without end.

    python3 -m unittest discover -s Tests/Channel -v
"""

import struct
import subprocess
import sys
import unittest
import zlib

from channel_host import DIGNO, Fault
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
    # 2.1 MB that inflate to 2 GiB. Linux's URLSession inflates all of a body it was sent
    # (libcurl decodes inside one socket read loop, before a cancel can reach it), so a bomb
    # costs the time it takes to inflate (3.3 s a GiB here) whatever the store does. Refusing
    # the answer before its body keeps the inflated bytes from piling up for the store: this
    # bomb peaked at 86 MiB (2.3 GB before), but a 10 GiB one still at 259 MiB, in 33 s, by hand.
    BOMB = gzip_bomb(2)
    PEAK_MIB = 150

    def update_under_watch(self):
        """`digno update` in a process of its own: its status, its errors and its peak memory in MiB."""
        return peak_memory_of(DIGNO, "update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store,
                              "--key", self.public_key, "--seed", self.seed)

    def assert_bomb_refused(self, path):
        """The bomb served for `path`: refused before its body is read, in bounded memory, and
        the store serves what it served (the seed)."""
        self.proxy.set(path, Fault(body=self.BOMB, headers={"Content-Encoding": "gzip"}))
        status, errors, peak = self.update_under_watch()
        self.proxy.set(path, None)
        self.assertEqual(status, 2, errors)
        self.assertIn("encoded as 'gzip', which was not asked for", errors)
        self.assertLess(peak, self.PEAK_MIB, f"{peak} MiB")
        self.assertEqual(self.serving()[:2], ("2026.1.0", "the seed"))

    def test_a_gzip_bomb_for_the_head_is_refused_before_its_body(self):
        """A gzip bomb served with `Content-Encoding: gzip` for the head: once the store held
        gigabytes (2.3 GB for this one), now the answer is refused before its body is read."""
        self.publish("2026.2.0")
        self.assert_bomb_refused(self.path(HEAD))
        self.assertEqual(self.update(check=0).returncode, 0)
        self.assertEqual(self.serving()[0], "2026.2.0")

    def test_a_gzip_bomb_for_the_bundle_is_refused_before_its_body(self):
        self.publish("2026.2.0")
        self.assert_bomb_refused(self.bundle_path())
        self.assertEqual(self.update(check=0).returncode, 0)
        self.assertEqual(self.serving()[0], "2026.2.0")

if __name__ == "__main__":
    unittest.main()
