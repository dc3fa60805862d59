"""The channel's root against nginx: release key A leaks; the root keys, kept offline, sign a root
naming key B; an app that pins only the root keys (and root 1) takes heads signed by B and
refuses a later head signed by A, with no app update; a thief's root signed by A is refused.
The signatures are checked by securesystemslib too, an implementation independent of ours."""

import base64
import hashlib
import json
import os
import unittest

from channel_case import HEAD, ChannelTestCase
from channel_host import Fault, digno, read_signing_key
from test_schemas import old_client

ROOT_TYPE = "application/vnd.cafedigno.channel-root+json"
# The last commit before roots: its `digno update` pins a release key, as every app of today does.
BEFORE_ROOTS_COMMIT = "7b418f23264455d55ab270dcb91b2137007a7923"


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
