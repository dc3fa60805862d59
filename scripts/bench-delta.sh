#!/usr/bin/env bash
# The delta formats compared for issue 24 (docs/BENCHMARKS.md, "Delta updates: the format"):
# a 10,000-entity bundle, and the same with one product's summary changed, and with 5 % of the
# products, recipes and retailers changed; each delta's size against the whole bundle's gzip.
# Needs Debian's zstd, bsdiff and xdelta3, and release builds of digno and digno-bench.
#
#   scripts/bench-delta.sh [WORK_FOLDER]     (default /tmp/digno-bench-delta)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=${1:-/tmp/digno-bench-delta}
mkdir -p "$work"
swift build -c release --product digno >/dev/null
swift build -c release --product digno-bench >/dev/null
digno=$PWD/.build/release/digno
bench=$PWD/.build/release/digno-bench
[ -d "$work/base" ] || "$bench" generate --products 4000 --recipes 4000 --retailers 2000 --seed 1 --output "$work/base"
cd "$work"
rm -rf one five
cp -r base one
cp -r base five
first=$(ls one/products | sed -n 1p)  # sed reads it all: no SIGPIPE under pipefail
sed -i 's|<summary>|<summary>Uusi: |' "one/products/$first"
for kind in products recipes; do
  for f in $(ls "five/$kind" | awk 'NR%20==0'); do sed -i 's|<summary>|<summary>Uusi: |' "five/$kind/$f"; done
done
for f in $(ls five/retailers | awk 'NR%20==0'); do sed -i 's|<phone>|<phone>+358 |' "five/retailers/$f"; done
version=0
for name in base one five; do
  "$digno" build "$name" --output "$name.sqlite" --release-version "2026.11.$version" --quiet
  version=$((version + 1))
done
for name in one five; do
  echo "== $name: $("$digno" diff base.sqlite "$name.sqlite" | sed -n 1p)"
  echo "whole bundle, gzip -6:            $(gzip -6 -n -c "$name.sqlite" | wc -c)"
  zstd -q -19 --long=25 --patch-from=base.sqlite "$name.sqlite" -o "$name.zst" -f 2>/dev/null
  echo "zstd -19 --patch-from:            $(stat -c %s "$name.zst")"
  bsdiff base.sqlite "$name.sqlite" "$name.bsdiff"
  echo "bsdiff (bzip2 inside):            $(stat -c %s "$name.bsdiff")"
  xdelta3 -9 -f -e -s base.sqlite "$name.sqlite" "$name.xd3"
  echo "xdelta3 -9 (VCDIFF, LZMA inside): $(stat -c %s "$name.xd3")"
  xdelta3 -9 -S none -f -e -s base.sqlite "$name.sqlite" "$name.vcdiff"
  echo "xdelta3 -9 -S none (plain VCDIFF): $(stat -c %s "$name.vcdiff"), gzip -9: $(gzip -9 -n -c "$name.vcdiff" | wc -c)"
  /usr/bin/time -f "xdelta3 -d: %e s, %M KB" xdelta3 -d -f -s base.sqlite "$name.vcdiff" "$name.out"
  cmp "$name.out" "$name.sqlite"
  "$bench" apply-delta --source base.sqlite --delta "$name.vcdiff" --output "$name.applied"
  cmp "$name.applied" "$name.sqlite"
  python3 - "$name" <<'PY'
import sys, zlib
name = sys.argv[1]
a, b = open("base.sqlite", "rb").read(), open(name + ".sqlite", "rb").read()
size = 16384
changed = [i for i in range(0, len(b), size) if a[i:i + size] != b[i:i + size]]
print(f"SQLite pages changed: {len(changed)} of {len(b) // size}, their gzip: {len(zlib.compress(b''.join(b[i:i + size] for i in changed), 6))}")
PY
done

# The deltas as `digno publish` writes them (xdelta3 -9 -S none -A -W 8 MiB, and a .gz copy),
# from base to each, beside the bundle's own gzip copy.
for name in one five; do
  rm -rf "channel-$name"
  [ -f signing.key ] || "$digno" keygen --output signing.key >/dev/null
  "$digno" publish --bundle base.sqlite --channel-dir "channel-$name" --key signing.key >/dev/null
  /usr/bin/time -f "digno publish with a delta: %e s, %M KB" "$digno" publish --bundle "$name.sqlite" --channel-dir "channel-$name" --key signing.key >/dev/null
  python3 - "channel-$name" "$name" <<'PY'
import base64, json, os, sys
folder, name = sys.argv[1], sys.argv[2]
head = json.loads(base64.b64decode(json.load(open(os.path.join(folder, "channels/stable/head.json")))["payload"]))
bundle_gz = os.path.getsize(os.path.join(folder, head["bundle"]["path"] + ".gz"))
for delta in head["deltas"]:
    gz = os.path.getsize(os.path.join(folder, delta["path"] + ".gz"))
    print(f"== {name} as published: delta {delta['bytes']} B, its .gz {gz} B ({100 * gz / bundle_gz:.2f} % of the bundle's .gz, {bundle_gz} B)")
PY
done
