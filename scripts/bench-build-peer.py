#!/usr/bin/env python3
"""digno build against a peer that parses and checks nothing: sqlite-utils inserting the same
rows, already prepared as JSON, and indexing the same texts for full-text search.

    pip install sqlite-utils
    swift build -c release --product digno --product digno-bench
    .build/release/digno-bench generate --products 40000 --recipes 40000 --retailers 20000 --output /tmp/syn100/fi
    python3 scripts/bench-build-peer.py --digno .build/release/digno --content /tmp/syn100/fi --runs 3

First, untimed: one `digno build` of the content (every schema, as a channel serves them; add
`--schema N` to build fewer), then the rows of every table of its newest bundle written as
newline-delimited JSON, one file per table (binary values as sqlite-utils' base64 objects).
The peer, one Python process (this script with --peer), does what `sqlite-utils insert --nl`
does with each file into a new database, then `sqlite-utils enable-fts --fts5` over the texts
the bundle's search indexes hold (the products', recipes' and retailers' name, summary and
plain text; the translations' texts), with the bundle's tokenizer. Then, timed, `--runs` rounds of the two in turn (digno build,
peer, digno build, peer…, after one warm-up round of each), each a whole process timed by the
wall clock, and the ratio digno / peer of each round: its minimum, median and maximum. The
build's output goes to a folder of its own, over the previous round's (as an editor rebuilds).
"""

import argparse
import base64
import json
import os
import shlex
import sqlite3
import statistics
import subprocess
import sys
import time

# The texts the bundle's full-text indexes hold, by table (those a bundle of the schema has).
FTS_COLUMNS = {
    "products": ["name", "summary", "body_text"],
    "recipes": ["name", "summary", "method_text"],
    "retailers": ["name", "address", "opening_hours", "other_info"],
    "translations": ["text"],
}
TOKENIZE = "unicode61 remove_diacritics 2"


def prepare(bundle, folder):
    """The peer's input: each ordinary table's rows as JSON lines, and what to index."""
    os.makedirs(folder, exist_ok=True)
    connection = sqlite3.connect(f"file:{bundle}?mode=ro", uri=True)
    virtual = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")]
    tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
              if not any(name.startswith(index + "_") and name[len(index) + 1:] in ("data", "idx", "config", "docsize", "content") for index in virtual)
              and not name.startswith("sqlite_")]
    plan = {"tables": [], "fts": []}
    for table in tables:
        cursor = connection.execute(f'SELECT * FROM "{table}"')
        columns = [description[0] for description in cursor.description]
        path = os.path.join(folder, table + ".json")
        count = 0
        with open(path, "w", encoding="utf-8") as file:
            for row in cursor:
                count += 1
                record = {}
                for column, value in zip(columns, row):
                    if isinstance(value, bytes):
                        value = {"$base64": True, "encoded": base64.b64encode(value).decode("ascii")}
                    record[column] = value
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
        plan["tables"].append({"table": table, "rows": path, "count": count})
    counts = {item["table"]: item["count"] for item in plan["tables"]}
    for table, wanted in FTS_COLUMNS.items():
        # A table with no rows is never made by an insert of none (translations, in one language).
        if not counts.get(table):
            continue
        present = {row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')}
        plan["fts"].append({"table": table, "columns": [column for column in wanted if column in present]})
    path = os.path.join(folder, "plan.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(plan, file)
    return path, tables


def peer(plan_path, database):
    """The peer, in one process: what `sqlite-utils insert --nl` does with each file (its JSON
    read line by line, base64 values decoded, the table created from the rows), then
    `sqlite-utils enable-fts --fts5` with the bundle's tokenizer. One process rather than a
    command per table: Python's start, 0.7 s a command here, is not the work compared."""
    import sqlite_utils
    from sqlite_utils.utils import decode_base64_values

    with open(plan_path, encoding="utf-8") as file:
        plan = json.load(file)
    if os.path.exists(database):
        os.remove(database)
    db = sqlite_utils.Database(database)
    for item in plan["tables"]:
        with open(item["rows"], encoding="utf-8") as file:
            db[item["table"]].insert_all((decode_base64_values(json.loads(line)) for line in file), batch_size=100)
    for item in plan["fts"]:
        db[item["table"]].enable_fts(item["columns"], fts_version="FTS5", tokenize=TOKENIZE)
    db.conn.close()


def timed(command):
    started = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"{shlex.join(command)} failed ({result.returncode}): {result.stderr[-2000:]}")
    return elapsed


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--peer":
        peer(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--digno", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default="/tmp/digno-build-peer")
    parser.add_argument("--schema", action="append", default=[], help="a schema to build (repeatable); every one by default")
    arguments = parser.parse_args()
    os.makedirs(arguments.work, exist_ok=True)
    output = os.path.join(arguments.work, "dist", "catalog.sqlite")
    build = [arguments.digno, "build", "--content", arguments.content, "--output", output, "--quiet"]
    for schema in arguments.schema:
        build += ["--schema", schema]
    print(f"preparing: {shlex.join(build)}", flush=True)
    timed(build)
    plan, tables = prepare(output, os.path.join(arguments.work, "rows"))
    rows = sum(1 for table in tables for _ in open(os.path.join(arguments.work, "rows", table + ".json"), encoding="utf-8"))
    print(f"the peer inserts {rows:,} rows of {len(tables)} tables and indexes their texts ({plan})", flush=True)
    peer_command = [sys.executable, os.path.abspath(__file__), "--peer", plan, os.path.join(arguments.work, "peer.db")]
    pairs = []
    for round in range(arguments.runs + 1):
        ours, theirs = timed(build), timed(peer_command)
        if round == 0:
            continue  # the warm-up
        pairs.append((ours, theirs))
        print(f"round {round}: digno {ours:.2f} s, peer {theirs:.2f} s, ratio {ours / theirs:.2f}", flush=True)
    ratios = [ours / theirs for ours, theirs in pairs]
    print(f"digno build: median {statistics.median(p[0] for p in pairs):.2f} s; peer: median {statistics.median(p[1] for p in pairs):.2f} s")
    print(f"ratio digno / peer: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")


if __name__ == "__main__":
    main()
