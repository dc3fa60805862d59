"""One channel for the apps of two bundle schemas, against nginx: `digno publish` puts each
release in schema 2 and schema 3 into one head, and two clients update from it side by side:
the app's BundleStore as apps in the field have it (`digno update` built from commit
OLD_CLIENT_COMMIT, which installs schema 2 only) and as this version has it (which installs the
newest schema the head offers that it reads: 3 here, where the channel serves no schema 4).

    python3 -m unittest discover -s Tests/Channel -v

The old client is built from that commit into .build/old-client the first time
(scripts/build-old-client.sh, about 3.5 minutes here for the first old commit and 1 for each
further one, which shares its dependencies; it needs the commit in the clone's history).
"""

import os
import subprocess
import sys
import unittest

from channel_host import REPOSITORY, Fault, bundle_schema, sha256_file, verified_payload
from channel_case import HEAD, ChannelTestCase

# The last commit before the languages issue changed the bundle's schema (b0f75d5 made schema 3):
# its `digno update` is the client that apps in the field run.
OLD_CLIENT_COMMIT = "6afe47647c21b6f8c17c51c0644447524612d829"


def old_client(commit=OLD_CLIENT_COMMIT):
    """The path of `digno` built at `commit` (by default OLD_CLIENT_COMMIT), built now if it is not yet."""
    print(f"\n(an old client: digno at {commit[:7]}, built once into .build/old-client)", file=sys.stderr, flush=True)
    result = subprocess.run(["bash", os.path.join(REPOSITORY, "scripts", "build-old-client.sh"), commit],
                            capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise RuntimeError(f"the old client could not be built (scripts/build-old-client.sh {commit}):\n"
                           + "\n".join(result.stderr.splitlines()[-30:]))
    return result.stdout.strip().splitlines()[-1]


class SchemaTests(ChannelTestCase):
    """A channel serving schemas 2 and 3, updated by the old client (`old`) and by this
    version's (`new`), each with its own store and the seed of its schema."""

    SCHEMAS = (3, 2)

    @classmethod
    def setUpClass(cls):
        cls.old_digno = old_client()
        super().setUpClass()

    def setUp(self):
        super().setUp()
        self.old = {"client": self.old_digno, "store": os.path.join(self.folder, "old-store"),
                    "seed": self.release_file("seed", "2026.1.0", 2)}
        self.new = {}

    def head_payload(self):
        return verified_payload(self.head())

    def offered(self, schema):
        """The head's release in `schema`: its own fields (the oldest) or one of `schemas`."""
        head = self.head_payload()
        if head["schemaVersion"] == schema:
            return head
        return next(release for release in head.get("schemas", []) if release["schemaVersion"] == schema)

    def assert_serving(self, client, version, schema):
        """The store of `client` serves `version`, installed, in the signed bundle of `schema`."""
        served, source, path = self.serving(**client)
        self.assertEqual((served, source), (version, "installed"))
        self.assertEqual(sha256_file(path), self.offered(schema)["bundle"]["sha256"])
        self.assertEqual(bundle_schema(path), schema)

    def fetched(self):
        """The bundles, deltas and notes the proxy was asked for since it was last cleared (not
        the head or the key statements)."""
        return [entry["path"] for entry in self.proxy.requests()
                if entry["path"] != self.path(HEAD) and not entry["path"].startswith(self.path("keys/"))]

    def test_both_clients_update_across_three_releases_by_delta(self):
        output = self.publish("2026.2.0")
        self.assertRegex(output, r"and in schema 3: bundles/[0-9a-f]{64}\.sqlite, \d+ bytes\n")
        head = self.head_payload()
        # Apps in the field read the head's own fields: the oldest schema.
        self.assertEqual(head["schemaVersion"], 2)
        self.assertEqual([release["schemaVersion"] for release in head["schemas"]], [3])
        self.assertNotEqual(head["bundle"]["sha256"], head["schemas"][0]["bundle"]["sha256"])

        for client, schema in ((self.old, 2), (self.new, 3)):
            self.proxy.clear()
            result = self.update(check=0, **client)
            self.assertRegex(result.stdout, r"^installed release 2026\.2\.0 \(head 1\): ")
            self.assert_serving(client, "2026.2.0", schema)
            # Each client fetched its own schema's bundle alone.
            self.assertEqual(self.fetched(), [self.path(self.offered(schema)["bundle"]["path"])])

        earlier = {2: [], 3: []}
        for version, previous in (("2026.3.0", "2026.2.0"), ("2026.4.0", "2026.3.0")):
            for schema in (2, 3):
                earlier[schema].insert(0, self.offered(schema)["bundle"]["sha256"])
            output = self.publish(version)
            # In each schema, a delta from each earlier release in that schema, the newest first.
            self.assertIn(f"{2 * len(earlier[2])} deltas from recent releases: ", output)
            for client, schema in ((self.old, 2), (self.new, 3)):
                release = self.offered(schema)
                self.assertEqual([delta["from"] for delta in release["deltas"]], earlier[schema])
                self.proxy.clear()
                result = self.update(check=0, **client)
                self.assertEqual(result.stderr, "")
                self.assertIn(f"made from a delta on the bundle {earlier[schema][0]}", result.stdout)
                # The release notes of its own schema, since the release it had.
                self.assertIn(f"what changed since {previous}: 0 entities", result.stdout)
                self.assertEqual(self.fetched(), [self.path(release["deltas"][0]["path"]),
                                                  self.path(release["notes"]["json"]["path"])])
                self.assert_serving(client, version, schema)

    def test_a_client_several_releases_behind_installs_its_schemas_newest(self):
        self.publish("2026.2.0")
        self.publish("2026.3.0")
        self.publish("2026.4.0")
        for client, schema in ((self.old, 2), (self.new, 3)):
            result = self.update(check=0, **client)
            self.assertRegex(result.stdout, r"^installed release 2026\.4\.0 \(head 3\): ")
            self.assert_serving(client, "2026.4.0", schema)

    def test_a_replayed_head_is_refused_by_both_clients(self):
        self.publish("2026.2.0")
        replayed = self.head()
        self.publish("2026.3.0")
        for client, schema in ((self.old, 2), (self.new, 3)):
            self.update(check=0, **client)
            self.assert_serving(client, "2026.3.0", schema)
        self.proxy.set(self.path(HEAD), Fault(body=replayed))
        for client, schema in ((self.old, 2), (self.new, 3)):
            result = self.update(check=1, **client)
            self.assertIn("refused: the head's sequence number 1 is lower than 2, already seen", result.stderr)
            self.assert_serving(client, "2026.3.0", schema)

    def test_after_schema_2_is_retired_its_apps_keep_the_last_release(self):
        self.publish("2026.2.0")
        self.publish("2026.3.0")
        for client in (self.old, self.new):
            self.update(check=0, **client)
        before = self.head()

        # Dropped by accident: refused, and the channel is as it was.
        refused = self.publish_result("2026.4.0", schemas=(3,))
        self.assertEqual(refused.returncode, 1, refused.stdout + refused.stderr)
        self.assertIn("schema 2 has been served for 2 releases (the latest being 2026.3.0)", refused.stderr)
        self.assertIn("--retire-schema 2", refused.stderr)
        self.assertEqual(self.head(), before)

        # On purpose: the head serves schema 3 alone, in its own fields.
        output = self.publish("2026.4.0", "--retire-schema", "2", schemas=(3,))
        self.assertIn("retired schema 2 after 2 releases: apps that read only it keep the release they have (2026.3.0 at the newest)", output)
        head = self.head_payload()
        self.assertEqual(head["schemaVersion"], 3)
        self.assertNotIn("schemas", head)
        # The new client goes on, by a delta from the schema-3 bundle it has.
        result = self.update(check=0, **self.new)
        self.assertIn("made from a delta on the bundle", result.stdout)
        self.assert_serving(self.new, "2026.4.0", 3)
        # The old client installs nothing, says why, and keeps serving the last release it had.
        result = self.update(check=1, **self.old)
        self.assertIn("refused: release 2026.4.0 needs bundle schema 3", result.stderr)
        served, source, path = self.serving(**self.old)
        self.assertEqual((served, source, bundle_schema(path)), ("2026.3.0", "installed", 2))

        # And so on at the next release.
        self.publish("2026.5.0", schemas=(3,))
        self.update(check=1, **self.old)
        self.assertEqual(self.serving(**self.old)[0], "2026.3.0")
        self.update(check=0, **self.new)
        self.assert_serving(self.new, "2026.5.0", 3)


if __name__ == "__main__":
    unittest.main()
