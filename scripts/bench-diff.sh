#!/usr/bin/env bash
# digno diff's benchmark (docs/BENCHMARKS.md, "digno diff"): two bundles of 100,000 entities,
# 1 % of them changed, compared beside SQLite's own sqldiff (Debian: sqlite3-tools).
#
#   scripts/bench-diff.sh [WORK_FOLDER]     (default /tmp/digno-bench-diff; release builds)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=${1:-/tmp/digno-bench-diff}
mkdir -p "$work"
swift build -c release --product digno >/dev/null
swift build -c release --product digno-bench >/dev/null
digno=.build/release/digno
if [ ! -d "$work/old" ]; then
  .build/release/digno-bench generate --products 40000 --recipes 40000 --retailers 20000 --seed 1 --output "$work/old"
fi
rm -rf "$work/new"
cp -r "$work/old" "$work/new"
# 1 %: every hundredth product's and recipe's summary, and every hundredth retailer's name.
for f in $(ls "$work/new/products" | awk 'NR%100==0'); do sed -i 's|<summary>|<summary>Uusi: |' "$work/new/products/$f"; done
for f in $(ls "$work/new/recipes" | awk 'NR%100==0'); do sed -i 's|<summary>|<summary>Päivitetty: |' "$work/new/recipes/$f"; done
for f in $(ls "$work/new/retailers" | awk 'NR%100==0'); do sed -i 's|<name>|<name>Uusi |' "$work/new/retailers/$f"; done
"$digno" build "$work/old" --output "$work/old.sqlite" --quiet
"$digno" build "$work/new" --output "$work/new.sqlite" --quiet
"$digno" diff "$work/old.sqlite" "$work/new.sqlite" | head -1 || true
farm-bench -n 5 --vs "sh -c 'sqldiff $work/old.sqlite $work/new.sqlite > /dev/null'" -- \
  sh -c "$digno diff $work/old.sqlite $work/new.sqlite > /dev/null; true"
