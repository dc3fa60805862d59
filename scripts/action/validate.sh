#!/usr/bin/env bash
# action.yml's first step: `digno validate --format sarif` into a file, its exit status and the
# file's path as the step's outputs (GITHUB_OUTPUT). The step itself never fails here, so that
# the upload runs; result.sh fails the job afterwards.
set -uo pipefail
: "${CONTENT:=content}" "${DIGNO:=digno}" "${GITHUB_OUTPUT:?GITHUB_OUTPUT is set by the runner}"
if ! command -v "$DIGNO" >/dev/null 2>&1; then
  echo "::error title=digno missing::'$DIGNO' is not installed; install digno before this action (README, Install)"
  echo "status=2" >>"$GITHUB_OUTPUT"
  exit 0
fi
sarif="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/digno-validate.sarif"
status=0
"$DIGNO" validate "$CONTENT" --format sarif ${DOCS_URL:+--docs-url "$DOCS_URL"} >"$sarif" || status=$?
if [ "$status" -le 1 ] && [ -s "$sarif" ]; then
  echo "sarif=$sarif" >>"$GITHUB_OUTPUT"
fi
echo "status=$status" >>"$GITHUB_OUTPUT"
echo "digno validate $CONTENT: exit status $status"
