#!/usr/bin/env python3
"""The release channel's benchmarks (docs/BENCHMARKS.md, "Updates"), against nginx on the
loopback, as Tests/Channel serves a channel:

    python3 scripts/bench-update.py nothing-new --bundle dist/catalog.sqlite
    python3 scripts/bench-update.py install --bundle /tmp/b100k.sqlite [--runs 5]
    python3 scripts/bench-update.py delta --bundle OLD.sqlite --next NEW.sqlite [--runs 5]

`nothing-new`: the bytes of the one request an up-to-date `digno update` makes (nginx's own
count: request line and headers in, status line, headers and body out), and
`digno-bench update-latency`, which times `BundleStore.update()` inside the process.

`install`: `digno update` installing the bundle into an empty store, beside `curl` fetching the
same file plus `sha256sum`, paired run by run with farm-bench (its median ratio and peak memory),
once with the gzip copy served (as an app gets it) and once without.

`delta`: a store holding OLD updating to NEW by the delta `digno publish` wrote (A), beside the
same store updating from a channel published with `--deltas 0`, downloading NEW whole (B); both
start from a copy of the same store, served with the gzip copies.

Environment: DIGNO and DIGNO_BENCH (default .build/release/…), NGINX.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "Channel"))
import channel_host  # noqa: E402  (nginx, free ports)

ROOT = channel_host.REPOSITORY
DIGNO = os.environ.get("DIGNO", os.path.join(ROOT, ".build", "release", "digno"))
DIGNO_BENCH = os.environ.get("DIGNO_BENCH", os.path.join(ROOT, ".build", "release", "digno-bench"))


def run(*arguments):
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


class Channel:
    """A channel folder with the bundle published, served by nginx, which logs the bytes each
    request took."""

    def __init__(self, bundle, gzip=True, then=None, deltas=5):
        self.work = tempfile.mkdtemp(prefix="digno-bench-update-")
        os.chmod(self.work, 0o755)
        self.root = os.path.join(self.work, "channel")
        key = os.path.join(self.work, "signing.key")
        self.public_key = run(DIGNO, "keygen", "--output", key).strip().splitlines()[-1]
        run(DIGNO, "publish", "--bundle", bundle, "--channel-dir", self.root, "--key", key)
        self.key = key
        self.then = then
        self.deltas = deltas
        if not gzip:
            for name in os.listdir(os.path.join(self.root, "bundles")):
                if name.endswith(".gz"):
                    os.remove(os.path.join(self.root, "bundles", name))
        self.log = os.path.join(self.work, "access.log")
        self.nginx = channel_host.Nginx(self.root, access_log=self.log)
        self.url = f"http://127.0.0.1:{self.nginx.port}"
        self.store = os.path.join(self.work, "store")

        if then:
            # The store as an app has it before the next release: the first one installed.
            self.update()
            run(DIGNO, "publish", "--bundle", then, "--channel-dir", self.root, "--key", key, "--deltas", str(deltas))
            self.base_store = self.store + "-base"
            shutil.move(self.store, self.base_store)

    def update(self):
        return run(DIGNO, "update", "--url", self.url, "--store", self.store, "--key", self.public_key)

    def head(self):
        import base64
        with open(os.path.join(self.root, "channels", "stable", "head.json")) as file:
            return json.loads(base64.b64decode(json.load(file)["payload"]))

    def logged(self):
        with open(self.log) as file:
            return file.read().splitlines()

    def stop(self):
        self.nginx.stop()
        shutil.rmtree(self.work, ignore_errors=True)


def nothing_new(arguments):
    channel = Channel(arguments.bundle)
    try:
        channel.update()
        before = len(channel.logged())
        print(channel.update().splitlines()[0])
        for line in channel.logged()[before:]:
            print("nginx:", line)
        etag = [line for line in open(os.path.join(channel.store, "store.json")) if '"etag"' in line][0].split(":", 1)[1].strip().rstrip(",")
        etag = json.loads(etag)
        print("== digno update with nothing new (A) vs curl's conditional GET of the head (B), whole processes")
        a = f"{DIGNO} update --url {channel.url} --store {channel.store} --key {channel.public_key}"
        b = f"curl -s -o /dev/null -H 'If-None-Match: {etag}' {channel.url}/channels/stable/head.json"
        subprocess.run(["farm-bench", "-n", str(arguments.runs * 4), "--vs", b, "--", *a.split()], check=False)
        print(run(DIGNO_BENCH, "update-latency", "--url", channel.url, "--store", channel.store, "--key", channel.public_key,
                  "--iterations", str(arguments.runs * 40)).strip())
    finally:
        channel.stop()


def install(arguments):
    sha = run("sha256sum", arguments.bundle).split()[0]
    for gzip in (True, False):
        channel = Channel(arguments.bundle, gzip=gzip)
        try:
            print(f"\n== {'with' if gzip else 'without'} the gzip copy: digno update into an empty store (A) vs curl + sha256sum (B)", flush=True)
            store = channel.store
            fetched = os.path.join(channel.work, "curl.sqlite")
            a = f"sh -c 'rm -rf {store} && exec {DIGNO} update --url {channel.url} --store {store} --key {channel.public_key}'"
            b = f"sh -c 'curl -s -o {fetched} {channel.url}/bundles/{sha}.sqlite && sha256sum {fetched}'"
            subprocess.run(["farm-bench", "-n", str(arguments.runs), "--timeout", "1200", "--vs", b, "--", "sh", "-c", a[7:-1]], check=False)
        finally:
            channel.stop()


def delta(arguments):
    by_delta, whole = Channel(arguments.bundle, then=arguments.next), Channel(arguments.bundle, then=arguments.next, deltas=0)
    try:
        head = by_delta.head()
        bundle_gz = os.path.getsize(os.path.join(by_delta.root, head["bundle"]["path"] + ".gz"))
        for published in head.get("deltas", []):
            gz = os.path.getsize(os.path.join(by_delta.root, published["path"] + ".gz"))
            print(f"delta {published['bytes']} B, served gzip {gz} B: {100 * gz / bundle_gz:.2f} % of the bundle's gzip ({bundle_gz} B; "
                  f"the bundle {head['bundle']['bytes']} B)")
        # One trial run each, to check that A goes by the delta and B does not.
        for channel, expected in ((by_delta, "made from a delta"), (whole, None)):
            shutil.rmtree(channel.store, ignore_errors=True)
            shutil.copytree(channel.base_store, channel.store)
            output = channel.update()
            if expected and expected not in output or not expected and "made from a delta" in output:
                sys.exit(f"the trial update did not go as expected:\n{output}")
        print("== update by delta (A) vs the whole bundle (B), each from a copy of the same store", flush=True)
        command = "rm -rf {store} && cp -a {base} {store} && exec {digno} update --url {url} --store {store} --key {key}"
        a, b = (command.format(store=channel.store, base=channel.base_store, digno=DIGNO, url=channel.url, key=channel.public_key)
                for channel in (by_delta, whole))
        subprocess.run(["farm-bench", "-n", str(arguments.runs), "--timeout", "1200", "--vs", f"sh -c '{b}'", "--", "sh", "-c", a], check=False)
    finally:
        by_delta.stop()
        whole.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["nothing-new", "install", "delta"])
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--next", help="for delta: the next release's bundle")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    if arguments.what == "delta" and not arguments.next:
        parser.error("delta needs --next")
    {"nothing-new": nothing_new, "install": install, "delta": delta}[arguments.what](arguments)


if __name__ == "__main__":
    main()
