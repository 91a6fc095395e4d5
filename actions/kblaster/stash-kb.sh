#!/usr/bin/env bash
# Moves a KB that actions/cache/restore just put at .kblaster-cache/kb.sqlite aside, as
# RESTORE_DIR/N.sqlite, so that the next restore (to the same path) cannot overwrite it.
#   stash-kb.sh N      (RUNNER_TEMP set by the runner)
set -euo pipefail
dir="${RUNNER_TEMP:-/tmp}/kblaster-kb-restored"
mkdir -p "$dir"
if [ -f .kblaster-cache/kb.sqlite ]; then
  mv .kblaster-cache/kb.sqlite "$dir/$1.sqlite"
  echo "kblaster: restored KB $1 kept as $dir/$1.sqlite"
fi
