#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy) over every koord source file of a build directory's
# compile_commands.json, two files at a time; fails when any file reports a diagnostic.
# Usage: test/lint/check_tidy.sh [build-dir]
# Without a build directory it configures build/tidy (the default preset with KOORD_UNITY_BUILD=OFF:
# a unity build's compile_commands.json names its batches, not the source files); nothing is built.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build/tidy}"
if [ $# -eq 0 ]; then
  (cd "$root" && cmake --preset default -B "$build" -DKOORD_UNITY_BUILD=OFF >/dev/null)
fi
[ -f "$build/compile_commands.json" ] || { echo "no compile_commands.json in $build" >&2; exit 2; }
mapfile -t files < <(python3 -c '
import json, sys
root = sys.argv[1]
for entry in json.load(open(sys.argv[2])):
    f = entry["file"]
    if f.startswith(root + "/") and "/build/" not in f and "/test/" not in f:
        print(f)' "$root" "$build/compile_commands.json" | sort -u)
if [ ${#files[@]} -eq 0 ]; then
  echo "no koord source file in $build/compile_commands.json" \
    "(a unity build? configure with -DKOORD_UNITY_BUILD=OFF)" >&2
  exit 2
fi
printf '%s\n' "${files[@]}" | xargs -P 2 -n 1 clang-tidy -p "$build" --quiet > "$build/clang-tidy.log" 2>&1 || true
errors="$(grep -cE '(warning|error): .*\[[a-z-]+.*\]$' "$build/clang-tidy.log" || true)"
grep -E '(warning|error): .*\[[a-z-]+.*\]$' "$build/clang-tidy.log" | sort -u || true
echo "clang-tidy: ${#files[@]} files, $errors diagnostics"
[ "$errors" -eq 0 ]
