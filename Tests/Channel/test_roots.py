"""The channel's root against nginx: release key A leaks; the root keys, kept offline, sign a root
naming key B; an app that pins only the root keys (and root 1) takes heads signed by B and
refuses a later head signed by A, with no app update; a thief's root signed by A is refused.
The signatures are checked by securesystemslib too, an implementation independent of ours."""

import base64
import hashlib
import json
import os
import re
import shutil
import socket
import time
import unittest

from channel_case import HEAD, ChannelTestCase
from channel_host import Fault, Nginx, digno, free_port, read_signing_key, sign_head, verified_payload
from test_schemas import old_client

ROOT_TYPE = "application/vnd.cafedigno.channel-root+json"
# The last commit before roots: its `digno update` pins a release key, as every app of today does.
BEFORE_ROOTS_COMMIT = "7b418f23264455d55ab270dcb91b2137007a7923"
# The last commit whose store kept its root in store.json, by the channel's URL (before roots
# were kept as files, issue 57): the root-pinning app of 2026-11.
BEFORE_ROOT_FILES_COMMIT = "2e261bb47ebe7570cb6302fec4ac7956436c5494"


class RootCase(ChannelTestCase):
    def setUp(self):
        super().setUp()
        self.root_keys = []
        for index in range(3):
            path = os.path.join(self.folder, f"root-{index}.key")
            self.root_keys.append((path, self.keygen(path)))

    def publish_root(self, *release_keys, signers=(0, 1), expires="365d"):
        """Drafts the channel's next root naming `release_keys`, signs it with the root keys
        `signers` (each a step of its own, as on separate machines) and publishes it."""
        draft = os.path.join(self.folder, "root-draft.json")
        if os.path.exists(draft):
            os.remove(draft)
        first = not os.path.isdir(os.path.join(self.channel, "roots"))
        root_options = [option for _, public in self.root_keys for option in ("--root-key", public)] + ["--root-threshold", "2"] if first else []
        digno("root", "draft", "--channel-dir", self.channel, *[option for key in release_keys for option in ("--release-key", key)],
              *root_options, "--expires", expires, "--output", draft, check=0)
        for index in signers:
            digno("root", "sign", draft, "--key", self.root_keys[index][0], check=0)
        return digno("root", "publish", draft, "--channel-dir", self.channel, check=0).stdout

    def update_pinning_roots(self, check=None, root_file=None):
        """`digno update` as an app pinning the three root keys (two of which sign a root)."""
        pins = [option for _, public in self.root_keys for option in ("--root-key", public)]
        extra = ["--root-file", root_file] if root_file else []
        return digno("update", "--url", self.proxy.url(f"/{self.name}"), "--store", self.store, *pins, "--root-threshold", "2",
                     *extra, "--seed", self.seed, check=check)


class RootTests(RootCase):
    def test_a_leaked_release_key_is_replaced_with_no_app_update(self):
        self.assertIn("published roots/1.json: root 1", self.publish_root(self.public_key))
        self.publish("2026.2.0")
        self.assertTrue(self.update_pinning_roots(check=0).stdout.startswith("installed release 2026.2.0"))

        # Key A leaks. Key B, and root 2 naming it, signed offline by two other root keys.
        key_b = os.path.join(self.folder, "b.key")
        public_b = self.keygen(key_b)
        self.publish_root(public_b, signers=(1, 2))
        # The old key can no longer publish: the root would refuse its head.
        refused = self.publish_result("2026.3.0", check=1)
        self.assertIn("the channel's root would refuse the head", refused.stderr)
        self.publish("2026.3.0", key=key_b)
        self.assertTrue(self.update_pinning_roots(check=0).stdout.startswith("installed release 2026.3.0"))

        # The thief's head, signed by A with a sequence far ahead: refused, nothing changes.
        thief_channel = os.path.join(self.folder, "thief")
        digno("publish", "--bundle", self.release("2026.9.0"), "--channel-dir", thief_channel, "--key", self.key_file, check=0)
        with open(os.path.join(thief_channel, HEAD), "rb") as file:
            self.proxy.set(self.path(HEAD), Fault(body=file.read()))
        state = self.store_state()
        result = self.update_pinning_roots(check=1)
        self.assertIn("refused: no trusted key signed this file", result.stderr)
        self.assertEqual(self.store_state(), state)

        # The thief's root 3, naming his key, signed by A and by it: refused, nothing changes.
        self.proxy.clear()
        thief_key = os.path.join(self.folder, "thief.key")
        thief_public = self.keygen(thief_key)
        forged = {"format": 1, "version": 3, "expires": "2030-01-01T00:00:00Z", "rootKeys": [self.public_key, thief_public],
                  "rootThreshold": 1, "releaseKeys": [thief_public], "releaseThreshold": 1}
        self.proxy.set(self.path("roots/3.json"), Fault(body=envelope(forged, [self.key_file, thief_key])))
        result = self.update_pinning_roots(check=1)
        self.assertIn("refused: the root roots/3.json is not taken: no trusted key signed this file", result.stderr)
        self.assertEqual(self.store_state(), state)
        self.proxy.clear()
        self.assertEqual(self.serving(key=public_b)[0], "2026.3.0")

    def test_an_app_shipping_the_current_root_starts_from_it(self):
        self.publish_root(self.public_key)
        key_b = os.path.join(self.folder, "b.key")
        public_b = self.keygen(key_b)
        self.publish_root(public_b, signers=(0, 2))
        self.publish("2026.2.0", key=key_b)
        # The app ships root 2: root 1 is never fetched.
        result = self.update_pinning_roots(check=0, root_file=os.path.join(self.channel, "roots", "2.json"))
        self.assertTrue(result.stdout.startswith("installed release 2026.2.0"), result.stderr)
        fetched = [entry["path"] for entry in self.proxy.requests() if "/roots/" in entry["path"]]
        self.assertEqual(fetched, [self.path("roots/3.json")])

    def test_publish_warns_a_month_before_the_root_expires(self):
        self.publish_root(self.public_key, expires="45d")
        self.assertNotIn("warning: the channel's root", self.publish_result("2026.2.0", check=0).stderr)
        self.publish_root(self.public_key, expires="20d")
        warned = self.publish_result("2026.3.0", check=0).stderr
        self.assertRegex(warned, r"warning: the channel's root 2 expires in (19|20) days \(.*\): apps that pin the root keys install nothing once it has")

    def test_an_app_that_pins_a_release_key_keeps_updating_from_a_channel_with_a_root(self):
        self.publish_root(self.public_key)
        self.publish("2026.2.0")
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.2.0"))

    def test_securesystemslib_verifies_the_roots_and_heads(self):
        try:
            from securesystemslib.dsse import Envelope
            from securesystemslib.signer import SSlibKey
        except ImportError:
            self.fail("securesystemslib is missing: install it (pip install securesystemslib); .ci/run does")
        self.publish_root(self.public_key, signers=(0, 2))
        self.publish("2026.2.0")

        def key(public):
            raw = base64.b64decode(public.removeprefix("ed25519:"))
            return SSlibKey(hashlib.sha256(raw).hexdigest(), "ed25519", "ed25519", {"public": raw.hex()})

        with open(os.path.join(self.channel, "roots", "1.json"), "rb") as file:
            root_envelope = Envelope.from_dict(json.loads(file.read()))
        root_keys = [key(public) for _, public in self.root_keys]
        self.assertEqual(root_envelope.payload_type, ROOT_TYPE)
        verified = root_envelope.verify(root_keys, 2)
        self.assertEqual(set(verified), {root_keys[0].keyid, root_keys[2].keyid})
        root = json.loads(root_envelope.payload)
        self.assertEqual(root["releaseKeys"], [self.public_key])
        head_envelope = Envelope.from_dict(json.loads(self.head()))
        head_envelope.verify([key(public) for public in root["releaseKeys"]], root["releaseThreshold"])


class AppOfTodayRootTests(RootCase):
    """An app of today pins a release key (the client built from the last commit before roots):
    it keeps updating from a channel that has a root, and a rotation of the release key reaches
    it as a key statement."""

    @classmethod
    def setUpClass(cls):
        cls.old_digno = old_client(BEFORE_ROOTS_COMMIT)
        super().setUpClass()

    def test_an_app_pinning_a_release_key_follows_a_channel_with_a_root(self):
        old = {"client": self.old_digno, "store": os.path.join(self.folder, "old-store"), "seed": self.seed}
        self.publish_root(self.public_key)
        self.publish("2026.2.0")
        self.assertTrue(self.update(check=0, **old).stdout.startswith("installed release 2026.2.0"))
        self.assertTrue(self.update_pinning_roots(check=0).stdout.startswith("installed release 2026.2.0"))
        # Key A is replaced: root 2 for the apps pinning the root, a key statement for those pinning A.
        key_b = os.path.join(self.folder, "b.key")
        public_b = self.keygen(key_b)
        self.publish_root(public_b, signers=(1, 2))
        digno("rotate-key", "--channel-dir", self.channel, "--key", self.key_file, "--new-key", key_b, check=0)
        self.publish("2026.3.0", key=key_b)
        self.assertTrue(self.update(check=0, **old).stdout.startswith("installed release 2026.3.0"))
        self.assertTrue(self.update_pinning_roots(check=0).stdout.startswith("installed release 2026.3.0"))


class KeyPinnedLeakTests(RootCase):
    """An app pinning release key A (as apps before roots do) through RELEASES.md's steps after a
    leak, in the order written: root N+1 naming B, publish with B, then digno rotate-key --key
    a.key --new-key b.key. The thief's head, at the publisher's next sequence or at the highest a
    head may have, does not hold the app back, and no --renew is needed between."""

    def the_steps_as_written(self, thiefs_sequence):
        self.publish_root(self.public_key)
        self.publish("2026.11.1")
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.11.1"))
        publishers_head = self.head()
        # The thief, with A, publishes 2026.11.2; the app installs it.
        self.publish("2026.11.2")
        if thiefs_sequence is not None:
            head = verified_payload(self.head())
            head["sequence"] = thiefs_sequence
            with open(os.path.join(self.channel, HEAD), "wb") as file:
                file.write(sign_head(self.key_file, head))
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.11.2"))
        # The publisher's folder never had the thief's head: his next sequence is 2. (A second
        # later: nginx's ETag is the file's modification time and size, and a head of the same
        # size written in the same second would be answered 304.)
        time.sleep(1.1)
        with open(os.path.join(self.channel, HEAD), "wb") as file:
            file.write(publishers_head)
        key_b = os.path.join(self.folder, "b.key")
        self.publish_root(self.keygen(key_b), signers=(1, 2))
        self.publish("2026.11.3", key=key_b)
        self.assertEqual(verified_payload(self.head())["sequence"], 2)
        self.assertIn("no trusted key signed this file", self.update(check=1).stderr)
        digno("rotate-key", "--channel-dir", self.channel, "--key", self.key_file, "--new-key", key_b, check=0)
        self.assertTrue(self.update(check=0).stdout.startswith("installed release 2026.11.3"))
        # A head A signs alone is refused from then on, at any sequence.
        head = verified_payload(self.head())
        head["sequence"] = 2 ** 53
        with open(os.path.join(self.channel, HEAD), "wb") as file:
            file.write(sign_head(self.key_file, head))
        self.assertIn("no trusted key signed this file", self.update(check=1).stderr)

    def test_the_thief_at_the_next_sequence(self):
        self.the_steps_as_written(None)

    def test_the_thief_at_the_highest_sequence(self):
        self.the_steps_as_written(2 ** 53)


class StoreOfTheLastReleaseTests(RootCase):
    """A store written by the root-pinning client of 2026-11 (its root in store.json, by the
    channel's URL) is taken over by this one on first use: its release served offline at once,
    its root kept as a file, and the thief's key refused, at another spelling of the URL too."""

    @classmethod
    def setUpClass(cls):
        cls.old_digno = old_client(BEFORE_ROOT_FILES_COMMIT)
        super().setUpClass()

    def pinning_roots(self, client, *extra, url=None, check=None):
        pins = [option for _, public in self.root_keys for option in ("--root-key", public)]
        return digno("update", "--url", url or self.proxy.url(f"/{self.name}"), "--store", self.store, *pins, "--root-threshold", "2",
                     "--seed", self.seed, *extra, check=check, binary=client)

    def test_a_store_kept_by_the_last_release_is_taken_over(self):
        # The app of 2026-11 takes root 1 (A) and root 2 (B, A dropped), and installs B's release.
        self.publish_root(self.public_key)
        self.publish("2026.11.1")
        self.assertTrue(self.pinning_roots(self.old_digno, check=0).stdout.startswith("installed release 2026.11.1"))
        key_b = os.path.join(self.folder, "b.key")
        self.publish_root(self.keygen(key_b), signers=(1, 2))
        self.publish("2026.11.2", key=key_b)
        self.assertTrue(self.pinning_roots(self.old_digno, check=0).stdout.startswith("installed release 2026.11.2"))
        state = json.loads(self.store_state())
        self.assertEqual([entry["version"] for entry in state["roots"].values()], [2], state)
        self.assertFalse(os.path.isdir(os.path.join(self.store, "roots")))

        # This version's client, offline: the release is served as it was.
        offline = f"http://127.0.0.1:{free_port()}/{self.name}"
        self.assertEqual(self.pinning_roots(None, "--current", url=offline, check=0).stdout.split(": ")[0],
                         "serving release 2026.11.2 from installed")
        result = self.pinning_roots(None, url=offline, check=2)
        self.assertIn("serving release 2026.11.2 from installed", result.stdout)
        state = json.loads(self.store_state())
        self.assertNotIn("roots", state)
        self.assertEqual(state["rootTaken"]["version"], 2)
        self.assertTrue(os.path.exists(os.path.join(self.store, "roots", "2.json")))
        # Online, at the URL with a trailing slash: current; a head A signs is refused.
        slashed = self.proxy.url(f"/{self.name}/")
        self.assertTrue(self.pinning_roots(None, url=slashed, check=0).stdout.startswith("already current: release 2026.11.2"))
        head = verified_payload(self.head())
        head["sequence"] = 2 ** 50
        with open(os.path.join(self.channel, HEAD), "wb") as file:
            file.write(sign_head(self.key_file, head))
        refused = self.pinning_roots(None, url=slashed, check=1)
        self.assertIn("no trusted key signed this file", refused.stderr)
        self.assertIn("serving release 2026.11.2 from installed", refused.stdout)


class LeakRollbackTests(RootCase):
    """Issue 57: after a leak, the thief's release never comes back. Release key A leaks; the
    thief publishes 2026.11.2 with it and the app installs it; root 2 drops A and names B, and
    2026.11.3 signed by B is installed. Whatever then happens to the store's state, its bundle,
    the channel's URL or its host, the app serves 2026.11.3 (or the seed), never 2026.11.2. The
    app ships root 1 and pins the three root keys, two of which sign a root."""

    def setUp(self):
        super().setUp()
        self.key_b = os.path.join(self.folder, "b.key")
        self.public_b = self.keygen(self.key_b)

    def ship_root(self):
        """Root 1 naming key A, published, and a copy of it shipped with the app."""
        self.publish_root(self.public_key)
        self.shipped_root = os.path.join(self.folder, "app-root.json")
        shutil.copyfile(os.path.join(self.channel, "roots", "1.json"), self.shipped_root)

    def update_shipping_root(self, *extra, url=None, check=None):
        """`digno update` as an app pinning the root keys and shipping root 1, from the channel at
        `url` (by default through the proxy)."""
        pins = [option for _, public in self.root_keys for option in ("--root-key", public)]
        return digno("update", "--url", url or self.proxy.url(f"/{self.name}"), "--store", self.store, *pins, "--root-threshold", "2",
                     "--root-file", self.shipped_root, "--seed", self.seed, *extra, check=check)

    def unreachable(self):
        """The channel's URL on a loopback port nothing listens on."""
        return f"http://127.0.0.1:{free_port()}/{self.name}"

    def served(self, result):
        """What `digno update` (or `--current`) said last that the store serves: (version, source, path)."""
        last = (result.stdout.splitlines() or [""])[-1]
        found = re.fullmatch(r"serving release (\S+) from (.+?): (\S+)", last)
        self.assertIsNotNone(found, result.stdout + result.stderr)
        return found.group(1), found.group(2), found.group(3)

    def assert_serves(self, result, version, source):
        """That `digno update` (or `--current`) ended by saying it serves `version` from `source`;
        the bundle's path."""
        served = self.served(result)
        self.assertEqual(served[:2], (version, source), result.stdout + result.stderr)
        return served[2]

    def installed_versions(self):
        return [release["releaseVersion"] for release in json.loads(self.store_state())["installed"]]

    def tell_the_leak(self):
        """The story: 2026.11.1 signed by A, the thief's 2026.11.2 signed by A, then root 2 naming
        B and 2026.11.3 signed by B, each installed in turn."""
        self.ship_root()
        self.publish("2026.11.1")
        self.assertTrue(self.update_shipping_root(check=0).stdout.startswith("installed release 2026.11.1"))
        # Key A leaks: the thief publishes with it, and the app takes his release.
        self.publish("2026.11.2")
        self.thief_head = self.head()
        self.assertTrue(self.update_shipping_root(check=0).stdout.startswith("installed release 2026.11.2"))
        self.thief_state = self.store_state()
        # Root 2 drops A and names B, signed offline by two root keys; B publishes the next release.
        self.publish_root(self.public_b, signers=(1, 2))
        self.publish("2026.11.3", key=self.key_b)
        result = self.update_shipping_root(check=0)
        self.assertTrue(result.stdout.startswith("installed release 2026.11.3"), result.stdout + result.stderr)
        self.assert_serves(result, "2026.11.3", "installed")
        # The thief's release is dropped, its files with it.
        self.assertEqual(self.installed_versions(), ["2026.11.3"])
        sha256 = json.loads(self.store_state())["installed"][0]["sha256"]
        self.assertEqual({name.split(".")[0] for name in os.listdir(os.path.join(self.store, "bundles"))}, {sha256})
        # The roots taken from the host, kept: root 2 (root 1 is the app's own).
        self.assertEqual(os.listdir(os.path.join(self.store, "roots")), ["2.json"])

    def test_a_lost_or_damaged_state_is_rebuilt_with_the_newest_roots_keys(self):
        self.tell_the_leak()
        kept = os.path.join(self.folder, "store-after-the-leak")
        shutil.copytree(self.store, kept)
        state = os.path.join(self.store, "store.json")
        for fault in ("deleted", "garbage"):
            with self.subTest(fault):
                shutil.rmtree(self.store)
                shutil.copytree(kept, self.store)
                if fault == "deleted":
                    os.remove(state)
                else:
                    with open(state, "wb") as file:
                        file.write(b"\x00\xff\x13garbage\xfe" * 37)
                # The host is unreachable: the update fails, and the state is made again from the
                # kept roots and heads, with root 2's keys.
                failed = self.update_shipping_root(url=self.unreachable(), check=2)
                self.assertIn("error: cannot fetch", failed.stderr)
                self.assert_serves(failed, "2026.11.3", "installed")
                self.assert_serves(self.update_shipping_root("--current", url=self.unreachable(), check=0), "2026.11.3", "installed")
                self.assertEqual(self.installed_versions(), ["2026.11.3"])

    def test_the_state_of_the_thiefs_install_put_back_serves_none_of_his_release(self):
        self.tell_the_leak()
        # store.json as it was when the thief's release was installed (a backup restored, say).
        with open(os.path.join(self.store, "store.json"), "wb") as file:
            file.write(self.thief_state)
        failed = self.update_shipping_root(url=self.unreachable(), check=2)
        offline = self.served(failed)[:2]
        self.assertIn(offline, [("2026.11.3", "installed"), ("2026.1.0", "the seed")])
        self.assertEqual(self.served(self.update_shipping_root("--current", url=self.unreachable(), check=0))[:2], offline)
        self.assertNotIn("2026.11.2", self.installed_versions())
        # Online, 2026.11.3 again, from the bundle the store holds: nothing is downloaded.
        self.proxy.clear()
        self.assert_serves(self.update_shipping_root(check=0), "2026.11.3", "installed")
        self.assertEqual([entry["path"] for entry in self.proxy.requests() if "/bundles/" in entry["path"] or "/deltas/" in entry["path"]], [])

    def test_the_channel_at_its_url_with_a_trailing_slash_keeps_the_roots_taken(self):
        self.tell_the_leak()
        self.proxy.clear()
        slash = self.proxy.url(f"/{self.name}/")
        result = self.update_shipping_root(url=slash, check=0)
        self.assertTrue(result.stdout.startswith("already current: release 2026.11.3"), result.stdout + result.stderr)
        self.assert_serves(result, "2026.11.3", "installed")
        # The roots taken are kept whatever the URL's spelling: only the next one is asked for.
        fetched = [entry["path"] for entry in self.proxy.requests() if "/roots/" in entry["path"]]
        self.assertEqual(fetched, [self.path("roots/3.json")])

        # The thief's head, signed by A, naming his release at a sequence far ahead: refused.
        forged = verified_payload(self.thief_head)
        forged["sequence"] = 2**50
        self.assertEqual(forged["releaseVersion"], "2026.11.2")
        self.proxy.set(self.path(HEAD), Fault(body=sign_head(self.key_file, forged)))
        state = self.store_state()
        refused = self.update_shipping_root(url=slash, check=1)
        self.assertIn("refused: no trusted key signed this file", refused.stderr)
        self.assert_serves(refused, "2026.11.3", "installed")
        self.assertEqual(self.store_state(), state)
        # It did not hold the app back: B's head is still taken.
        self.proxy.clear()
        self.assertTrue(self.update_shipping_root(url=slash, check=0).stdout.startswith("already current: release 2026.11.3"))

    def test_a_new_host_answering_a_page_for_any_path_is_refused_at_one_request(self):
        self.tell_the_leak()
        # The channel moved to a new host, which answers its index page, with status 200, for
        # any file it does not have (roots/3.json among them).
        site = os.path.join(self.folder, "new-host")
        shutil.copytree(self.channel, os.path.join(site, "catalog"))
        with open(os.path.join(site, "index.html"), "w") as file:
            file.write("<!doctype html><html><head><title>Café Digno</title></head><body><div id=app></div></body></html>\n")
        log = os.path.join(self.folder, "new-host.log")
        host = Nginx(site, access_log=log, page_for_any_path="/index.html")
        self.addCleanup(host.process.stderr.close)
        self.addCleanup(host.stop)
        url = f"http://127.0.0.1:{host.port}/catalog"
        state = self.store_state()
        refused = self.update_shipping_root(url=url, check=1)
        self.assertIn("refused: the root roots/3.json is not taken", refused.stderr)
        self.assert_serves(refused, "2026.11.3", "installed")
        self.assert_serves(self.update_shipping_root("--current", url=url, check=0), "2026.11.3", "installed")
        self.assertEqual(self.store_state(), state)
        # One request for the next root, none for the roots the store keeps.
        requests = logged_requests(log, host.port)
        self.assertEqual([line for line in requests if "/roots/" in line], ["GET /catalog/roots/3.json HTTP/1.1 200"])

    def test_a_damaged_bundle_falls_back_to_the_seed_not_the_thiefs_release(self):
        self.tell_the_leak()
        sha256 = json.loads(self.store_state())["installed"][0]["sha256"]
        bundle = os.path.join(self.store, "bundles", f"{sha256}.sqlite")
        size = os.path.getsize(bundle)
        with open(bundle, "r+b") as file:
            file.write(bytes(index % 251 for index in range(size)))
        self.assert_serves(self.update_shipping_root("--current", check=0), "2026.1.0", "the seed")
        failed = self.update_shipping_root(url=self.unreachable(), check=2)
        self.assert_serves(failed, "2026.1.0", "the seed")
        # Online, the damaged release is fetched again.
        repaired = self.update_shipping_root(check=0)
        self.assertTrue(repaired.stdout.startswith("repaired release 2026.11.3"), repaired.stdout + repaired.stderr)
        self.assert_serves(repaired, "2026.11.3", "installed")

    def test_a_planned_rotation_keeps_the_installed_release(self):
        # No leak: root 2 names B instead of A, and the head is renewed with B.
        self.ship_root()
        self.publish("2026.11.1")
        self.assertTrue(self.update_shipping_root(check=0).stdout.startswith("installed release 2026.11.1"))
        self.publish_root(self.public_b, signers=(0, 2))
        digno("publish", "--channel-dir", self.channel, "--key", self.key_b, "--renew", check=0)
        self.proxy.clear()
        result = self.update_shipping_root(check=0)
        self.assertTrue(result.stdout.startswith("already current: release 2026.11.1"), result.stdout + result.stderr)
        self.assert_serves(result, "2026.11.1", "installed")
        self.assert_serves(self.update_shipping_root("--current", url=self.unreachable(), check=0), "2026.11.1", "installed")
        # Nothing was downloaded again.
        self.assertEqual([entry["path"] for entry in self.proxy.requests() if "/bundles/" in entry["path"] or "/deltas/" in entry["path"]], [])


def logged_requests(log, port):
    """The requests nginx logged in `log` ("GET /path HTTP/1.1 200"), once a request made now has
    been logged after them."""
    marker = f"/logged-{time.monotonic_ns()}"
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"GET {marker} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        while connection.recv(65536):
            pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(log) as file:
            lines = [line.split(" in=")[0] for line in file.read().splitlines()]
        if any(marker in line for line in lines):
            return [line for line in lines if marker not in line]
        time.sleep(0.02)
    raise AssertionError(f"nginx did not log the request {marker} in {log}")


def envelope(payload, key_paths):
    """A DSSE envelope of the root `payload`, signed with each of `key_paths` (digno keygen's files)."""
    from cryptography.hazmat.primitives import serialization
    body = json.dumps(payload, sort_keys=True).encode()
    signing_input = b"DSSEv1 %d %s %d " % (len(ROOT_TYPE), ROOT_TYPE.encode(), len(body)) + body
    signatures = []
    for path in key_paths:
        private = read_signing_key(path)
        public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        signatures.append({"keyid": hashlib.sha256(public).hexdigest(), "sig": base64.b64encode(private.sign(signing_input)).decode()})
    return json.dumps({"payload": base64.b64encode(body).decode(), "payloadType": ROOT_TYPE, "signatures": signatures}).encode()


if __name__ == "__main__":
    unittest.main()
