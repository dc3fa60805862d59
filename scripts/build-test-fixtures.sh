#!/usr/bin/env bash
# Builds the bundles CatalogModelTests opens, with `digno build`, into
# Tests/CatalogModelTests/Fixtures, so that those tests need no compiler (and no libxml2):
#
#   shipped.sqlite   from content/
#   small.sqlite     from the compiler's valid fixture, Tests/BundleCompilerTests/Fixtures/valid
#
# A build is reproducible, so the files change only when the content, the fixture, the schema
# or the compiler's output does; BundleCompilerTests' FixtureBundleTests fails until this is
# run again after such a change. Run from anywhere; SWIFT and SCRATCH_PATH (default .build)
# choose the toolchain and build folder, as in the Makefile.
#
#   bash scripts/build-test-fixtures.sh
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH_PATH=${SCRATCH_PATH:-.build}

"$SWIFT" build --product digno --scratch-path "$SCRATCH_PATH"
digno="$("$SWIFT" build --product digno --scratch-path "$SCRATCH_PATH" --show-bin-path)/digno"

# Built beside each other in a scratch folder (with their manifests, not kept), then copied.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fixtures=Tests/CatalogModelTests/Fixtures
mkdir -p "$fixtures"

build() {
    "$digno" build --content "$1" --output "$scratch/$2/catalog.sqlite" --quiet
    cp "$scratch/$2/catalog.sqlite" "$fixtures/$2.sqlite"
    echo "wrote $fixtures/$2.sqlite"
}
build content shipped
build Tests/BundleCompilerTests/Fixtures/valid small
