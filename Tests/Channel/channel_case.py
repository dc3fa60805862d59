"""The base of the release channel's test cases: one nginx and one fault-injecting proxy per
test class, a channel folder, a store and keys per test, and the digno commands they run."""

import os
import re
import shutil
import tempfile
import unittest

from channel_host import NEWEST_SCHEMA, REPOSITORY, Nginx, Proxy, digno, release_copy, verified_payload

HEAD = "channels/stable/head.json"


class ChannelTestCase(unittest.TestCase):
    """One nginx and one proxy for the suite; each test has its own channel folder under the
    served root, its own store and its own keys."""

    # The bundle schemas each release is published in: the newest alone, or with schemas 3 and 2
    # (4, 3, 2) as `digno build` writes them by default, the oldest then in the head's own fields.
    SCHEMAS = (NEWEST_SCHEMA,)

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="digno-channel-")
        # nginx's worker runs as another user (nobody) when the tests run as root.
        os.chmod(cls.work, 0o755)
        cls.root = os.path.join(cls.work, "root")
        os.makedirs(cls.root)
        cls.base_bundle = os.path.join(cls.work, "base.sqlite")
        # The newest schema there, 3 and 2 beside it (base.schema-3.sqlite, base.schema-2.sqlite).
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
        self.seed = self.release_file("seed", "2026.1.0", max(self.SCHEMAS))

    def keygen(self, path):
        output = digno("keygen", "--output", path, check=0).stdout
        return output.strip().splitlines()[-1]

    @staticmethod
    def schema_path(path, schema, newest=NEWEST_SCHEMA):
        """Where `digno build` writes the bundle of `schema` beside `path`, the bundle of `newest`."""
        return path if schema == newest else path.removesuffix(".sqlite") + f".schema-{schema}.sqlite"

    def release_file(self, name, version, schema, newest=None):
        """Release `version` in `schema`, a copy of the base bundle's, as <name>.sqlite when it is
        `newest` (by default the class's newest schema) or beside it."""
        target = self.schema_path(os.path.join(self.folder, f"{name}.sqlite"), schema, newest or max(self.SCHEMAS))
        return release_copy(self.schema_path(self.base_bundle, schema), target, version)

    def release(self, version, schemas=None):
        """Release `version` in each of `schemas` (by default the class's), as `digno build` writes
        them: the newest at <version>.sqlite, the older beside it; the newest's path."""
        schemas = schemas or self.SCHEMAS
        for schema in schemas:
            self.release_file(version, version, schema, newest=max(schemas))
        return os.path.join(self.folder, f"{version}.sqlite")

    def publish(self, version, *extra, key=None, schemas=None):
        """Publishes release `version` (in `schemas`, by default the class's); its standard output."""
        return self.publish_result(version, *extra, key=key, schemas=schemas, check=0).stdout

    def publish_result(self, version, *extra, key=None, schemas=None, check=None):
        return digno("publish", "--bundle", self.release(version, schemas), "--channel-dir", self.channel, "--key", key or self.key_file,
                     *extra, check=check)

    def path(self, relative):
        """The path the proxy sees for a file of this test's channel folder."""
        return f"/{self.name}/{relative}"

    def head(self):
        with open(os.path.join(self.channel, HEAD), "rb") as file:
            return file.read()

    def newest_release(self):
        """The head's release in the newest schema it offers, which this version's client
        installs: the head's own fields, or the last of its `schemas`."""
        head = verified_payload(self.head())
        return (head.get("schemas") or [head])[-1]

    def bundle_path(self):
        return self.path(self.newest_release()["bundle"]["path"])

    def update(self, *extra, key=None, check=None, client=None, store=None, seed=None):
        """`digno update` of this test's store (or `store`, with `seed`), by this version's client
        or the `digno` at `client`."""
        return digno("update", "--url", self.proxy.url(f"/{self.name}"), "--store", store or self.store, "--key", key or self.public_key,
                     "--seed", seed or self.seed, *extra, check=check, binary=client)

    def serving(self, **client):
        """What the store serves now, asked of digno update --current: (version, source, path)."""
        output = self.update("--current", check=0, **client).stdout
        found = re.fullmatch(r"serving release (\S+) from (.+?): (\S+)\n", output)
        self.assertIsNotNone(found, output)
        return found.group(1), found.group(2), found.group(3)

    def store_state(self):
        with open(os.path.join(self.store, "store.json"), "rb") as file:
            return file.read()
