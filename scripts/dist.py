#!/usr/bin/env python3
"""Writes the release archive `make dist` makes: `dist/digno-<version>-linux-<machine>.tar.gz`,
holding `bin/digno` (the release build, the Swift runtime linked in), `bin/digno-studio` (the
editors' launcher), `README.txt`, and in `licences/` the licence of every piece linked into the
binary: the Swift runtime and Foundation (the toolchain's), each Swift package but the
documentation plugin's, and BoringSSL's notices (inside swift-crypto, which ships none).

    scripts/dist.py --binary PATH --checkouts SCRATCH/checkouts --output dist

The same binary gives the same archive: names sorted, owner root, every time the commit's
(SOURCE_DATE_EPOCH when set), gzip without a name or time.
"""

import argparse
import glob
import gzip
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Packages resolved for the documentation's command plugin only: nothing of them is linked.
PLUGIN_ONLY = {"swift-docc-plugin", "swift-docc-symbolkit"}
LICENCE_NAMES = re.compile(r"^(LICEN[CS]E|NOTICE|COPYING)(\.(txt|md))?$", re.IGNORECASE)

README = """Digno {version}: Café Digno's content compiler and the editors' studio, for Linux ({machine}).

  bin/digno          the command (digno --help); the Swift runtime is linked in
  bin/digno-studio   opens the studio on a content folder in your browser
  licences/          the licences of what is linked into bin/digno

It needs only these libraries of the system (Debian: apt-get install libsqlite3-0 libxml2
libcurl4 libvips42), and xdelta3 where it publishes releases; no Swift.

Start the studio:   bin/digno-studio path/to/content
From the desktop:   bin/digno-studio --desktop path/to/content
                    (adds "Digno Studio" to your applications; see docs/EDITING.md)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--checkouts", required=True, help="the build folder's checkouts (SwiftPM's)")
    parser.add_argument("--output", default=os.path.join(REPOSITORY, "dist"))
    arguments = parser.parse_args()

    version_line = subprocess.run([arguments.binary, "studio", "--version"], capture_output=True, text=True, check=True).stdout
    found = re.match(r"digno (\S+) ", version_line)
    if not found:
        sys.exit("dist: %s --version said %r, not `digno <version> …`" % (arguments.binary, version_line))
    version = found.group(1)
    machine = platform.machine()
    name = "digno-%s-linux-%s" % (version, machine)

    files = {}  # path in the archive -> (bytes, mode)
    with open(arguments.binary, "rb") as binary:
        files["bin/digno"] = (binary.read(), 0o755)
    with open(os.path.join(REPOSITORY, "scripts", "digno-studio"), "rb") as launcher:
        files["bin/digno-studio"] = (launcher.read(), 0o755)
    files["README.txt"] = (README.format(version=version, machine=machine).encode(), 0o644)
    for path, text in licences(arguments.checkouts).items():
        files["licences/" + path] = (text, 0o644)

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or subprocess.run(
        ["git", "-C", REPOSITORY, "log", "-1", "--format=%ct"], capture_output=True, text=True).stdout.strip() or 0)
    os.makedirs(arguments.output, exist_ok=True)
    archive = os.path.join(arguments.output, name + ".tar.gz")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        folders = {"/".join(path.split("/")[:depth]) for path in files for depth in range(1, path.count("/") + 1)}
        for path, content in [("", None)] + sorted([(folder, None) for folder in folders] + list(files.items())):
            info = tarfile.TarInfo(name + ("/" + path if path else ""))
            info.mtime, info.uid, info.gid, info.uname, info.gname = epoch, 0, 0, "root", "root"
            if content is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(content[0]), content[1]
                tar.addfile(info, io.BytesIO(content[0]))
    written = archive + ".new"
    with open(written, "wb") as file:
        with gzip.GzipFile(filename="", mode="wb", fileobj=file, mtime=0, compresslevel=6) as compressed:
            compressed.write(buffer.getvalue())
    os.replace(written, archive)
    print("wrote %s (%d files)" % (os.path.relpath(archive), len(files)))


def licences(checkouts):
    """The licence texts to ship, by file name under `licences/`."""
    texts = {}
    swift = shutil.which("swift")
    toolchain = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "share", "swift", "LICENSE.txt") if swift else ""
    if not os.path.isfile(toolchain):
        sys.exit("dist: the Swift toolchain's LICENSE.txt (usr/share/swift beside bin/swift) is missing; it covers the runtime linked in")
    with open(toolchain, "rb") as file:
        texts["swift-runtime-and-foundation/LICENSE.txt"] = file.read()
    packages = sorted(os.listdir(checkouts)) if os.path.isdir(checkouts) else []
    if not packages:
        sys.exit("dist: no packages in %s; build first (make digno)" % checkouts)
    for package in packages:
        if package in PLUGIN_ONLY:
            continue
        found = [name for name in sorted(os.listdir(os.path.join(checkouts, package))) if LICENCE_NAMES.match(name)]
        if not found:
            sys.exit("dist: the package %s has no licence file; say what covers it before shipping it" % package)
        for name in found:
            with open(os.path.join(checkouts, package, name), "rb") as file:
                texts[package + "/" + name] = file.read()
    boringssl = os.path.join(checkouts, "swift-crypto", "Sources", "CCryptoBoringSSL")
    if os.path.isdir(boringssl):
        texts["swift-crypto/BoringSSL-NOTICES.txt"] = boringssl_notices(boringssl)
    return texts


def boringssl_notices(folder):
    """BoringSSL's licence notices, as its sources' opening comments state them (swift-crypto
    vendors the sources without BoringSSL's LICENSE file): each distinct notice once, after the
    copyright lines that carry it."""
    by_notice = {}
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.[ch]*"), recursive=True)):
        with open(path, encoding="utf-8", errors="replace") as file:
            head = file.read(8192)
        comment = re.match(r"\s*/\*(.*?)\*/", head, re.DOTALL)
        if not comment:
            comment = re.match(r"\s*((?://[^\n]*\n)+)", head)
            if not comment:
                continue
            lines = [line.strip()[2:].strip() for line in comment.group(1).splitlines()]
        else:
            lines = [re.sub(r"^\s*\*\s?", "", line).rstrip() for line in comment.group(1).splitlines()]
        copyrights = [line.strip() for line in lines if re.match(r"\s*(Copyright|\(C\))", line, re.IGNORECASE)]
        notice = "\n".join(line for line in lines if line.strip() not in copyrights).strip()
        if not copyrights or not notice:
            continue
        holders = by_notice.setdefault(notice, [])
        for line in copyrights:
            if line not in holders:
                holders.append(line)
    parts = ["BoringSSL, as vendored by swift-crypto (Sources/CCryptoBoringSSL): the notices its sources carry.\n"]
    for notice, holders in sorted(by_notice.items(), key=lambda item: (-len(item[1]), item[0])):
        parts.append("-" * 78 + "\n" + "\n".join(sorted(holders)) + "\n\n" + notice + "\n")
    return "\n".join(parts).encode()


if __name__ == "__main__":
    main()
