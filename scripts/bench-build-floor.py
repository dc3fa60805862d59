#!/usr/bin/env python3
"""What any build must still do after an edit of one content file, if its bundles are to be the
same bytes as a clean build's (docs/BENCHMARKS.md, "An incremental build: the floor").

  python3 scripts/bench-build-floor.py --bundles DIR [--runs 3]

DIR holds the bundles of one default build (catalog.sqlite, catalog.schema-3.sqlite,
catalog.schema-2.sqlite), such as `digno build CONTENT --output DIR/catalog.sqlite` writes.
For each bundle it times, with the SQLite library this machine's digno links and one thread
each:
  - the copy that writes its bytes: `VACUUM INTO` a new file (a build writes each bundle so,
    from its scratch database);
  - SQLite's integrity check, opened as a reader opens a bundle (what the build runs on each);
  - its SHA-256, for the manifest (Python's hashlib, OpenSSL, as fast as swift-crypto's).
And once, the default language's two search indexes built again from every text (FTS5 with
the bundle's tokenizers and prefixes, one segment, 'optimize'), from the bundle's own columns:
`search` from the products' and recipes' names, summaries and plain texts, the recipes'
ingredient lines, and the retailers' names, addresses, opening hours and other information;
`search_letters` from every name (as they are: the build folds them first with
`SearchLetters`, which this leaves out). An FTS5 index changed in place is not the same bytes
as one built afresh (its segment ids and structure record differ: `--check-fts` shows it), so
an incremental build rebuilds it whole.

Each part runs on one thread, one after another; prints each one's median wall seconds over
--runs rounds and their sum. The sum divided by the machine's cores is the least wall time
the work could take, shared perfectly; compare it with a clean `digno build` of the same
folder timed beside it.
"""

import argparse
import hashlib
import os
import random
import sqlite3
import statistics
import tempfile
import time

BUNDLES = ["catalog.sqlite", "catalog.schema-3.sqlite", "catalog.schema-2.sqlite"]


def timed(work):
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def copy(path, scratch):
    target = os.path.join(scratch, "copy.sqlite")
    if os.path.exists(target):
        os.remove(target)
    db = sqlite3.connect(path)
    db.execute("VACUUM INTO ?", (target,))
    db.close()
    os.remove(target)


def integrity(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    # As CatalogBundle.configuration opens a bundle.
    db.executescript("PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
    found = db.execute("PRAGMA integrity_check").fetchall()
    db.close()
    if found != [("ok",)]:
        raise SystemExit("%s: integrity_check: %s" % (path, found))


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while True:
            piece = file.read(1 << 20)
            if not piece:
                break
            digest.update(piece)
    return digest.hexdigest()


SEARCH = """
CREATE VIRTUAL TABLE search USING fts5 (name, summary, content, content = '',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
INSERT INTO search (search, rank) VALUES ('hashsize', 268435456);
"""

LETTERS = """
CREATE VIRTUAL TABLE search_letters USING fts5 (name, content = '',
    tokenize = 'unicode61 remove_diacritics 0', prefix = '2 3');
INSERT INTO search_letters (search_letters, rank) VALUES ('hashsize', 268435456);
"""


def search_index(path, scratch):
    target = os.path.join(scratch, "search.sqlite")
    if os.path.exists(target):
        os.remove(target)
    db = sqlite3.connect(target, isolation_level=None)
    db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 65536;" + SEARCH + LETTERS)
    db.execute("ATTACH DATABASE ? AS bundle", (path,))
    db.execute("BEGIN")
    db.execute("INSERT INTO search (rowid, name, summary, content) SELECT rowid, name, summary, body_text FROM bundle.products")
    db.execute("INSERT INTO search (rowid, name, summary, content) "
               "SELECT 1000000 + r.rowid, r.name, r.summary, "
               "(SELECT group_concat(text, char(10)) FROM bundle.recipe_ingredients WHERE recipe_id = r.id) || char(10) || char(10) || r.method_text "
               "FROM bundle.recipes r")
    db.execute("INSERT INTO search (rowid, name, summary, content) "
               "SELECT 2000000 + rowid, name, '', address || char(10) || opening_hours || char(10) || coalesce(other_info, '') FROM bundle.retailers")
    for offset, table in [(0, "products"), (1000000, "recipes"), (2000000, "retailers")]:
        db.execute("INSERT INTO search_letters (rowid, name) SELECT %d + rowid, name FROM bundle.%s" % (offset, table))
    db.execute("COMMIT")
    db.execute("INSERT INTO search (search) VALUES ('optimize')")
    db.execute("INSERT INTO search_letters (search_letters) VALUES ('optimize')")
    db.close()
    os.remove(target)


def check_fts():
    """Shows that an FTS5 index edited in place differs from one built afresh with the same rows."""
    random.seed(1)
    words = ["kahvi", "papu", "paahto", "tumma", "vaalea", "espresso", "maito", "kolumbia", "etiopia"]
    rows = [(number, " ".join(random.choice(words) for _ in range(8))) for number in range(1, 3001)]
    edited = list(rows)
    edited[100] = (101, "kahvi maito uusi sana")

    def build(rows):
        db = sqlite3.connect(":memory:", isolation_level=None)
        db.executescript(SEARCH.replace("(name, summary, content,", "(name,"))
        db.execute("BEGIN")
        db.executemany("INSERT INTO search (rowid, name) VALUES (?, ?)", rows)
        db.execute("COMMIT")
        db.execute("INSERT INTO search (search) VALUES ('optimize')")
        return db

    afresh, in_place = build(edited), build(rows)
    in_place.execute("INSERT INTO search (search, rowid, name) VALUES ('delete', ?, ?)", rows[100])
    in_place.execute("INSERT INTO search (rowid, name) VALUES (?, ?)", edited[100])
    in_place.execute("INSERT INTO search (search) VALUES ('optimize')")
    for table in ["data", "idx", "docsize", "config"]:
        query = "SELECT * FROM search_%s ORDER BY 1" % table
        same = afresh.execute(query).fetchall() == in_place.execute(query).fetchall()
        print("search_%s: %s" % (table, "the same" if same else "differs"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundles", help="the folder of one default build's bundles")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check-fts", action="store_true", help="only show an index edited in place differing from one built afresh")
    arguments = parser.parse_args()
    if arguments.check_fts:
        check_fts()
        return
    if not arguments.bundles:
        parser.error("--bundles is required")
    paths = [os.path.join(arguments.bundles, name) for name in BUNDLES]
    for path in paths:
        if not os.path.exists(path):
            raise SystemExit("%s is missing: build the content with digno build first" % path)
    scratch = tempfile.mkdtemp(prefix="bench-build-floor-")
    figures = {}
    try:
        for _ in range(arguments.runs):
            for path in paths:
                name = os.path.basename(path)
                figures.setdefault((name, "copy (VACUUM INTO)"), []).append(timed(lambda: copy(path, scratch)))
                figures.setdefault((name, "integrity check"), []).append(timed(lambda: integrity(path)))
                figures.setdefault((name, "SHA-256"), []).append(timed(lambda: sha256(path)))
            figures.setdefault(("search indexes", "built again"), []).append(timed(lambda: search_index(paths[0], scratch)))
    finally:
        os.rmdir(scratch)
    total = 0.0
    for (name, work), values in figures.items():
        median = statistics.median(values)
        total += median
        print("%-26s %-20s %6.2f s  (%s)" % (name, work, median, ", ".join("%.2f" % value for value in values)))
    print("sum %.2f s, one thread each; on %d cores, shared perfectly, at least %.2f s" % (total, os.cpu_count(), total / os.cpu_count()))


if __name__ == "__main__":
    main()
