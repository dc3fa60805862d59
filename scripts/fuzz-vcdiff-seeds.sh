#!/usr/bin/env bash
# Writes fuzz-vcdiff's seed corpus (docs/FUZZING.md) into Fuzz/Corpus/vcdiff: xdelta3's deltas
# (as `digno publish` writes them: -9 -S none) between versions of the valid fixture's content
# files, each input the source's length (two bytes, big-endian), the source, then the delta.
# Needs xdelta3 (Debian: apt-get install xdelta3). Run from the repository's root.
set -euo pipefail
fixture=Tests/BundleCompilerTests/Fixtures/valid
out=Fuzz/Corpus/vcdiff
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$fixture"/catalog.xml "$fixture"/home.xml "$fixture"/products/*.xml "$fixture"/recipes/*.xml >"$work/source"
python3 - "$work" <<'PYTHON'
import pathlib, sys
work = pathlib.Path(sys.argv[1])
source = (work / "source").read_bytes()
targets = {
    "edited": source.replace(b"Espresso", b"Ristretto", 1),
    "inserted": source[:1500] + b"<p>A new paragraph, with <em>emphasis</em>.</p>\n" + source[1500:],
    "removed": source[:800] + source[1600:],
    "same": source,
    "reordered": source[2000:] + source[:2000],
    "repeated": source * 12,  # more than one 16 KiB window with -W 16384
    "empty": b"",
}
for name, data in targets.items():
    (work / name).write_bytes(data)
PYTHON
rm -f "$out"/*.seed
cd "$work"
seed() {  # seed NAME SOURCE-OR-EMPTY TARGET [xdelta3 options...]
  local name=$1 source=$2 target=$3
  shift 3
  if [ -n "$source" ]; then
    xdelta3 -e -9 -S none -f "$@" -s "$source" "$target" delta
    size=$(stat -c %s "$source")
  else
    xdelta3 -e -9 -S none -f "$@" "$target" delta
    size=0
  fi
  python3 -c "import sys; open(sys.argv[1], 'wb').write(int(sys.argv[2]).to_bytes(2, 'big'))" length "$size"
  cat length ${source:+"$source"} delta >"$OLDPWD/$out/$name.seed"
}
for target in edited inserted removed same reordered empty; do seed "$target" source "$target"; done
seed repeated-windows source repeated -W 16384
seed no-source "" source
seed no-application-header source edited -A
echo "$(ls "$OLDPWD/$out" | wc -l) seeds in $out"
