#!/usr/bin/env bash
# Runs every koord test on a Debian 12 machine: installs the dependencies (cmake/install-deps.sh),
# builds the real control plane the integration tests use (test/controlplane/build-binaries.sh:
# etcd, kube-apiserver, kube-scheduler, kube-controller-manager, kubectl, helm and kwok from the Go
# module proxy, cached under ~/.cache/koord, so only the first run pays for it), builds the `asan`
# (ASan + UBSan) and `default` (RelWithDebInfo) presets, runs the unit tests under `asan` and every
# test under `default`, then fuzzes each libFuzzer target for a bounded time (clang's `fuzz`
# preset, test/fuzz/run-libfuzzer.sh). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash cmake/install-deps.sh
echo "=== control plane binaries"
bash test/controlplane/build-binaries.sh

for preset in asan default; do
  echo "=== build: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
done

echo "=== test: asan (unit tests under AddressSanitizer and UndefinedBehaviorSanitizer)"
ctest --preset asan --label-regex unit
echo "=== test: default (every test: unit, integration, lint, fuzz replay, benchmark smoke)"
ctest --preset default
echo "=== fuzz: every libFuzzer target for a bounded time (clang 14; g++ has no libFuzzer)"
bash test/fuzz/run-libfuzzer.sh "${KOORD_FUZZ_SECONDS:-30}"
