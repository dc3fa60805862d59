"""Updates killed at random points: the store serves the old release or the new one, never a mix.

    python3 -m unittest discover -s Tests/Channel -v
"""

import json
import os
import random
import signal
import subprocess
import time
import unittest

from channel_host import DIGNO, Fault, bundle_schema, sha256_file
from channel_case import ChannelTestCase


class KilledUpdateTests(ChannelTestCase):
    KILLS = int(os.environ.get("KILLS", "100"))
    # Each release in schemas 4, 3 and 2, as digno build writes them: the client installs schema
    # 4 from a head whose own fields are schema 2's.
    SCHEMAS = (4, 3, 2)

    def test_an_update_killed_at_random_points_leaves_a_valid_bundle(self):
        """`digno update` killed (SIGKILL) at a random time, KILLS times (100 unless the
        environment says: CI runs 50), each time with a new
        release on the channel and the download slowed so that kills land in every step (the
        head, the download, the checks, the renames). Every other release comes with a delta
        from the one before (slowed too), so kills also land while a delta is fetched and
        applied. After each, the store serves a bundle that opens, is the one it names, and is
        the release served before or the new one, in schema 4 (each head offers 2, 3 and 4)."""
        random.seed(23)
        # Uncapped rate, then one slowed to about 0.3 s for the download, to time a whole update.
        self.publish("2026.2.0")
        # The download comes plain (Linux): its size decides how many pieces the proxy sends.
        plain = os.path.getsize(os.path.join(self.channel, self.newest_release()["bundle"]["path"]))
        pieces = -(-plain // 16384)
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
            for delta in self.newest_release().get("deltas", []):
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
            self.assertEqual(bundle_schema(path), 4, f"round {round}")
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
