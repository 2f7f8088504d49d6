#!/usr/bin/env bash
# koord-descheduler end to end on the real control plane (kube-controller-manager recreates evicted
# ReplicaSet pods), kwok's fake nodes, kube-scheduler with koord-extender (its reservation loop
# places Reservations), and koord-descheduler itself (leader election off, a pass every 2 s):
#  A. the v0.6.0 PodMigrationJob example (ReservationFirst), its podRef pointed at a ReplicaSet pod:
#     the job goes Pending -> Running -> Succeeded; its Reservation is created and placed on another
#     node; the pod is evicted; the ReplicaSet's replacement is bound into the Reservation; the
#     job's Events come in the order ReservationCreated, ReservationScheduled, Evicting,
#     EvictComplete, ..., Complete.
#  B. a job whose pod does not exist ends Failed with reason MissingPod.
#  C. RemovePodsViolatingNodeTaints: after a NoSchedule taint is put on a node where a pod of ours
#     is bound, koord-descheduler creates a PodMigrationJob for it (mode EvictDirectly, trigger and
#     reason annotations), the job succeeds and the pod is evicted.
# Usage: pmj_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY
#        (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
descheduler_bin="${1:?usage: pmj_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY}"
extender_bin="${2:?usage: pmj_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-desched-e2e
label=koord.test/desched-e2e
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
descheduler_pid=""
watch_pid=""
dport="$(free_port)"
cleanup() {
  [ -n "$watch_pid" ] && { kill "$watch_pid" 2>/dev/null || true; wait "$watch_pid" 2>/dev/null || true; }
  if [ -n "$descheduler_pid" ]; then
    kill -TERM "$descheduler_pid" 2>/dev/null || true; wait "$descheduler_pid" 2>/dev/null || true
  fi
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- pods"; kubectl get pods -n "$ns" -o wide 2>/dev/null || true
    echo "--- podmigrationjobs"; kubectl get podmigrationjobs -o yaml 2>/dev/null | tail -80 || true
    echo "--- reservations"; kubectl get reservations -o wide 2>/dev/null || true
    echo "--- koord-descheduler log (tail)"; tail -40 "$work/descheduler.log" 2>/dev/null || true
    echo "--- koord-extender log (tail)"; tail -20 "$work/extender.log" 2>/dev/null || true
  fi
  for job in $(kubectl get podmigrationjobs -o jsonpath='{range .items[*]}{.metadata.name}={.spec.podRef.namespace}{"\n"}{end}' 2>/dev/null | sed -n "s/=$ns\$//p"); do
    kubectl delete podmigrationjob "$job" --wait=false >/dev/null 2>&1 || true
  done
  kubectl delete reservations -l app.kubernetes.io/created-by=koord-descheduler --wait=false >/dev/null 2>&1 || true
  kubectl delete replicasets -n "$ns" --all --wait=false >/dev/null 2>&1 || true
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l "$label=true" --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl create namespace "$ns" >/dev/null

# Fake nodes kept Ready by kwok: node NAME
node() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {"$label": "true", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"},
            "capacity": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
YAML
}
node ds-a; node ds-b; node ds-c
kubectl wait --for=condition=Ready node -l "$label=true" --timeout=60s >/dev/null &&
  pass "three fake nodes Ready"

write_extender_config
if start_extender; then pass "koord-extender ready"; else fail "koord-extender did not become ready"; exit 1; fi
start_scheduler

cat > "$work/descheduler.yaml" <<YAML
apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG
leaderElection:
  leaderElect: false
healthzBindAddress: 127.0.0.1:$dport
metricsBindAddress: 127.0.0.1:$dport
deschedulingInterval: 2s
nodeSelector:
  matchLabels:
    $label: "true"
profiles:
- name: koord-descheduler
  plugins:
    deschedule:
      enabled:
      - name: RemovePodsViolatingNodeTaints
  pluginConfig:
  - name: MigrationController
    args:
      defaultJobMode: EvictDirectly
      namespaces:
        include: [$ns]
  - name: RemovePodsViolatingNodeTaints
    args:
      namespaces:
        include: [$ns]
YAML
"$descheduler_bin" --config "$work/descheduler.yaml" >>"$work/descheduler.log" 2>&1 &
descheduler_pid=$!
if wait_for 60 "koord-descheduler /readyz" curl -sf "http://127.0.0.1:$dport/readyz"; then
  pass "koord-descheduler ready"
else
  fail "koord-descheduler did not become ready"; exit 1
fi

# replicaset NAME REPLICAS: pods of koord-scheduler that tolerate kwok and stay on our nodes.
replicaset() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "apps/v1", "kind": "ReplicaSet",
 "metadata": {"name": "$1", "namespace": "$ns"},
 "spec": {"replicas": $2, "selector": {"matchLabels": {"app": "$1"}},
  "template": {"metadata": {"labels": {"app": "$1"}},
   "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"$label": "true"},
    "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
    "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}}}
YAML
}
ready_pods() { # ready_pods APP: names of Running pods of APP bound to a node
  kubectl get pods -n "$ns" -l "app=$1" -o jsonpath='{range .items[?(@.status.phase=="Running")]}{.metadata.name}{"\n"}{end}'
}
job_field() { kubectl get podmigrationjob "$1" -o jsonpath="$2" 2>/dev/null; }
pod_gone() { # pod_gone NAME UID
  local uid; uid="$(kubectl get pod -n "$ns" "$1" -o jsonpath='{.metadata.uid}' 2>/dev/null || true)"
  [ -z "$uid" ] || [ "$uid" != "$2" ]
}

# --- A: the v0.6.0 example, ReservationFirst.
replicaset demo 2
wait_for 60 "two Running demo pods" bash -c "[ \"\$(kubectl get pods -n $ns -l app=demo --field-selector=status.phase=Running -o name | wc -l)\" -eq 2 ]" ||
  fail "the demo ReplicaSet's pods did not run"
victim="$(ready_pods demo | sed -n 1p)"
[ -n "$victim" ] || { fail "A: no Running demo pod"; exit 1; }
victim_uid="$(kubectl get pod -n "$ns" "$victim" -o jsonpath='{.metadata.uid}')"
victim_node="$(kubectl get pod -n "$ns" "$victim" -o jsonpath='{.spec.nodeName}')"
kubectl get podmigrationjobs -w --no-headers -o custom-columns=NAME:.metadata.name,PHASE:.status.phase \
  >"$work/phases.txt" 2>/dev/null &
watch_pid=$!
sed -e "s|namespace: default|namespace: $ns|" -e "s|name: pod-demo-5f9b977566-c7lvk|name: $victim|" \
  "$KOORD_SOURCE_DIR/deploy/examples/podmigrationjob-v0.6.0.yaml" | kubectl create -f - >/dev/null
if wait_for 120 "migrationjob-demo to finish" bash -c "kubectl get podmigrationjob migrationjob-demo -o jsonpath='{.status.phase}' | grep -Eq 'Succeeded|Failed'"; then :; fi
phase="$(job_field migrationjob-demo '{.status.phase}')"
if [ "$phase" = Succeeded ]; then pass "A: migrationjob-demo Succeeded"; else
  fail "A: migrationjob-demo ended '$phase' ($(job_field migrationjob-demo '{.status.reason}: {.status.message}'))"; fi
kill "$watch_pid" 2>/dev/null || true; wait "$watch_pid" 2>/dev/null || true; watch_pid=""
phases="$(awk '$1=="migrationjob-demo" && $2!="<none>" {print $2}' "$work/phases.txt" | uniq | tr '\n' ' ')"
case "$phases" in
  *Pending*Running*Succeeded*) pass "A: phases seen in order: $phases" ;;
  *) fail "A: phases seen '$phases', want Pending -> Running -> Succeeded" ;;
esac
rsv="$(job_field migrationjob-demo '{.spec.reservationOptions.reservationRef.name}')"
rsv_node="$(kubectl get reservation "$rsv" -o jsonpath='{.status.nodeName}' 2>/dev/null || true)"
if [ -n "$rsv" ] && [ -n "$rsv_node" ] && [ "$rsv_node" != "$victim_node" ]; then
  pass "A: Reservation $rsv placed on $rsv_node (the pod was on $victim_node)"
else
  fail "A: Reservation '$rsv' on '$rsv_node', want one on a node other than $victim_node"
fi
if pod_gone "$victim" "$victim_uid"; then pass "A: pod $victim evicted"; else fail "A: pod $victim still there"; fi
bound="$(job_field migrationjob-demo '{.status.podRef.name}')"
allocated="$(kubectl get pod -n "$ns" "$bound" -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}' 2>/dev/null || true)"
if [ -n "$bound" ] && [ "$bound" != "$victim" ] && [[ "$allocated" == *"\"$rsv\""* ]]; then
  pass "A: replacement $bound bound into $rsv"
else
  fail "A: status.podRef '$bound' with reservation-allocated '$allocated', want the replacement in $rsv"
fi
reasons="$(kubectl get events -A --field-selector involvedObject.kind=PodMigrationJob,involvedObject.name=migrationjob-demo -o json |
  python3 -c 'import json,sys; items=json.load(sys.stdin)["items"]; items.sort(key=lambda e: int(e["metadata"]["resourceVersion"])); print(" ".join(e["reason"] for e in items))')"
if python3 - "$reasons" <<'PY'
import sys
want = ["ReservationCreated", "ReservationScheduled", "Evicting", "EvictComplete", "Complete"]
got = sys.argv[1].split()
pos = 0
for reason in got:
    if pos < len(want) and reason == want[pos]:
        pos += 1
sys.exit(0 if pos == len(want) and got[-1] == "Complete" else 1)
PY
then pass "A: Events in order: $reasons"; else fail "A: Events '$reasons', want ReservationCreated ReservationScheduled Evicting EvictComplete ... Complete"; fi

# --- B: a job whose pod does not exist.
cat <<YAML | kubectl create -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
 "metadata": {"name": "pmj-missing-pod"},
 "spec": {"mode": "EvictDirectly", "podRef": {"namespace": "$ns", "name": "no-such-pod"}}}
YAML
wait_for 60 "pmj-missing-pod to fail" bash -c "kubectl get podmigrationjob pmj-missing-pod -o jsonpath='{.status.phase}' | grep -q Failed" || true
if [ "$(job_field pmj-missing-pod '{.status.phase}/{.status.reason}')" = "Failed/MissingPod" ]; then
  pass "B: pmj-missing-pod Failed: $(job_field pmj-missing-pod '{.status.message}')"
else
  fail "B: pmj-missing-pod is '$(job_field pmj-missing-pod '{.status.phase}/{.status.reason}')', want Failed/MissingPod"
fi

# --- C: RemovePodsViolatingNodeTaints through a PodMigrationJob.
replicaset tainted 2
wait_for 60 "two Running tainted pods" bash -c "[ \"\$(kubectl get pods -n $ns -l app=tainted --field-selector=status.phase=Running -o name | wc -l)\" -eq 2 ]" ||
  fail "the tainted ReplicaSet's pods did not run"
target="$(ready_pods tainted | sed -n 1p)"
[ -n "$target" ] || { fail "C: no Running tainted pod"; exit 1; }
target_uid="$(kubectl get pod -n "$ns" "$target" -o jsonpath='{.metadata.uid}')"
target_node="$(kubectl get pod -n "$ns" "$target" -o jsonpath='{.spec.nodeName}')"
kubectl taint node "$target_node" koord.test/evict=now:NoSchedule >/dev/null
find_job() {
  kubectl get podmigrationjobs -o jsonpath='{range .items[*]}{.metadata.name} {.spec.podRef.name}{"\n"}{end}' |
    awk -v pod="$target" '$2==pod && !found {print $1; found=1}'
}
wait_for 60 "a PodMigrationJob for $target" bash -c "[ -n \"\$(kubectl get podmigrationjobs -o jsonpath='{range .items[*]}{.spec.podRef.name}{\"\\n\"}{end}' | grep -x '$target')\" ]" || true
job="$(find_job)"
if [ -n "$job" ]; then
  mode="$(job_field "$job" '{.spec.mode}')"
  trigger="$(job_field "$job" '{.metadata.annotations.koordinator\.sh/evict-trigger}')"
  if [ "$mode" = EvictDirectly ] && [ "$trigger" = RemovePodsViolatingNodeTaints ] &&
     [ "$(job_field "$job" '{.spec.podRef.uid}')" = "$target_uid" ]; then
    pass "C: job $job for $target (mode $mode, trigger $trigger)"
  else
    fail "C: job $job has mode '$mode', trigger '$trigger'"
  fi
  wait_for 60 "$job to succeed" bash -c "kubectl get podmigrationjob $job -o jsonpath='{.status.phase}' | grep -q Succeeded" || true
  if [ "$(job_field "$job" '{.status.phase}')" = Succeeded ]; then pass "C: $job Succeeded"; else
    fail "C: $job is '$(job_field "$job" '{.status.phase}/{.status.reason}: {.status.message}')'"; fi
else
  fail "C: no PodMigrationJob for $target after the taint"
fi
if wait_for 30 "$target to be evicted" pod_gone "$target" "$target_uid"; then pass "C: pod $target evicted"; else fail "C: pod $target still there"; fi
if curl -sf "http://127.0.0.1:$dport/metrics" | grep -q '^koord_descheduler_jobs_created_total [1-9]'; then
  pass "C: /metrics counts the jobs created"; else fail "C: koord_descheduler_jobs_created_total is not above 0"; fi
kubectl taint node "$target_node" koord.test/evict- >/dev/null 2>&1 || true

echo "failures: $failures"
[ "$failures" -eq 0 ]
