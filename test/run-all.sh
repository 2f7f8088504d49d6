#!/usr/bin/env bash
# Runs every koord test on a Debian 12 machine: installs the dependencies (cmake/install-deps.sh),
# builds the real control plane the integration tests use (test/controlplane/build-binaries.sh:
# etcd, kube-apiserver, kube-scheduler, kube-controller-manager, kubectl, helm and kwok from the Go
# module proxy, and with --node the kubelet, kube-proxy and containerd the one-node cluster of
# test/node runs, cached under ~/.cache/koord, so only the first run pays for it), builds the unit
# tests under the `asan` preset (ASan + UBSan) and everything under `default` (RelWithDebInfo), runs
# the unit tests under `asan` and every test under `default`, then fuzzes each libFuzzer target
# for a bounded time (clang's `fuzz` preset, test/fuzz/run-libfuzzer.sh). Exits non-zero on the
# first failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Each stage line carries the seconds since the start, so a slow stage shows in the CI log.
started=$SECONDS
stage() { echo "=== [$((SECONDS - started))s] $*"; }

bash cmake/install-deps.sh
stage "control plane binaries"
bash test/controlplane/build-binaries.sh --node
stage "the community descheduler v0.36.0 (integration.e2e.descheduler_upstream compares ours with it)"
bash test/controlplane/build-descheduler.sh

stage "build: asan (the unit tests only: all that runs under the sanitizers)"
cmake --preset asan >/dev/null
cmake --build --preset asan --target koord_unit_tests
stage "build: default"
cmake --preset default >/dev/null
cmake --build --preset default

stage "test: asan (unit tests under AddressSanitizer and UndefinedBehaviorSanitizer)"
ctest --preset asan --label-regex unit
stage "test: default (every test: unit, integration, lint, fuzz replay, benchmark smoke)"
ctest --preset default
# A unit-test binary missing from koord_unit_tests would be skipped under ASan without a word
# (ctest lists it as <name>_NOT_BUILT, with no label): the two presets must list the same tests.
unit_count() { ctest --preset "$1" -N --label-regex unit | awk '/^Total Tests:/ {print $3}'; }
asan_units="$(unit_count asan)"
default_units="$(unit_count default)"
if [ "$asan_units" != "$default_units" ]; then
  echo "run-all: ASan ran $asan_units unit tests, default has $default_units: a unit-test binary" \
    "is missing from the koord_unit_tests target" >&2
  exit 1
fi
stage "fuzz: every libFuzzer target for a bounded time (clang 14; g++ has no libFuzzer)"
bash test/fuzz/run-libfuzzer.sh "${KOORD_FUZZ_SECONDS:-30}"
stage "done: every stage passed"
