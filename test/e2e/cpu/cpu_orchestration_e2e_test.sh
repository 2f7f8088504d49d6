#!/usr/bin/env bash
# CPU orchestration (NodeNUMAResource) end to end on the real control plane: a stock kube-scheduler
# configured as the chart configures it, koord-extender, kwok's fake nodes, and a
# NodeResourceTopology per node whose node.koordinator.sh/cpu-topology numbers the CPUs as Linux
# does (2 sockets x 4 cores x 2 threads, thread siblings 8 apart, one NUMA node per socket: NUMA
# node 0 = CPUs 0-3,8-11, NUMA node 1 = 4-7,12-15).
#  A. an LSR koord-prod pod asking 4 CPUs on the empty node cpu-a is bound with resource-status
#     whose cpuset is two whole cores, the lowest: "0-1,8-9".
#  B. on cpu-b, labelled node.koordinator.sh/cpu-bind-policy=FullPCPUsOnly, a pod asking 3 CPUs
#     stays Pending with "node(s) requested cpus not multiple cpus per core", and an LS pod asking
#     500m with "the requested CPUs must be integer".
#  C. on cpu-c, which has no NodeResourceTopology, an LSR pod stays Pending with
#     "node(s) invalid CPU Topology".
#  D. 8 LSR pods of 2 CPUs created at once on the fresh 16-CPU node cpu-d are all bound with
#     disjoint cpusets that together are its 16 CPUs; a 9th stays Pending with "not enough cpus
#     available to satisfy request" (cpu-d's allocatable says 18 CPUs, so kube-scheduler's own fit
#     check lets the 9th through and the refusal is koord-extender's).
#  E. an LSR pod with numa-topology-spec {"numaTopologyPolicy":"SingleNUMANode"} asking 4 CPUs on
#     cpu-a (beside A's pod) gets numaNodeResources of exactly one NUMA node and a cpuset of 4 CPUs
#     inside it.
#  F. a Reservation whose template is an LSR koord-prod pod of 4 CPUs, pinned to cpu-f: koord-
#     extender's loop places it and writes its cpuset onto it (resource-status "0-1,8-9"); an LSR
#     pod that does not own it gets other CPUs; its owner is bound into it (reservation-allocated)
#     with exactly the reservation's CPUs.
#  G. (v1.6) on cpu-g, labelled node.koordinator.sh/numa-topology-policy=SingleNUMANode, a
#     Reservation of an LS pod of 6 CPUs holds them on one NUMA node (numaNodeResources on the
#     Reservation); an LS pod of 6 CPUs that does not own it goes to the other NUMA node, and its
#     owner, asking 6 as well, is bound into it on the reservation's NUMA node (the only one where
#     6 CPUs are left for it).
# Usage: cpu_orchestration_e2e_test.sh KOORD_EXTENDER_BINARY
#        (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: cpu_orchestration_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-cpu-e2e
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- pods"
    kubectl get pods -n "$ns" -o custom-columns='NAME:.metadata.name,NODE:.spec.nodeName,STATUS:.metadata.annotations.scheduling\.koordinator\.sh/resource-status' 2>/dev/null || true
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -30 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete noderesourcetopologies -l koord.test/cpu-e2e=true --wait=false >/dev/null 2>&1 || true
  kubectl delete reservations -l koord.test/cpu-e2e=true --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l koord.test/cpu-e2e=true --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT


kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl create namespace "$ns" >/dev/null

# Fake nodes kept Ready by kwok. node NAME CPU [extra labels, each ending in a comma]
node() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {${3:-} "koord.test/cpu-e2e": "true", "koord.test/node": "$1", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "$2", "memory": "32Gi", "pods": "110"},
            "capacity": {"cpu": "$2", "memory": "32Gi", "pods": "110"}}}
YAML
}
# nrt NAME: the node's NodeResourceTopology, as koord-agent reports a 2 x 4 x 2 machine: CPU id =
# thread * 8 + socket * 4 + core; zones node-0 and node-1 of 8 CPUs and 16Gi each.
nrt() {
  python3 - "$1" <<'PY' | kubectl apply -f - >/dev/null
import json, sys
detail = [{"id": t * 8 + s * 4 + c, "core": c, "socket": s, "node": s}
          for t in range(2) for s in range(2) for c in range(4)]
def res(name, amount):
    return {"name": name, "capacity": amount, "allocatable": amount, "available": amount}
print(json.dumps({
    "apiVersion": "topology.node.k8s.io/v1alpha1", "kind": "NodeResourceTopology",
    "metadata": {"name": sys.argv[1], "labels": {"koord.test/cpu-e2e": "true"},
                 "annotations": {"node.koordinator.sh/cpu-topology": json.dumps({"detail": detail})}},
    "topologyPolicies": ["None"],
    "zones": [{"name": f"node-{n}", "type": "Node", "resources": [res("cpu", "8"), res("memory", "16Gi")]}
              for n in range(2)]}))
PY
}
node cpu-a 16 && nrt cpu-a
node cpu-b 16 '"node.koordinator.sh/cpu-bind-policy": "FullPCPUsOnly",' && nrt cpu-b
node cpu-c 16
node cpu-d 18 && nrt cpu-d
node cpu-f 16 && nrt cpu-f
node cpu-g 16 '"node.koordinator.sh/numa-topology-policy": "SingleNUMANode",' && nrt cpu-g
kubectl wait --for=condition=Ready node -l koord.test/cpu-e2e=true --timeout=60s >/dev/null &&
  pass "six fake nodes Ready, all but cpu-c with a NodeResourceTopology"

# koord-extender starts after the NodeResourceTopologies exist, so its first sync has them (kube-
# scheduler does not watch them: a pod refused for a topology not yet seen would wait minutes).
write_extender_config
if start_extender; then pass "koord-extender ready"; else fail "koord-extender did not become ready"; exit 1; fi
start_scheduler
pass "kube-scheduler started with deploy/scheduler-config/scheduler-config.yaml"

# pod NAME NODE CPU QOS [annotations-json]: a koord-prod pod with requests = limits, pinned to NODE.
pod() {
  local annotations='{}'
  [ -n "${5:-}" ] && annotations="$5"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "$ns", "annotations": $annotations,
   "labels": {"koordinator.sh/qosClass": "$4", "koordinator.sh/priority-class": "koord-prod"}},
 "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"koord.test/node": "$2"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {
     "requests": {"cpu": "$3", "memory": "1Gi"}, "limits": {"cpu": "$3", "memory": "1Gi"}}}]}}
YAML
}
field() { kubectl get "$@" 2>/dev/null || true; }
# wait_for SECONDS COMMAND...: until the command succeeds.
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do [ "$SECONDS" -ge "$deadline" ] && return 1; sleep 0.3; done
}
node_of() { field pod -n "$ns" "$1" -o jsonpath='{.spec.nodeName}'; }
bound() { [ -n "$(node_of "$1")" ]; }
sched_message() { field pod -n "$ns" "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}'; }
refused_with() { ! bound "$1" && sched_message "$1" | grep -q "$2"; }
resource_status() { field pod -n "$ns" "$1" -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/resource-status}'; }
explain() { echo "$1: node '$(node_of "$1")', message '$(sched_message "$1")', resource-status '$(resource_status "$1")'"; }
# expect_refused POD PATTERN WHAT: the pod stays unbound and its PodScheduled message matches
# PATTERN within 30 s.
expect_refused() {
  if wait_for 30 refused_with "$1" "$2"; then pass "$3: $(sched_message "$1")"; else fail "$3: $(explain "$1")"; fi
}
# cpus_of POD: the CPUs of the pod's resource-status cpuset, one a line.
cpus_of() {
  resource_status "$1" | python3 -c '
import json, sys
for part in json.load(sys.stdin)["cpuset"].split(","):
    lo, _, hi = part.partition("-")
    for cpu in range(int(lo), int(hi or lo) + 1):
        print(cpu)' 2>/dev/null || true
}

# A. Two whole cores, the lowest: CPUs 0 and 1 with their siblings 8 and 9.
pod a-lsr cpu-a 4 LSR
if wait_for 30 bound a-lsr && [ "$(node_of a-lsr)" = cpu-a ]; then
  cpuset="$(resource_status a-lsr | python3 -c 'import json,sys; print(json.load(sys.stdin)["cpuset"])' 2>/dev/null || true)"
  if [ "$cpuset" = "0-1,8-9" ]; then
    pass "A: LSR pod bound on cpu-a with resource-status $(resource_status a-lsr)"
  else
    fail "A: cpuset '$cpuset' (expected 0-1,8-9): $(explain a-lsr)"
  fi
else
  fail "A: $(explain a-lsr)"
fi

# B. The node's FullPCPUsOnly policy: whole cores for every integer-CPU pod, none for a fraction.
pod b-odd cpu-b 3 LS
expect_refused b-odd "node(s) requested cpus not multiple cpus per core" "B: 3 CPUs refused on the FullPCPUsOnly node"
pod b-half cpu-b 500m LS
expect_refused b-half "the requested CPUs must be integer" "B: 500m refused on the FullPCPUsOnly node"

# C. No NodeResourceTopology: no cpuset can be given.
pod c-lsr cpu-c 2 LSR
expect_refused c-lsr "node(s) invalid CPU Topology" "C: LSR pod refused on the node without a topology"

# D. Eight binds at once share no CPU and fill the node; a ninth finds none.
creators=()
for i in 0 1 2 3 4 5 6 7; do pod "d-$i" cpu-d 2 LSR & creators+=($!); done
wait "${creators[@]}"  # not a bare wait: koord-extender is a child too
all_bound() { for i in 0 1 2 3 4 5 6 7; do bound "d-$i" || return 1; done; }
if wait_for 60 all_bound; then
  : > "$work/d-cpus"
  sizes_ok=true
  for i in 0 1 2 3 4 5 6 7; do
    [ "$(node_of "d-$i")" = cpu-d ] || sizes_ok=false
    cpus="$(cpus_of "d-$i")"
    [ "$(echo "$cpus" | grep -c .)" -eq 2 ] || sizes_ok=false
    echo "$cpus" >> "$work/d-cpus"
  done
  union="$(sort -n "$work/d-cpus" | grep . | tr '\n' ' ')"
  expected="$(seq 0 15 | tr '\n' ' ')"
  if $sizes_ok && [ "$union" = "$expected" ]; then
    pass "D: 8 pods bound on cpu-d, 2 CPUs each, disjoint, together CPUs 0-15"
  else
    fail "D: cpusets (sorted) '$union'"
    for i in 0 1 2 3 4 5 6 7; do explain "d-$i"; done
  fi
else
  fail "D: not all 8 bound"
  for i in 0 1 2 3 4 5 6 7; do explain "d-$i"; done
fi
pod d-8 cpu-d 2 LSR
expect_refused d-8 "not enough cpus available to satisfy request" "D: the 9th pod refused"

# E. SingleNUMANode: one NUMA node in numaNodeResources, and the cpuset inside it.
pod e-numa cpu-a 4 LSR '{"scheduling.koordinator.sh/numa-topology-spec": "{\"numaTopologyPolicy\":\"SingleNUMANode\"}"}'
if wait_for 30 bound e-numa && [ "$(node_of e-numa)" = cpu-a ]; then
  verdict="$(resource_status e-numa | python3 -c '
import json, sys
status = json.load(sys.stdin)
nodes = [n["node"] for n in status.get("numaNodeResources", [])]
cpus = []
for part in status["cpuset"].split(","):
    lo, _, hi = part.partition("-")
    cpus += range(int(lo), int(hi or lo) + 1)
ok = len(nodes) == 1 and len(cpus) == 4 and all((cpu % 8) // 4 == nodes[0] for cpu in cpus)
print("ok" if ok else "bad")' 2>/dev/null || true)"
  if [ "$verdict" = ok ]; then
    pass "E: SingleNUMANode pod bound with resource-status $(resource_status e-numa)"
  else
    fail "E: not one NUMA node with the cpuset inside: $(explain e-numa)"
  fi
else
  fail "E: $(explain e-numa)"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
# F. A Reservation holds the cpuset its LSR template gets; only its owner is given those CPUs.
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
 "metadata": {"name": "cpu-e2e-r", "labels": {"koord.test/cpu-e2e": "true"}},
 "spec": {"allocateOnce": true,
   "owners": [{"labelSelector": {"matchLabels": {"app": "cpu-e2e-owner"}}}],
   "template": {"metadata": {"labels": {"koordinator.sh/qosClass": "LSR", "koordinator.sh/priority-class": "koord-prod"}},
     "spec": {"nodeSelector": {"koord.test/node": "cpu-f"},
       "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
       "containers": [{"name": "c", "image": "fake", "resources": {
         "requests": {"cpu": "4", "memory": "1Gi"}, "limits": {"cpu": "4", "memory": "1Gi"}}}]}}}}
YAML
r_phase() { field reservation cpu-e2e-r -o jsonpath='{.status.phase}'; }
r_status() { field reservation cpu-e2e-r -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/resource-status}'; }
r_available() { [ "$(r_phase)" = Available ] && [ -n "$(r_status)" ]; }
if wait_for 60 r_available; then
  if [ "$(r_status)" = '{"cpuset":"0-1,8-9"}' ]; then
    pass "F: Reservation Available on $(field reservation cpu-e2e-r -o jsonpath='{.status.nodeName}') holding $(r_status)"
  else
    fail "F: the Reservation's resource-status is '$(r_status)' (expected the cpuset 0-1,8-9)"
  fi
else
  fail "F: Reservation phase '$(r_phase)', resource-status '$(r_status)'"
fi
pod f-other cpu-f 4 LSR
if wait_for 30 bound f-other && ! cpus_of f-other | grep -qx '0\|1\|8\|9'; then
  pass "F: a pod that does not own the Reservation gets other CPUs: $(resource_status f-other)"
else
  fail "F: non-owner: $(explain f-other)"
fi
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "f-owner", "namespace": "$ns",
   "labels": {"app": "cpu-e2e-owner", "koordinator.sh/qosClass": "LSR", "koordinator.sh/priority-class": "koord-prod"}},
 "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"koord.test/node": "cpu-f"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {
     "requests": {"cpu": "4", "memory": "1Gi"}, "limits": {"cpu": "4", "memory": "1Gi"}}}]}}
YAML
allocated() { field pod -n "$ns" f-owner -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}'; }
if wait_for 30 bound f-owner && [[ "$(allocated)" == *cpu-e2e-r* ]] &&
   [ "$(resource_status f-owner)" = '{"cpuset":"0-1,8-9"}' ]; then
  pass "F: the owner is bound into the Reservation ($(allocated)) with exactly its CPUs: $(resource_status f-owner)"
else
  fail "F: owner: $(explain f-owner), reservation-allocated '$(allocated)'"
fi

# G. (v1.6) A Reservation holds NUMA resources; its owner is placed on them, others elsewhere.
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
 "metadata": {"name": "cpu-e2e-numa", "labels": {"koord.test/cpu-e2e": "true"}},
 "spec": {"allocateOnce": true,
   "owners": [{"labelSelector": {"matchLabels": {"app": "cpu-e2e-numa-owner"}}}],
   "template": {"metadata": {"labels": {"koordinator.sh/qosClass": "LS", "koordinator.sh/priority-class": "koord-prod"}},
     "spec": {"nodeSelector": {"koord.test/node": "cpu-g"},
       "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
       "containers": [{"name": "c", "image": "fake", "resources": {
         "requests": {"cpu": "6", "memory": "1Gi"}, "limits": {"cpu": "6", "memory": "1Gi"}}}]}}}}
YAML
# numa_nodes JSON: the NUMA node ids of a resource-status's numaNodeResources, comma-separated.
numa_nodes() { python3 -c 'import json,sys; print(",".join(str(n["node"]) for n in json.loads(sys.argv[1] or "{}").get("numaNodeResources", [])))' "$1" 2>/dev/null || true; }
g_status() { field reservation cpu-e2e-numa -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/resource-status}'; }
g_available() { [ "$(field reservation cpu-e2e-numa -o jsonpath='{.status.phase}')" = Available ] && [ -n "$(g_status)" ]; }
held_numa=""
if wait_for 60 g_available && [[ "$(numa_nodes "$(g_status)")" =~ ^[01]$ ]]; then
  held_numa="$(numa_nodes "$(g_status)")"
  pass "G: Reservation Available on cpu-g holding NUMA node $held_numa: $(g_status)"
else
  fail "G: Reservation phase '$(field reservation cpu-e2e-numa -o jsonpath='{.status.phase}')', resource-status '$(g_status)'"
fi
pod g-other cpu-g 6 LS
if wait_for 30 bound g-other && [ -n "$held_numa" ] &&
   [ "$(numa_nodes "$(resource_status g-other)")" = "$((1 - held_numa))" ]; then
  pass "G: a pod that does not own it goes to the other NUMA node: $(resource_status g-other)"
else
  fail "G: non-owner: $(explain g-other)"
fi
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "g-owner", "namespace": "$ns",
   "labels": {"app": "cpu-e2e-numa-owner", "koordinator.sh/qosClass": "LS", "koordinator.sh/priority-class": "koord-prod"}},
 "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"koord.test/node": "cpu-g"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake", "resources": {
     "requests": {"cpu": "6", "memory": "1Gi"}, "limits": {"cpu": "6", "memory": "1Gi"}}}]}}
YAML
g_allocated() { field pod -n "$ns" g-owner -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}'; }
if wait_for 30 bound g-owner && [[ "$(g_allocated)" == *cpu-e2e-numa* ]] && [ -n "$held_numa" ] &&
   [ "$(numa_nodes "$(resource_status g-owner)")" = "$held_numa" ]; then
  pass "G: the owner is bound into it ($(g_allocated)) on its NUMA node: $(resource_status g-owner)"
else
  fail "G: owner: $(explain g-owner), reservation-allocated '$(g_allocated)'"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "cpu orchestration e2e: all checks passed"
