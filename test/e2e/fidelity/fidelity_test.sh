#!/usr/bin/env bash
# Fidelity: `koord-extender simulate` against the real thing. For each of 20 seeded small clusters
# (generate_clusters.py: kwok nodes of different sizes, zones, disk types, NoSchedule and
# PreferNoSchedule taints; pods with and without requests, nodeSelectors, tolerations, required
# and preferred node affinity), on the shared control plane:
#   1. create the cluster's nodes (kwok keeps them Ready) and wait for their final taints;
#   2. start koord-extender (deploy/extender-config/koord-extender-config.yaml) and the stock
#      kube-scheduler (deploy/scheduler-config/scheduler-config.yaml) at -v=10, which logs every
#      node's final score for each pod;
#   3. create the pods one at a time, in order, each waited for until bound or Unschedulable;
#   4. stop both, delete the cluster, and run `koord-extender simulate` on the same cluster
#      (every pod pending) and compare where each pod went (fidelity.py compare).
# A pod counts when kube-scheduler's best score for it is unique, or it had one feasible node, or
# it was unschedulable; the test fails when a counted pod went elsewhere in the simulator.
# Usage: fidelity_test.sh KOORD_EXTENDER_BINARY [SIMULATOR_BINARY]
#   env: KOORD_TEST_CLUSTER_DIR (a control plane started with `cluster.sh start DIR --kwok`; when
#        unset, one is started in a temporary folder and stopped at the end), KOORD_SOURCE_DIR
#        (default: this checkout), KOORD_FIDELITY_SEED (1), KOORD_FIDELITY_CLUSTERS (20),
#        KOORD_FIDELITY_GEN_FLAGS (extra generate_clusters.py flags, e.g. "--topology-spread
#        --inter-pod-affinity"), KOORD_FIDELITY_WORK (keep the work folder there: inputs, kube
#        results, simulator inputs; by default a temporary one, kept only when the test fails).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${KOORD_SOURCE_DIR:=$(cd "$here/../../.." && pwd)}"
export KOORD_SOURCE_DIR
extender_bin="$(realpath "${1:?usage: fidelity_test.sh KOORD_EXTENDER_BINARY [SIMULATOR_BINARY]}")"
simulator_bin="$(realpath "${2:-$extender_bin}")"
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
fidelity=(python3 "$here/fidelity.py")
if [ -n "${KOORD_FIDELITY_WORK:-}" ]; then
  work="$KOORD_FIDELITY_WORK"; keep_work=1
  # Reused only when it is empty or an earlier run's work folder.
  if [ -d "$work" ] && [ -n "$(ls -A "$work")" ]; then
    [ -f "$work/clusters.json" ] || { echo "fidelity: $work is not empty and not a work folder"; exit 1; }
    rm -rf "$work"
  fi
  mkdir -p "$work"
else
  work="$(mktemp -d /tmp/koord-fidelity.XXXXXX)"; keep_work=0
fi
own_cluster=""
if [ -z "${KOORD_TEST_CLUSTER_DIR:-}" ]; then
  own_cluster="$(mktemp -d /tmp/koord-fidelity-cp.XXXXXX)"
  KOORD_TEST_CLUSTER_DIR="$own_cluster"
  echo "fidelity: no KOORD_TEST_CLUSTER_DIR; starting a control plane in $own_cluster"
  bash "$cluster_sh" start "$own_cluster" --kwok >/dev/null
fi
export KOORD_TEST_CLUSTER_DIR
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
scheduler_log="$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log"
status=1
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  "${fidelity[@]}" clean --cluster-dir "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ -n "$own_cluster" ]; then
    bash "$cluster_sh" stop "$own_cluster" >/dev/null 2>&1 || true
    if [ "$status" -eq 0 ]; then rm -rf "$own_cluster"; else echo "fidelity: control plane logs kept: $own_cluster/logs"; fi
  fi
  if [ "$status" -ne 0 ] || [ "$keep_work" -eq 1 ]; then
    echo "fidelity: work folder kept: $work (per cluster: nodes.json, kube.json, scores.log, sim-NN.yaml)"
    [ "$status" -ne 0 ] && [ -s "$work/extender.log" ] && { echo "--- koord-extender log (tail)"; tail -20 "$work/extender.log"; }
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

seed="${KOORD_FIDELITY_SEED:-1}"
clusters="${KOORD_FIDELITY_CLUSTERS:-20}"
# shellcheck disable=SC2086  # KOORD_FIDELITY_GEN_FLAGS: flags, split on spaces
python3 "$here/generate_clusters.py" --seed "$seed" --clusters "$clusters" \
  ${KOORD_FIDELITY_GEN_FLAGS:-} -o "$work/clusters.json"

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
"${fidelity[@]}" clean --cluster-dir "$KOORD_TEST_CLUSTER_DIR"

# The shipped extender configuration, pointed at this cluster and port; no leader election (the
# extender restarts for every cluster, and a killed leader's Lease would hold its loops 15 s).
sed -e "s|^  kubeconfig: \"\"|  kubeconfig: \"$KUBECONFIG\"|" \
    -e "s|^  address: \"127.0.0.1:10262\"|  address: \"127.0.0.1:$port\"|" \
    -e "s|^  leaderElect: true|  leaderElect: false|" \
    "$KOORD_SOURCE_DIR/deploy/extender-config/koord-extender-config.yaml" > "$work/extender-config.yaml"
if ! grep -q "127.0.0.1:$port" "$work/extender-config.yaml" ||
   ! grep -q "leaderElect: false" "$work/extender-config.yaml"; then
  echo "fidelity: could not adapt deploy/extender-config/koord-extender-config.yaml"; exit 1
fi
# -v=10: the "Calculated node's final score for pod" lines. Opportunistic batching (beta, on by
# default since 1.35) could hand a pod the previous pod's next-best node without scoring it: off.
export KOORD_SCHEDULER_FLAGS="-v=10 --feature-gates=OpportunisticBatching=false"

start=$SECONDS
for i in $(seq 0 $((clusters - 1))); do
  "${fidelity[@]}" setup --cluster-dir "$KOORD_TEST_CLUSTER_DIR" --work "$work" --index "$i"
  offset="$(stat -c %s "$scheduler_log" 2>/dev/null || echo 0)"
  start_extender || { echo "fidelity: koord-extender did not become ready"; exit 1; }
  start_scheduler
  "${fidelity[@]}" schedule --cluster-dir "$KOORD_TEST_CLUSTER_DIR" --work "$work" --index "$i" \
    --log "$scheduler_log" --log-offset "$offset"
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null
  "${fidelity[@]}" teardown --cluster-dir "$KOORD_TEST_CLUSTER_DIR" --work "$work" --index "$i"
  "${fidelity[@]}" compare --work "$work" --index "$i" --simulator "$simulator_bin"
done
echo "fidelity: $clusters clusters in $((SECONDS - start)) s (seed $seed)"
if "${fidelity[@]}" summary --work "$work"; then status=0; fi
exit "$status"
