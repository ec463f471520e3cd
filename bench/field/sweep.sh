#!/usr/bin/env bash
# Preflight on every fetched repository, whole, at its HEAD: a crash (an "internal error") or a run over 180 s on
# real repositories is what this looks for, not scores. Repositories come from the search tool's `fetch` (their git
# directories under MIRROR, default /work/.mirror/OWNER+NAME/repo); each is cloned with --shared to a scratch
# directory and removed after. Output: one row per repository (name, then rc=N, INTERNAL with the error's start,
# TIMEOUT, or clone-failed), then DONE.
# Run: bash bench/field/sweep.sh [MIRROR] > sweep.tsv
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mirror="${1:-/work/.mirror}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for g in "$mirror"/*/repo; do
  name="$(basename "$(dirname "$g")")"
  rm -rf "$scratch/wt"
  if ! git clone -q --shared "$g" "$scratch/wt" 2>/dev/null; then
    printf '%s\tclone-failed\n' "$name"
    continue
  fi
  (cd "$scratch/wt" && timeout 180 node --import "$root/node_modules/tsx/dist/esm/index.mjs" "$root/src/cli/bin.ts" \
    preflight --json >/dev/null 2>"$scratch/err")
  rc=$?
  if grep -q "internal error" "$scratch/err"; then
    printf '%s\tINTERNAL\t%s\n' "$name" "$(head -c 300 "$scratch/err" | tr '\n\t' '  ')"
  elif [ "$rc" = 124 ]; then
    printf '%s\tTIMEOUT\n' "$name"
  else
    printf '%s\trc=%s\n' "$name" "$rc"
  fi
done
echo DONE
