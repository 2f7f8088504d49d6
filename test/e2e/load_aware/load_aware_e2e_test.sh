#!/usr/bin/env bash
# Load-aware scheduling (LoadAwareScheduling) end to end on the real control plane: a stock
# kube-scheduler configured as the chart configures it, koord-extender, kwok's fake nodes of 8 CPUs,
# and NodeMetrics the test writes as koord-agent would (status.updateTime = now).
#  A. the default profile (Koordinator's chart args: scoring only): a pod that may go to la-busy
#     (6 of 8 CPUs used) or la-idle (1 used) goes to la-idle.
#  B. thresholds cpu 65% (args given, so expired NodeMetrics are filtered too): pods of 2 CPUs
#     (estimated at 1.7) created one after another on lb-busy (75% used) and lb-idle (12%): the
#     first two go to lb-idle (34%, then 55% with the first's estimate), the third is refused
#     there and on lb-busy with "node(s) cpu usage exceed threshold"; once a new report shows the
#     first two using 100m each (past the report interval), the third is bound on lb-idle.
#  C. a NodeMetric last updated 10 minutes ago: a pod that may only go to that node is refused with
#     "node(s) nodeMetric expired".
# Usage: load_aware_e2e_test.sh KOORD_EXTENDER_BINARY (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: load_aware_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-load-e2e
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- pods"
    kubectl get pods -n "$ns" -o wide 2>/dev/null || true
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -30 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodemetrics -l koord.test/load-e2e=true --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l koord.test/load-e2e=true --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl create namespace "$ns" >/dev/null

# node NAME GROUP: a fake 8-CPU node kept Ready by kwok, labelled koord.test/group=GROUP.
node() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {"koord.test/load-e2e": "true", "koord.test/group": "$2",
   "koord.test/node": "$1", "type": "kwok"}, "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"},
            "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}
YAML
}
# metric NODE CPU AGE_SECONDS [PODS_METRIC_JSON]: the node's NodeMetric, reported AGE_SECONDS ago
# with CPU used (memory 4Gi), a report interval of 5 s.
metric() {
  local at pods="${4:-[]}"
  at="$(date -u -d "@$(($(date +%s) - $3))" +%Y-%m-%dT%H:%M:%SZ)"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
 "metadata": {"name": "$1", "labels": {"koord.test/load-e2e": "true"}},
 "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300, "reportIntervalSeconds": 5}}}
YAML
  kubectl patch nodemetric "$1" --subresource=status --type=merge -p "{\"status\": {\"updateTime\": \"$at\",
    \"nodeMetric\": {\"nodeUsage\": {\"resources\": {\"cpu\": \"$2\", \"memory\": \"4Gi\"}}},
    \"podsMetric\": $pods}}" >/dev/null
}
node la-busy a && node la-idle a && node lb-busy b && node lb-idle b && node lc-stale c
metric la-busy 6 0 && metric la-idle 1 0 && metric lb-busy 6 0 && metric lb-idle 1 0
metric lc-stale 1 600
kubectl wait --for=condition=Ready node -l koord.test/load-e2e=true --timeout=60s >/dev/null &&
  pass "five fake nodes Ready, each with a NodeMetric"

# pod NAME GROUP CPU: a pod that may go to the nodes of GROUP.
pod() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "$1", "namespace": "$ns"},
 "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"koord.test/group": "$2"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "$3", "memory": "1Gi"}}}]}}
YAML
}
field() { kubectl get "$@" 2>/dev/null || true; }
node_of() { field pod -n "$ns" "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
sched_message() { field pod -n "$ns" "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}'; }
refused() { ! bound "$1" && [ -n "$(sched_message "$1")" ]; }
refused_with() { ! bound "$1" && [[ "$(sched_message "$1")" == *"$2"* ]]; }
settled() { bound "$1" || refused "$1"; }
explain() { echo "$1: node '$(node_of "$1")', message '$(sched_message "$1")'"; }

# A. The default profile scores by load.
write_extender_config
if start_extender; then pass "koord-extender ready (default plugins)"; else fail "koord-extender did not become ready"; exit 1; fi
start_scheduler
pod a-web a 2
if wait_for 30 "a-web bound" bound a-web && [ "$(node_of a-web)" = la-idle ]; then
  pass "A: the pod went to the less loaded node la-idle"
else
  fail "A: $(explain a-web)"
fi

# B. Thresholds, and the estimates of the pods placed since the report.
stop_extender
write_extender_config "plugins:" "  - name: LoadAwareScheduling" "    args:" \
  "      usageThresholds: {cpu: 65, memory: 95}"
if start_extender; then pass "koord-extender restarted with usageThresholds cpu 65"; else fail "koord-extender did not restart"; exit 1; fi
for p in b-1 b-2 b-3; do
  pod "$p" b 2
  wait_for 30 "$p settled" settled "$p" || true
done
if [ "$(node_of b-1)" = lb-idle ] && [ "$(node_of b-2)" = lb-idle ]; then
  pass "B: the first two pods went to lb-idle"
else
  fail "B: $(explain b-1); $(explain b-2)"
fi
if wait_for 30 "b-3 refused" refused_with b-3 "node(s) cpu usage exceed threshold"; then
  pass "B: the third is refused: $(sched_message b-3)"
else
  fail "B: third: $(explain b-3)"
fi
sleep 6  # past the 5 s report interval since b-2 was placed
metric lb-idle 1200m 0 "[{\"namespace\": \"$ns\", \"name\": \"b-1\", \"podUsage\": {\"resources\": {\"cpu\": \"100m\", \"memory\": \"100Mi\"}}},
  {\"namespace\": \"$ns\", \"name\": \"b-2\", \"podUsage\": {\"resources\": {\"cpu\": \"100m\", \"memory\": \"100Mi\"}}}]"
# kube-scheduler does not watch NodeMetrics: a node update moves the pod back to its active queue.
kubectl label node lb-idle koord.test/report=2 --overwrite >/dev/null
if wait_for 60 "b-3 bound" bound b-3 && [ "$(node_of b-3)" = lb-idle ]; then
  pass "B: after the new report the third is bound on lb-idle"
else
  fail "B: third after the report: $(explain b-3)"
fi

# C. An expired NodeMetric (filterExpiredNodeMetrics, the plugin's default with args given).
pod c-web c 1
if wait_for 30 "c-web refused" refused_with c-web "node(s) nodeMetric expired"; then
  pass "C: refused on the node whose NodeMetric expired: $(sched_message c-web)"
else
  fail "C: $(explain c-web)"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "load-aware e2e: all checks passed"
