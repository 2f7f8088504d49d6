#!/usr/bin/env bash
# End to end on the real control plane: a stock kube-scheduler, configured exactly as the chart
# configures it (deploy/scheduler-config/scheduler-config.yaml), schedules pods with
# schedulerName koord-scheduler onto kwok's fake nodes through koord-extender.
#  1. the pods land, and their bindings came from koord-extender's bind (its metrics count them);
#     prioritize scored the pod filter kept, without decoding kube-scheduler's body again;
#  2. a pod that passes kube-scheduler's own filters but not ours (an invalid QoS/priority pair)
#     carries our reason in its PodScheduled condition;
#  3. koord-extender killed with SIGKILL and restarted in the middle of a run loses no pod, and no
#     node ever holds more than it allocates;
#  4. kube-apiserver stopped and started again in the middle of a run loses no pod either, and
#     koord-extender lives through it and is ready again;
#  2b/6. a pod asking for a GPU (koordinator.sh/gpu-memory-ratio, which kube-scheduler is told to
#     ignore) is refused by nodes without GPUs, and one is bound to a node that advertises a GPU;
#  5. a bind that cannot be sent within bindTimeout (here: a client limited to 2 requests a second)
#     is refused unsent, kube-scheduler retries the pod, and still no pod is lost or over-placed.
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
write_extender_config
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
# Fails when a node holds more CPU than it allocates (node-2 reserves 2 of its 4 CPUs by annotation).
check_no_overcommit() {
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
sys.exit(1 if over else 0)'
}
# How many of the test's pods are bound to a node.
placed_count() {
  kubectl get pods -n "$ns" -l app=e2e -o json | python3 -c '
import json, sys
print(sum(1 for p in json.load(sys.stdin)["items"] if p["spec"].get("nodeName")))'
}
# settle_placed WANT TRIES: polls (every 0.4 s, up to TRIES times) until WANT pods are placed, then
# waits 2 s more, so that a late bind shows up as one pod too many; prints the count.
settle_placed() {
  local placed=0
  for _ in $(seq 1 "$2"); do
    placed="$(placed_count 2>/dev/null || echo 0)"
    [ "$placed" -ge "$1" ] && break
    sleep 0.4
  done
  sleep 2
  placed_count
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

# 2b. A GPU pod and nodes without GPUs. The shipped configuration has kube-scheduler ignore
#     koordinator.sh/gpu-* (ignoredByScheduler): koord-extender's DeviceResources refuses the pod
#     on every node that does not advertise enough (section 6 binds one to a node that does).
gpu_pod() {  # name
  cat <<YAML
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "$ns", "labels": {"app": "e2e-gpu"}},
 "spec": {"schedulerName": "koord-scheduler",
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {
     "requests": {"cpu": "100m", "koordinator.sh/gpu-memory-ratio": "100"},
     "limits": {"koordinator.sh/gpu-memory-ratio": "100"}}}]}}
YAML
}
gpu_pod gpu-0 | kubectl apply -f - >/dev/null
reason=""
for _ in $(seq 1 100); do
  reason="$(kubectl get pod -n "$ns" gpu-0 -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}' 2>/dev/null || true)"
  [ -n "$reason" ] && break
  sleep 0.2
done
if grep -q "Insufficient koordinator.sh/gpu-memory-ratio" <<<"$reason" &&
   [ -z "$(kubectl get pod -n "$ns" gpu-0 -o jsonpath='{.spec.nodeName}')" ]; then
  pass "a GPU pod is refused by nodes without GPUs: $reason"
else
  fail "GPU pod on nodes without GPUs: node '$(kubectl get pod -n "$ns" gpu-0 -o jsonpath='{.spec.nodeName}')', PodScheduled '$reason'"
fi

# 3. Kill koord-extender in the middle of a run of 24 half-CPU pods (room: 4+4+2 CPUs = 10,
#    3 used: 14 more fit), then restart it.
for i in $(seq 0 23); do pod "batch-$i" 500m | kubectl apply -f - >/dev/null; done
sleep 1
stop_extender
pass "koord-extender killed (SIGKILL) mid-run"
sleep 2
start_extender && pass "koord-extender restarted" || fail "koord-extender did not restart"
scheduled="$(settle_placed 17 150)"
[ "$scheduled" -eq 17 ] && pass "17 pods placed (3 + 14 that fit), none lost" || fail "placed: $scheduled (want 17)"
check_no_overcommit && pass "no node holds more than it allocates (node reservation honoured)" ||
  fail "a node is over-committed"
total="$(kubectl get pods -n "$ns" -l app=e2e -o name | wc -l)"
[ $((total - scheduled)) -eq 10 ] && pass "the 10 that do not fit stay unscheduled" ||
  fail "unscheduled: $((total - scheduled)) (want 10)"


# 4. kube-apiserver goes away in the middle of a run and comes back on the same port. Binds in
#    flight fail and are undone, kube-scheduler retries their pods, koord-extender's caches re-list:
#    the same 14 pods fit again, none is lost, no node is over-committed, koord-extender lives on.
batch_pods=()
for i in $(seq 0 23); do batch_pods+=("batch-$i"); done
kubectl delete pod -n "$ns" "${batch_pods[@]}" --wait=true --timeout=60s >/dev/null
binds_before="$(bind_count)"
for i in $(seq 0 23); do pod "again-$i" 500m; done | kubectl apply -f - >/dev/null
bash "$cluster_sh" restart-apiserver "$KOORD_TEST_CLUSTER_DIR" >/dev/null
pass "kube-apiserver stopped and started again mid-run"
# kube-scheduler exits when it cannot renew its Lease for renewDeadline (10 s), which a slow
# restart exceeds; kubelet would start it again, and so does this test.
sleep 3
scheduler_pid="$(sed -n 's/^SCHEDULER_PID=//p' "$KOORD_TEST_CLUSTER_DIR/cluster.env" | tail -1)"
if ! kill -0 "$scheduler_pid" 2>/dev/null; then
  echo "kube-scheduler lost its Lease while kube-apiserver was away and exited; starting it again"
  start_scheduler
fi
kill -0 "$extender_pid" 2>/dev/null && pass "koord-extender kept running while the API server was away" ||
  fail "koord-extender exited while the API server was away"
scheduled="$(settle_placed 17 150)"
[ "$scheduled" -eq 17 ] && pass "17 pods placed again (3 + 14 that fit), none lost" ||
  fail "placed after the restart: $scheduled (want 17)"
check_no_overcommit && pass "no node holds more than it allocates after the restart" ||
  fail "a node is over-committed after the restart"
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && pass "koord-extender ready again" ||
  fail "koord-extender not ready after the restart"
binds_after="$(bind_count)"
[ $((binds_after - binds_before)) -ge 14 ] && pass "koord-extender bound them ($((binds_after - binds_before)) bind calls)" ||
  fail "bind calls after the restart: $((binds_after - binds_before)) (want at least 14)"
# The 24 pods above were created at once, and kube-scheduler asks about them one at a time while
# koord-extender's Pod informer has them all: filter took the informer's pod of the version
# kube-scheduler sent instead of decoding the body's. (A pod kube-scheduler asks about the moment
# it is created races the informer, and may be decoded from the body; so does one whose status
# kube-scheduler has just written.)
from_informer="$(curl -sf "http://127.0.0.1:$port/metrics" |
  awk '/^koord_extender_filter_pods_total\{source="informer"\}/ {print $2}')"
[ "${from_informer:-0}" != 0 ] && pass "filter took the informer's pod ($from_informer times)" ||
  fail "filter never took the informer's pod (koord_extender_filter_pods_total{source=\"informer\"}: '${from_informer}')"

# 5. Binds answer within bindTimeout. With the client held to 2 requests a second, most of a burst
#    of binds cannot be sent within 4 s: each is answered "not sent" and released, kube-scheduler
#    retries the pod after its backoff, and the pods land in the end, each once, with no node
#    over-committed (a binding sent after kube-scheduler had given up on it could over-commit one).
again_pods=()
for i in $(seq 0 23); do again_pods+=("again-$i"); done
kubectl delete pod -n "$ns" "${again_pods[@]}" --wait=true --timeout=60s >/dev/null
stop_extender
sed -i 's/^  qps: 200$/  qps: 2/; s/^  burst: 400$/  burst: 1/' "$work/extender-config.yaml"
grep -q "^  qps: 2$" "$work/extender-config.yaml" || fail "could not lower the extender's qps"
start_extender && pass "koord-extender restarted with qps 2, burst 1" || fail "koord-extender did not restart"
for i in $(seq 0 23); do pod "slow-$i" 500m; done | kubectl apply -f - >/dev/null
scheduled="$(settle_placed 17 300)"
[ "$scheduled" -eq 17 ] && pass "17 pods placed through rate-limited binds, none lost" ||
  fail "placed with qps 2: $scheduled (want 17)"
check_no_overcommit && pass "no node holds more than it allocates with rate-limited binds" ||
  fail "a node is over-committed with rate-limited binds"
# kube-scheduler logs each bind error it retries ("Error scheduling pod; retrying"); its Events
# for them are rate-limited and may be merged, so the log is what is read.
# The 17 can be placed before the first bind is refused unsent (right after a restart, binds first
# fail reading the pod the informer has not delivered yet), so the log is read for up to 15 s.
refused="not sent: the client's rate limit (2 requests/s) would hold it too long for its [0-9]* ms limit"
# One grep, no pipe: under pipefail a `grep | grep -q` fails whenever the second grep stops
# reading early and the first dies of SIGPIPE on a large log.
logged_refusal() {
  grep -aq "Error scheduling pod; retrying.*failed to bind pod 'koord-e2e/slow-[0-9]*' to node 'e2e-node-[0-9]': binder: failed to POST '[^']*/binding': $refused" \
    "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log"
}
for _ in $(seq 15); do logged_refusal && break; sleep 1; done
if logged_refusal; then
  pass "a bind that could not be sent within bindTimeout was refused, and kube-scheduler retried the pod"
else
  fail "kube-scheduler logged no bind refused unsent within bindTimeout"
fi

# 6. A GPU pod lands on a node that advertises a GPU. The pod of 2b may sit in kube-scheduler's
#    unschedulable queue for minutes (an extender's refusal registers no event that requeues it),
#    so a new pod is created once the node is Ready; 8 CPUs leave room for the pods of 3-5 that
#    did not fit elsewhere.
kubectl delete pod -n "$ns" gpu-0 --wait=false >/dev/null
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "e2e-gpu-node", "labels": {"koord.test/e2e": "true", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110", "koordinator.sh/gpu-core": "100",
                            "koordinator.sh/gpu-memory": "80Gi", "koordinator.sh/gpu-memory-ratio": "100"},
            "capacity": {"cpu": "8", "memory": "16Gi", "pods": "110", "koordinator.sh/gpu-core": "100",
                         "koordinator.sh/gpu-memory": "80Gi", "koordinator.sh/gpu-memory-ratio": "100"}}}
YAML
kubectl wait --for=condition=Ready node/e2e-gpu-node --timeout=60s >/dev/null ||
  fail "the GPU node never became Ready"
gpu_pod gpu-1 | kubectl apply -f - >/dev/null
gpu_node=""
for _ in $(seq 1 225); do
  gpu_node="$(kubectl get pod -n "$ns" gpu-1 -o jsonpath='{.spec.nodeName}' 2>/dev/null || true)"
  [ -n "$gpu_node" ] && break
  sleep 0.4
done
[ "$gpu_node" = e2e-gpu-node ] && pass "a GPU pod is bound to the node that advertises a GPU" ||
  fail "the GPU pod is on '$gpu_node', want e2e-gpu-node ($(kubectl get pod -n "$ns" gpu-1 -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}' 2>/dev/null))"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "extender e2e: all checks passed"
