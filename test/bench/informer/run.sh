#!/usr/bin/env bash
# Informer sync benchmark (docs/performance.md). With KOORD_TEST_CLUSTER_DIR set it uses that
# cluster (the integration fixture's smoke run); otherwise it starts its own control plane
# without kwok or kube-controller-manager (nothing else writes to it), and stops it afterwards.
#
#   bash test/bench/informer/run.sh [--bench BIN] [--nodes 5000] [--pods 50000]
#                                   [--updates-per-second 1000] [--seconds 20] [--runs 3] [--threads 32]
# The cluster is populated once; `measure` then runs --runs times (quote the median).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bench="$root/build/release/test/bench/informer/informer_sync_bench"
nodes=5000 pods=50000 rate=1000 secs=20 runs=1 threads=32
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) bench="$2" ;;
    --nodes) nodes="$2" ;;
    --pods) pods="$2" ;;
    --updates-per-second) rate="$2" ;;
    --seconds) secs="$2" ;;
    --runs) runs="$2" ;;
    --threads) threads="$2" ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
[ -x "$bench" ] || { echo "no benchmark binary at $bench (build it, or pass --bench)" >&2; exit 1; }

own_cluster=""
if [ -z "${KOORD_TEST_CLUSTER_DIR:-}" ]; then
  own_cluster="$(mktemp -d /tmp/koord-informer-bench.XXXXXX)"
  bash "$root/test/controlplane/cluster.sh" start "$own_cluster" --no-kcm
  KOORD_TEST_CLUSTER_DIR="$own_cluster"
fi
kubeconfig="$KOORD_TEST_CLUSTER_DIR/kubeconfig"
ns="informer-bench-$$"
cleanup() {
  if [ -n "$own_cluster" ]; then
    bash "$root/test/controlplane/cluster.sh" stop "$own_cluster" || true
    rm -rf "$own_cluster"
  else
    # shellcheck disable=SC1091
    source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
    PATH="$BIN_PATH:$PATH" kubectl --kubeconfig "$kubeconfig" delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
    PATH="$BIN_PATH:$PATH" kubectl --kubeconfig "$kubeconfig" delete nodes -l koord.bench/node=true --wait=false >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

"$bench" populate --kubeconfig "$kubeconfig" --namespace "$ns" --nodes "$nodes" --pods "$pods" --threads "$threads"
for run in $(seq 1 "$runs"); do
  echo "run: $run"
  "$bench" measure --kubeconfig "$kubeconfig" --namespace "$ns" --updates-per-second "$rate" --seconds "$secs" --threads "$threads"
done
