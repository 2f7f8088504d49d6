#!/usr/bin/env bash
# Reservation end to end on the real control plane: a stock kube-scheduler configured as the chart
# configures it, koord-extender (leader-elected reservation loop), kwok's fake nodes.
#  A. expiry: a reservation with ttl 5s holds 6 of 8 CPUs; a 3-CPU pod that does not own it is
#     refused; once it expires (Failed/Expired) the same request lands.
#  B. owners and allocateOnce: reserve 4 CPUs and 8Gi on an 8-CPU node, fill the other 4 CPUs with
#     pods; a non-owner is refused with our reason; the owner lands on the reserved node, carries
#     reservation-allocated, and the reservation becomes Succeeded with it as currentOwner.
#  C. restart: a reusable reservation (allocateOnce: false) with one owner; koord-extender is
#     killed (SIGKILL) and restarted; the reserved remainder is still refused to a non-owner and
#     given to the next owner, and status shows both owners.
#  D. the v1.6.0 short form (resources only, no owners): placed, refused to a pod that does not
#     name it, given to the pod whose reservation-affinity names it.
# Usage: reservation_e2e_test.sh KOORD_EXTENDER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: reservation_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-reservation-e2e
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  kubectl delete reservations -l koord.test/reservation-e2e=true --wait=false >/dev/null 2>&1 || true
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l koord.test/reservation-e2e=true --wait=false >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- reservations"; kubectl get reservations -o yaml 2>/dev/null | tail -80 || true
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -30 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT


kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl create namespace "$ns" >/dev/null
kubectl delete lease -n koordinator-system koord-extender-reservation-e2e >/dev/null 2>&1 || true

# Fake nodes kept Ready by kwok: r-node-0 (8 CPUs, 16Gi) and r-node-1 (4 CPUs, 8Gi), tainted.
node() {  # name cpu memory [taints-json]
  local taints='[{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]'
  [ -n "${4:-}" ] && taints="$4"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {"koord.test/reservation-e2e": "true", "koord.test/node": "$1", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": $taints},
 "status": {"allocatable": {"cpu": "$2", "memory": "$3", "pods": "110"},
            "capacity": {"cpu": "$2", "memory": "$3", "pods": "110"}}}
YAML
}
node r-node-0 8 16Gi
node r-node-1 4 8Gi
# r-node-2 (2 CPUs) has no taint: a short-form reservation (no template, so no tolerations) fits it.
node r-node-2 2 4Gi '[]'
kubectl wait --for=condition=Ready node -l koord.test/reservation-e2e=true --timeout=60s >/dev/null &&
  pass "three fake nodes Ready"

# koord-extender with leader election on (short timings so the restart below takes over quickly).
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
  leaderElect: true
  leaseDuration: 4s
  renewDeadline: 3s
  retryPeriod: 1s
  resourceNamespace: koordinator-system
  resourceName: koord-extender-reservation-e2e
YAML
start_extender && pass "koord-extender ready" || { fail "koord-extender did not become ready"; exit 1; }
start_scheduler
pass "kube-scheduler started with deploy/scheduler-config/scheduler-config.yaml"

placement='"nodeSelector": {"koord.test/reservation-e2e": "true"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}]'
# name app cpu memory [extra spec members, each ending in a comma] [node the template pins]
reservation() {
  local pin=""
  [ -n "${6:-}" ] && pin="\"nodeName\": \"$6\","
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
 "metadata": {"name": "$1", "labels": {"koord.test/reservation-e2e": "true"}},
 "spec": {${5:-}
   "owners": [{"labelSelector": {"matchLabels": {"app": "$2"}}}],
   "template": {"spec": {$pin $placement,
     "containers": [{"name": "c", "resources": {"requests": {"cpu": "$3", "memory": "$4"}}}]}}}}
YAML
}
pod() {  # name app cpu [node: only that node is a candidate]
  local only=""
  [ -n "${4:-}" ] && only="\"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"koord.test/node\", \"operator\": \"In\", \"values\": [\"$4\"]}]}]}}},"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "$ns", "labels": {"app": "$2"}},
 "spec": {"schedulerName": "koord-scheduler", $only $placement,
   "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "$3", "memory": "256Mi"}}}]}}
YAML
}
field() { kubectl get "$@" 2>/dev/null || true; }
# wait_for SECONDS COMMAND...: until the command succeeds.
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do [ "$SECONDS" -ge "$deadline" ] && return 1; sleep 0.3; done
}
phase_is() { [ "$(field reservation "$1" -o jsonpath='{.status.phase}')" = "$2" ]; }
node_of() { field pod -n "$ns" "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
sched_message() { field pod -n "$ns" "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}'; }
has_message() { [ -n "$(sched_message "$1")" ]; }
force_delete() { kubectl delete pod -n "$ns" "$@" --force --grace-period=0 >/dev/null 2>&1 || true; }
explain() { echo "$1: node '$(node_of "$1")', message '$(sched_message "$1")'"; }
# expect_on POD NODE WHAT: the pod lands on NODE within 30 s.
expect_on() {
  if wait_for 30 bound "$1" && [ "$(node_of "$1")" = "$2" ]; then pass "$3"; else fail "$(explain "$1")"; fi
}
# expect_refused POD PATTERN WHAT: the pod's PodScheduled message matches PATTERN within 30 s.
expect_refused() {
  if wait_for 30 has_message "$1" && sched_message "$1" | grep -q "$2"; then
    pass "$3: $(sched_message "$1")"
  else
    fail "$(explain "$1")"
  fi
}

# A. Expiry frees the capacity.
reservation r-expiring nobody 6 1Gi '"ttl": "6s",'
if wait_for 30 phase_is r-expiring Available; then
  pass "r-expiring Available on $(field reservation r-expiring -o jsonpath='{.status.nodeName}')"
else
  fail "r-expiring not Available: $(field reservation r-expiring -o jsonpath='{.status}')"
fi
# Both nodes: r-node-0 has 8 - 6 held, r-node-1 only 4: a 5-CPU pod fits nowhere while it holds.
pod early other 5
expect_refused early "held by reservations" "non-owner refused while the reservation holds"
force_delete early
if wait_for 30 phase_is r-expiring Failed; then
  reason="$(field reservation r-expiring -o jsonpath='{.status.conditions[?(@.type=="Ready")].reason}')"
  [ "$reason" = Expired ] && pass "r-expiring Failed with reason Expired" || fail "Ready reason '$reason'"
else
  fail "r-expiring did not expire: $(field reservation r-expiring -o jsonpath='{.status}')"
fi
pod late other 5
expect_on late r-node-0 "after expiry the same request lands on r-node-0"
force_delete late

# B. Reserve 4 CPUs and 8Gi on r-node-0 for app=web; fill the rest; owner vs non-owner.
reservation r-web web 4 8Gi "" r-node-0
if wait_for 30 phase_is r-web Available &&
   [ "$(field reservation r-web -o jsonpath='{.status.nodeName}')" = r-node-0 ]; then
  pass "r-web Available on r-node-0 (pinned by template.spec.nodeName)"
else
  fail "r-web: $(field reservation r-web -o jsonpath='{.status}')"
fi
# Fill r-node-0's unreserved 4 CPUs and all of r-node-1.
for i in 0 1 2 3; do pod "fill-$i" batch 1 r-node-0; done
pod fill-big batch 4 r-node-1
if wait_for 60 bound fill-0 && wait_for 30 bound fill-1 && wait_for 30 bound fill-2 &&
   wait_for 30 bound fill-3 && wait_for 30 bound fill-big; then
  pass "five filler pods placed"
else
  fail "fillers not all placed"
fi
pod intruder batch 1 r-node-0
expect_refused intruder "Insufficient cpu (held by reservations)" "non-owner refused with a clear reason"
force_delete intruder
pod web-0 web 3
expect_on web-0 r-node-0 "owner web-0 landed on the reserved node"
allocated="$(field pod -n "$ns" web-0 -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}')"
echo "$allocated" | grep -q '"name":"r-web"' && pass "web-0 carries reservation-allocated $allocated" ||
  fail "web-0 reservation-allocated '$allocated'"
if wait_for 30 phase_is r-web Succeeded &&
   [ "$(field reservation r-web -o jsonpath='{.status.currentOwners[0].name}')" = web-0 ]; then
  pass "allocateOnce: r-web Succeeded with currentOwners [web-0], allocated $(field reservation r-web -o jsonpath='{.status.allocated}')"
else
  fail "r-web after its owner: $(field reservation r-web -o jsonpath='{.status}')"
fi
force_delete fill-big

# C. A reusable reservation keeps its accounting across a koord-extender restart.
reservation r-api api 2 1Gi '"allocateOnce": false,' r-node-1
wait_for 30 phase_is r-api Available && pass "r-api Available on r-node-1" ||
  fail "r-api: $(field reservation r-api -o jsonpath='{.status}')"
pod api-0 api 1
expect_on api-0 r-node-1 "owner api-0 steered to r-node-1 (r-node-0 and r-node-2 had room too)"
stop_extender
pass "koord-extender killed (SIGKILL)"
start_extender && pass "koord-extender restarted" || fail "koord-extender did not restart"
# r-node-1: 4 CPUs, api-0 uses 1 of r-api's 2, so 1 stays held: 3 are free for others, 2 for api.
pod outsider other 3 r-node-1
expect_refused outsider "held by reservations" "after the restart the remainder is still refused to a non-owner"
force_delete outsider
pod api-1 api 1
expect_on api-1 r-node-1 "after the restart the next owner gets the remainder"
owners_of() { field reservation r-api -o jsonpath='{.status.currentOwners[*].name}'; }
two_owners() { [ "$(owners_of)" = "api-0 api-1" ]; }
if wait_for 30 two_owners && phase_is r-api Available; then
  pass "r-api Available with currentOwners [$(owners_of)], allocated $(field reservation r-api -o jsonpath='{.status.allocated}')"
else
  fail "r-api: $(field reservation r-api -o jsonpath='{.status}')"
fi
# D. The v1.6.0 short form: resources only, no owners; only a pod that names it may use it.
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1", "kind": "Reservation",
 "metadata": {"name": "r-short", "labels": {"koord.test/reservation-e2e": "true"}},
 "spec": {"resources": {"requests": {"cpu": "2", "memory": "1Gi"}}}}
YAML
if wait_for 30 phase_is r-short Available &&
   [ "$(field reservation r-short -o jsonpath='{.status.nodeName}')" = r-node-2 ]; then
  pass "short-form r-short Available on r-node-2 (the one node it tolerates with room)"
else
  fail "r-short: $(field reservation r-short -o jsonpath='{.status}')"
fi
pod stranger other 1 r-node-2
expect_refused stranger "held by reservations" "short form refused to a pod that does not name it"
force_delete stranger
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "named", "namespace": "$ns", "labels": {"app": "game"},
   "annotations": {"scheduling.koordinator.sh/reservation-affinity": "{\"name\":\"r-short\"}"}},
 "spec": {"schedulerName": "koord-scheduler", $placement,
   "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}}]}}
YAML
if wait_for 30 bound named && [ "$(node_of named)" = r-node-2 ] && wait_for 30 phase_is r-short Succeeded; then
  pass "the pod naming r-short got it; r-short Succeeded"
else
  fail "named: node '$(node_of named)', message '$(sched_message named)', r-short $(field reservation r-short -o jsonpath='{.status.phase}')"
fi

events="$(kubectl get events -n default --field-selector involvedObject.kind=Reservation -o jsonpath='{range .items[*]}{.reason}{" "}{end}' 2>/dev/null || true)"
echo "$events" | grep -q Scheduled && echo "$events" | grep -q Expired &&
  pass "events written: $events" || fail "reservation events: '$events'"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "reservation e2e: all checks passed"
