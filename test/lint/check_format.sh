#!/usr/bin/env bash
# Fails when any tracked C++ file is not clang-format clean (the style in .clang-format).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' 2>/dev/null || find include src extender agent manager test -name '*.[ch]pp')
bad=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-format clean: $f"
    bad=1
  fi
done
echo "checked ${#files[@]} files"
exit $bad
