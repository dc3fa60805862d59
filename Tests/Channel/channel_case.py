"""The base of the release channel's test cases: one nginx and one fault-injecting proxy per
test class, a channel folder, a store and keys per test, and the digno commands they run."""

import os
import re
import shutil
import tempfile
import unittest

from channel_host import REPOSITORY, Nginx, Proxy, digno, release_copy, verified_payload

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
