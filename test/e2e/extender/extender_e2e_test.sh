#!/usr/bin/env bash
# End to end on the real control plane: a stock kube-scheduler, configured exactly as the chart
# configures it (deploy/scheduler-config/scheduler-config.yaml), schedules pods with
# schedulerName koord-scheduler onto kwok's fake nodes through koord-extender.
#  1. the pods land, and their bindings came from koord-extender's bind (its metrics count them);
#     prioritize scored the pod filter kept, without decoding kube-scheduler's body again;
#  2. a pod that passes kube-scheduler's own filters but not ours (an invalid QoS/priority pair)
#     carries our reason in its PodScheduled condition;
#  3. koord-extender killed with SIGKILL and restarted in the middle of a run loses no pod, and no
#     node ever holds more than it allocates.
# Usage: extender_e2e_test.sh KOORD_EXTENDER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: extender_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-e2e
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l koord.test/e2e=true --wait=false >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -40 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT


# The namespace of the leases, the koord PriorityClasses (from the chart), the test namespace.
kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
helm template koord "$KOORD_SOURCE_DIR/charts/koordinator" -s templates/priorityclasses.yaml 2>/dev/null |
  kubectl apply -f - >/dev/null
kubectl create namespace "$ns" >/dev/null

# Three fake nodes of 4 CPUs / 8Gi kept Ready by kwok; node-2 reserves 2 CPUs by annotation.
for i in 0 1 2; do
  reservation=""
  [ "$i" = 2 ] && reservation='"node.koordinator.sh/reservation": "{\"resources\":{\"cpu\":\"2\"}}",'
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "e2e-node-$i", "labels": {"koord.test/e2e": "true", "type": "kwok"},
   "annotations": {$reservation "kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
YAML
done
kubectl wait --for=condition=Ready node -l koord.test/e2e=true --timeout=60s >/dev/null && pass "three fake nodes Ready"

# koord-extender with the cluster's kubeconfig, and kube-scheduler with the shipped configuration.
cat > "$work/extender-config.yaml" <<YAML
apiVersion: config.koordinator.sh/v1alpha1
kind: KoordExtenderConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG
  qps: 200
  burst: 400
server:
  address: "127.0.0.1:$port"
leaderElection:
  leaderElect: false
YAML
start_extender && pass "koord-extender ready" || { fail "koord-extender did not become ready"; exit 1; }
# The chart's exec probes: `koord-extender probe` answers 0 for a ready extender, 1 for a port where
# none listens.
if "$extender_bin" probe --url "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 &&
   ! "$extender_bin" probe --url "http://127.0.0.1:1/healthz" --timeout-ms 500 >/dev/null 2>&1; then
  pass "koord-extender probe tells a ready extender from a missing one"
else
  fail "koord-extender probe did not tell a ready extender from a missing one"
fi
start_scheduler
pass "kube-scheduler started with deploy/scheduler-config/scheduler-config.yaml"

pod() {  # name cpu [qos priorityClass]
  local qos="${3:-LS}" pc="${4:-koord-prod}"
  cat <<YAML
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "$ns", "labels": {"koordinator.sh/qosClass": "$qos", "app": "e2e"}},
 "spec": {"schedulerName": "koord-scheduler", "priorityClassName": "$pc",
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "$2", "memory": "256Mi"}}}]}}
YAML
}
bind_count() {
  curl -sf "http://127.0.0.1:$port/metrics" | awk '/^koord_extender_verb_duration_seconds_count\{.*verb="bind"/ {s += $2} END {print s + 0}'
}

# 1. Pods land through our bind.
for i in 0 1 2; do pod "web-$i" 1 | kubectl apply -f - >/dev/null; done
if kubectl wait --for=condition=PodScheduled -n "$ns" pod/web-0 pod/web-1 pod/web-2 --timeout=60s >/dev/null; then
  pass "three pods scheduled"
else
  fail "pods not scheduled"
fi
binds="$(bind_count)"
[ "${binds%.*}" -ge 3 ] && pass "koord-extender bound them ($binds bind calls)" || fail "bind calls: $binds"
# kube-scheduler's prioritize bodies are read without decoding the pod again: the view filter kept
# for the same pod served them.
from_filter="$(curl -sf "http://127.0.0.1:$port/metrics" |
  awk '/^koord_extender_prioritize_pods_total\{source="filter"\}/ {print $2}')"
[ "${from_filter:-0}" != 0 ] && pass "prioritize reused filter's view ($from_filter times)" ||
  fail "prioritize never reused filter's view (koord_extender_prioritize_pods_total{source=\"filter\"}: '${from_filter}')"

# 2. Our reason in PodScheduled.
pod bad-qos 1 BE koord-prod | kubectl apply -f - >/dev/null
reason=""
for _ in $(seq 1 100); do
  reason="$(kubectl get pod -n "$ns" bad-qos -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}' 2>/dev/null || true)"
  [ -n "$reason" ] && break
  sleep 0.2
done
if echo "$reason" | grep -q "BE" && echo "$reason" | grep -qi "koord-prod"; then
  pass "unschedulable pod carries our reason: $reason"
else
  fail "PodScheduled message: '$reason'"
fi
kubectl delete pod -n "$ns" bad-qos --wait=false >/dev/null

# 3. Kill koord-extender in the middle of a run of 24 half-CPU pods (room: 4+4+2 CPUs = 10,
#    3 used: 14 more fit), then restart it.
for i in $(seq 0 23); do pod "batch-$i" 500m | kubectl apply -f - >/dev/null; done
sleep 1
stop_extender
pass "koord-extender killed (SIGKILL) mid-run"
sleep 2
start_extender && pass "koord-extender restarted" || fail "koord-extender did not restart"
scheduled=0
for _ in $(seq 1 150); do
  scheduled="$(kubectl get pods -n "$ns" -l app=e2e -o json | python3 -c '
import json, sys
print(sum(1 for p in json.load(sys.stdin)["items"] if p["spec"].get("nodeName")))')"
  [ "$scheduled" -ge 17 ] && break
  sleep 0.4
done
[ "$scheduled" -eq 17 ] && pass "17 pods placed (3 + 14 that fit), none lost" || fail "placed: $scheduled (want 17)"
kubectl get pods -n "$ns" -o json | python3 -c '
import json, sys
alloc = {"e2e-node-0": 4000, "e2e-node-1": 4000, "e2e-node-2": 2000}  # node-2 reserves 2 CPUs
used = {}
for p in json.load(sys.stdin)["items"]:
    node = p["spec"].get("nodeName")
    if not node:
        continue
    q = p["spec"]["containers"][0]["resources"]["requests"]["cpu"]
    used[node] = used.get(node, 0) + (int(q[:-1]) if q.endswith("m") else int(q) * 1000)
over = {n: u for n, u in used.items() if u > alloc[n]}
print("cpu per node (milli):", used)
sys.exit(1 if over else 0)' && pass "no node holds more than it allocates (node reservation honoured)" ||
  fail "a node is over-committed"
total="$(kubectl get pods -n "$ns" -l app=e2e -o name | wc -l)"
[ $((total - scheduled)) -eq 10 ] && pass "the 10 that do not fit stay unscheduled" ||
  fail "unscheduled: $((total - scheduled)) (want 10)"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "extender e2e: all checks passed"
