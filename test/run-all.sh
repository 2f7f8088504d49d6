#!/usr/bin/env bash
# Runs every koord test on a Debian 12 machine: installs the dependencies (cmake/install-deps.sh),
# builds the `asan` (ASan + UBSan) and `default` (RelWithDebInfo) presets, and runs ctest on both.
# Exits non-zero on the first failure. The last lines printed are ctest's summary for `default`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash cmake/install-deps.sh

for preset in asan default; do
  echo "=== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
done

echo "=== test: asan (unit tests under AddressSanitizer and UndefinedBehaviorSanitizer)"
ctest --preset asan --label-regex unit
echo "=== test: default (every test)"
ctest --preset default
