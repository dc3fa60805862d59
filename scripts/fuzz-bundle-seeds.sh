#!/usr/bin/env bash
# Writes the bundle fuzz target's seeds, Fuzz/Corpus/bundle/valid-512.sqlite and
# translated-512.sqlite, again: the compiler's valid fixture built, and built with a few Swedish
# texts added (the languages' tables then hold rows), each copied at 512-byte pages so that
# mutations are cheap. Run after a schema change; DamagedBundleTests' theFuzzSeedBundleReads
# fails until then. The same compiler gives the same bytes.
#
#   bash scripts/fuzz-bundle-seeds.sh
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
"$SWIFT" build --product digno --scratch-path "$SCRATCH_PATH"
digno="$("$SWIFT" build --product digno --scratch-path "$SCRATCH_PATH" --show-bin-path)/digno"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -R Tests/BundleCompilerTests/Fixtures/valid "$scratch/valid"
cp -R Tests/BundleCompilerTests/Fixtures/valid "$scratch/translated"

# Swedish declared, and a translation beside each of a few texts.
python3 - "$scratch/translated" <<'PYTHON'
import sys, pathlib
root = pathlib.Path(sys.argv[1])
def insert(file, after, text):
    path = root / file
    content = path.read_text(encoding="utf-8")
    assert after in content, (file, after)
    path.write_text(content.replace(after, after + text, 1), encoding="utf-8")
insert("catalog.xml", '<release version="2026.11.0" date="2026-11-01"/>',
       '\n  <languages>\n    <language code="fi"/>\n    <language code="sv" fallback="fi"/>\n  </languages>')
insert("catalog.xml", "<title>Tuotteet</title>", '<title xml:lang="sv">Produkter</title>')
insert("products/espresso.xml", "<summary>Tummapaahteinen espressojauhe</summary>",
       '\n  <summary xml:lang="sv">Mörkrostat malet espresso</summary>')
insert("recipes/cafe-latte.xml", '<ingredient product="espresso">1–2 annosta Café Digno Espressoa</ingredient>',
       '\n    <ingredient xml:lang="sv">1–2 shots Café Digno Espresso</ingredient>')
insert("recipes/cafe-latte.xml", "</method>",
       '\n  <method xml:lang="sv">\n    <p>Brygg <link product="espresso">espresson</link> och skumma mjölken.</p>\n  </method>')
# The picture's element opened, to hold its Swedish alt text.
path = root / "recipes/cafe-latte.xml"
content = path.read_text(encoding="utf-8")
picture = '<image src="images/picture.png" alt="Café Latte"/>'
assert picture in content
path.write_text(content.replace(picture, picture[:-2] + '>\n      <alt xml:lang="sv">Caffè latte</alt>\n    </image>'), encoding="utf-8")
insert("retailers/deling-group.xml", "<hours>ma–pe 9–17</hours>", '\n  <hours xml:lang="sv">mån–fre 9–17</hours>')
PYTHON

for name in valid translated; do
    "$digno" build --content "$scratch/$name" --output "$scratch/$name.sqlite" --quiet
    rm -f "Fuzz/Corpus/bundle/$name-512.sqlite"  # VACUUM INTO does not overwrite
    python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA page_size = 512'); c.execute('VACUUM INTO ?', (sys.argv[2],))" \
        "$scratch/$name.sqlite" "Fuzz/Corpus/bundle/$name-512.sqlite"
    echo "wrote Fuzz/Corpus/bundle/$name-512.sqlite"
done
