#!/usr/bin/env bash
# Builds `digno` as it was at an earlier commit, for tests of what apps in the field run: the
# release channel's tests of a channel serving two bundle schemas (Tests/Channel/test_schemas.py)
# build the last commit before bundle schema 3, whose `digno update` is the app's BundleStore
# as it was then.
#
#     bash scripts/build-old-client.sh COMMIT     # prints the binary's path on its last line
#
# The sources are kept in .build/old-client/COMMIT and the build in .build/old-client/scratch,
# shared by every old commit: the dependencies (the same versions, from this clone's
# Package.resolved, at the same paths) are compiled once, and each further commit compiles only
# its own modules. The binary is copied to .build/old-client/COMMIT/digno: nothing to do the
# next time. The commit must be in the clone's history; a shallow clone fetches it from origin.
# OLD_CLIENT_SCRATCH names another build folder and OLD_CLIENT_FLAGS adds flags to its `swift
# build`: CI gives its own .build and flags, whose dependencies are then built already (the old
# commit's modules replace this one's there, which a later build of this commit compiles again).
# SWIFT names the swift to use (default swift). It takes the package versions this clone's own
# build resolved (Package.resolved), when there is one: the old commit's dependencies are ours.
#
# A binary built is also kept outside the clone, in OLD_CLIENT_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/cafe-digno/old-clients; "none" keeps none), under a key made of
# everything it is built from: the commit (which cannot change), `swift --version`, the
# Package.resolved it took and OLD_CLIENT_FLAGS. A fresh clone on the same machine (CI's) then
# copies it instead of building it again; deleting that folder is always safe.
set -euo pipefail
commit=${1:?usage: build-old-client.sh COMMIT (a full commit hash)}
if ! [[ "$commit" =~ ^[0-9a-f]{40}$ ]]; then
  echo "error: '$commit' is not a full commit hash" >&2
  exit 2
fi
repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
folder="$repository/.build/old-client/$commit"
scratch="${OLD_CLIENT_SCRATCH:-$repository/.build/old-client/scratch}"
binary="$folder/digno"
mkdir -p "$repository/.build/old-client"
# One build at a time (two test runs at once would remove each other's folder).
exec 9>"$repository/.build/old-client/.lock"
flock 9

if [ -x "$binary" ] && [ -e "$folder/BUILT" ]; then
  echo "$binary"
  exit 0
fi
cache_root=${OLD_CLIENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cafe-digno/old-clients}
cached=
if [ "$cache_root" != "none" ]; then
  key=$({ echo "$commit"; "${SWIFT:-swift}" --version 2>&1; cat "$repository/Package.resolved" 2>/dev/null || true; echo "${OLD_CLIENT_FLAGS:-}"; } | sha256sum | cut -c1-32)
  cached="$cache_root/$commit-$key"
  if [ -x "$cached/digno" ]; then
    rm -rf "$folder"
    mkdir -p "$folder"
    cp "$cached/digno" "$binary"
    touch "$folder/BUILT"
    echo "digno at ${commit:0:7} from the cache, $cached" >&2
    echo "$binary"
    exit 0
  fi
fi
if ! git -C "$repository" cat-file -e "$commit^{commit}" 2>/dev/null; then
  git -C "$repository" fetch --quiet origin "$commit" >&2 || true
fi
if ! git -C "$repository" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "error: commit $commit is not in this clone; fetch the history (git fetch --unshallow)" >&2
  exit 2
fi
rm -rf "$folder"
mkdir -p "$folder"
git -C "$repository" archive "$commit" | tar -x -C "$folder"
if [ -f "$repository/Package.resolved" ]; then cp "$repository/Package.resolved" "$folder/"; fi
echo "building digno at ${commit:0:7} in $folder" >&2
# Its warnings are its own: no -warnings-as-errors for a commit that cannot change. The
# package's switches (Package.swift) off: the whole package, as the commit built it.
(cd "$folder" && env -u DIGNO_FUZZ -u DIGNO_CLIENT_ONLY "${SWIFT:-swift}" build --product digno --scratch-path "$scratch" ${OLD_CLIENT_FLAGS:-} >&2)
cp "$scratch/debug/digno" "$binary"
# Last, so that an interrupted build is started again rather than taken for done.
touch "$folder/BUILT"
if [ -n "$cached" ]; then
  # Whole or not at all: copied beside, then renamed into place.
  mkdir -p "$cache_root"
  partial=$(mktemp -d "$cache_root/.partial-XXXXXX")
  cp "$binary" "$partial/digno"
  if ! mv -T "$partial" "$cached" 2>/dev/null; then rm -rf "$partial"; fi
fi
echo "$binary"
