#!/usr/bin/env python3
"""The client libraries' public API (CatalogModel, ChannelFormat, CatalogStore), one line per symbol, kept in
docs/public-api.md, a section per module.

The list is made from the compiler's own account of each module, its symbol graph
(`swift package dump-symbol-graph --minimum-access-level public`): every public declaration
written in Sources/<module>, as declared, grouped by the type it belongs to, and for each
type the protocols it conforms to. Members a conformance brings without a declaration of
ours (`!=`, a synthesised `init(from:)`) are covered by the conformance.

    python3 scripts/public-api.py --check   # fails, with the difference, when the list is stale
    python3 scripts/public-api.py --write   # rewrites the list in docs/public-api.md
    python3 scripts/public-api.py --check -Xswiftc -warnings-as-errors   # the build's own flags

Flags after the action go to `swift package`: given the flags the package was last built
with, the symbol graphs come from that build (16 s here) instead of a build of their own (90 s
in CI, where the build's flags differ from a bare `swift package`'s).

A public symbol added, removed or changed without docs/public-api.md changing fails
`--check`, which CI runs: making something public is a decision written down.
Standard library only.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "public-api.md")
MODULES = ["CatalogModel", "ChannelFormat", "CatalogStore"]


def markers(module):
    return (f"<!-- public-api {module}: begin (scripts/public-api.py --write) -->", f"<!-- public-api {module}: end -->")
TYPE_KINDS = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"}


def symbol_graphs(folder, build_flags):
    """The folder of the package's symbol graphs: `folder`, or made now with `build_flags`."""
    if folder is None:
        result = subprocess.run(
            ["swift", "package", *build_flags, "dump-symbol-graph", "--minimum-access-level", "public"],
            cwd=ROOT, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit("swift package dump-symbol-graph failed:\n" + result.stdout + result.stderr)
        match = re.search(r"Files written to (\S+)", result.stdout + result.stderr)
        if not match:
            sys.exit("swift package dump-symbol-graph did not say where it wrote:\n" + result.stdout)
        folder = match.group(1)
    return folder


def symbol_graph(folder, module):
    with open(os.path.join(folder, f"{module}.symbols.json"), encoding="utf-8") as file:
        return json.load(file)


def declaration(symbol):
    text = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
    return re.sub(r"\s+", " ", text).strip()


def api_lines(graph, module):
    """The list's lines: a heading per top-level type (or `Functions` for free ones), then one
    line per declaration in it, in path order: its full name, then the declaration."""
    declared = [s for s in graph["symbols"]
                if f"/Sources/{module}/" in s.get("location", {}).get("uri", "")]
    by_id = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    conformances = {}
    for relation in graph.get("relationships", []):
        if relation["kind"] != "conformsTo" or relation["source"] not in by_id:
            continue
        target = by_id.get(relation["target"])
        if target:
            name = ".".join(target["pathComponents"])
        else:  # another module's protocol: "Swift.Hashable" is written Hashable
            name = relation.get("targetFallback", relation["target"]).split(".")[-1]
        conformances.setdefault(relation["source"], set()).add(name)

    groups = {}
    for symbol in declared:
        path = symbol["pathComponents"]
        top = path[0] if len(path) > 1 or symbol["kind"]["identifier"] in TYPE_KINDS else "Functions"
        line = f"- `{'.'.join(path)}` — `{declaration(symbol)}`"
        # SendableMetatype is implied by Sendable (Swift 6.2), not a conformance of its own.
        protocols = conformances.get(symbol["identifier"]["precise"], set()) - {"SendableMetatype"}
        if symbol["kind"]["identifier"] in TYPE_KINDS and protocols:
            line += ": " + ", ".join(sorted(protocols))
        groups.setdefault(top, []).append((path, line))

    lines = []
    for top in sorted(groups, key=lambda name: (name == "Functions", name)):
        lines += ["", f"### {top}", ""]
        lines += [line for _, line in sorted(groups[top], key=lambda entry: (entry[0], entry[1]))]
    return lines[1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="fail when docs/public-api.md is stale")
    action.add_argument("--write", action="store_true", help="rewrite the list in docs/public-api.md")
    parser.add_argument("--graph", help="a folder holding the modules' .symbols.json files (default: make them)")
    arguments, build_flags = parser.parse_known_args()

    with open(DOC, encoding="utf-8") as file:
        document = file.read()
    folder = symbol_graphs(arguments.graph, build_flags)
    stale = []
    for module in MODULES:
        begin, end = markers(module)
        if begin not in document or end not in document:
            sys.exit(f"{DOC} has no {begin} … {end} section")
        head, rest = document.split(begin, 1)
        old, tail = rest.split(end, 1)
        new = "\n" + "\n".join(api_lines(symbol_graph(folder, module), module)) + "\n"
        if old != new:
            stale.append(module)
            if not arguments.write:
                difference = difflib.unified_diff(old.splitlines(), new.splitlines(), f"docs/public-api.md ({module})", "the code", lineterm="")
                print("\n".join(difference))
        document = head + begin + new + end + tail
    if arguments.write:
        with open(DOC, "w", encoding="utf-8") as file:
            file.write(document)
        print(f"wrote {os.path.relpath(DOC, ROOT)}")
        return
    if stale:
        sys.exit(f"the public API of {', '.join(stale)} differs from docs/public-api.md: make the change on purpose, "
                 "then run python3 scripts/public-api.py --write")
    print("docs/public-api.md lists the public API of " + ", ".join(MODULES[:-1]) + " and " + MODULES[-1])


if __name__ == "__main__":
    main()
