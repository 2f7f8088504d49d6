#!/usr/bin/env bash
# Installs, from Debian 12's packages, everything koord's build and tests need.
# Idempotent: packages already present are not fetched again; safe to run as often as you like.
# Needs root (or sudo). Does not touch anything outside the package manager.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  nlohmann-json3-dev libyaml-cpp-dev libspdlog-dev libfmt-dev prometheus-cpp-dev
  libcurl4-openssl-dev libssl-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy
  # Only for the bounded libFuzzer runs (test/fuzz/run-libfuzzer.sh): g++ has no libFuzzer.
  clang-14 libclang-rt-14-dev
  openssl curl ca-certificates python3 python3-yaml
  # Only for the one-node cluster (test/node): the OCI runtime, the CNI plugins, kube-proxy's
  # iptables and conntrack, and umoci to build images without a Docker daemon.
  runc containernetworking-plugins iptables conntrack iproute2 umoci
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
