#!/usr/bin/env bash
# action.yml's last step: fails the job as `digno validate` would have (1: errors in the
# content, 2: usage or I/O errors); warnings pass.
set -uo pipefail
case "${STATUS:-}" in
  0) echo "the content is valid" ;;
  1) echo "the content has errors (see code scanning or the annotations)"; exit 1 ;;
  *) echo "digno validate could not check the content (exit status ${STATUS:-none})"; exit 2 ;;
esac
