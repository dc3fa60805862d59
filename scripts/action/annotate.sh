#!/usr/bin/env bash
# action.yml's fallback when no SARIF was uploaded: the problems as workflow annotations
# (GitHub shows the first 10 errors of a step on the pull request, all of them in the log).
set -uo pipefail
: "${CONTENT:=content}" "${DIGNO:=digno}"
"$DIGNO" validate "$CONTENT" --format github || true
