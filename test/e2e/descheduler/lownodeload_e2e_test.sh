#!/usr/bin/env bash
# LowNodeLoad end to end (issue #37): on the shared control plane (kube-controller-manager recreates
# evicted pods), kwok's fake nodes of 8 CPUs, kube-scheduler with koord-extender, NodeMetrics the
# test writes as koord-agent would, and koord-descheduler (leader election off, a pass every 2 s).
#  A. A Deployment of 10 (500m used each) sits on lnl-hot (1 CPU of system usage: 6 of 8 CPUs, 75%),
#     created while lnl-hot is the only node; then three cool nodes come (0.2 CPU each, 2.5%).
#     LowNodeLoad (low cpu 20%, high 40%, consecutiveAbnormalities 1) drains lnl-hot through
#     PodMigrationJobs (EvictDirectly) under MigrationController's maxUnavailablePerWorkload: 2.
#     Sampled every 0.25 s over the whole drain, the Deployment never has more than 2 pods
#     unavailable; at least 3 pods leave lnl-hot, and lnl-hot ends at or below its high threshold.
#  B. A PodMigrationJob (EvictDirectly) for a pod of a Deployment of 3 whose PodDisruptionBudget
#     asks minAvailable 3: the pod is not evicted, the job is not Succeeded, and its Eviction
#     condition, its Warning FailedEvict Event and `kubectl describe` carry the API server's
#     refusal ("Cannot evict pod as it would violate the pod's disruption budget").
# Usage: lownodeload_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY
#        (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
descheduler_bin="${1:?usage: lownodeload_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY}"
extender_bin="${2:?usage: lownodeload_e2e_test.sh KOORD_DESCHEDULER_BINARY KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-lnl-e2e
label=koord.test/lnl-e2e
hot=lnl-hot
cool_nodes=(lnl-cool-1 lnl-cool-2 lnl-cool-3)
replicas=10
high_milli=3200 # highThresholds cpu 40% of 8 CPUs
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
descheduler_pid=""
metrics_pid=""
sampler_pid=""
dport="$(free_port)"
stop_bg() { # stop_bg PID
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  stop_bg "$sampler_pid"
  stop_bg "$metrics_pid"
  if [ -n "$descheduler_pid" ]; then
    kill -TERM "$descheduler_pid" 2>/dev/null || true; wait "$descheduler_pid" 2>/dev/null || true
  fi
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- pods"; kubectl get pods -n "$ns" -o wide 2>/dev/null || true
    echo "--- podmigrationjobs"
    kubectl get podmigrationjobs -o custom-columns='NAME:.metadata.name,POD:.spec.podRef.name,PHASE:.status.phase,REASON:.status.reason,MESSAGE:.status.message' 2>/dev/null || true
    echo "--- samples above 2 unavailable (time unavailable missing_or_not_ready migrating on_hot)"
    awk '$2 > 2' "$work/samples.txt" 2>/dev/null | head -20 || true
    echo "--- koord-descheduler log (tail, without pmj-pdb's retries)"
    grep -v 'retrying after a backoff controller=podmigrationjob key=pmj-pdb' "$work/descheduler.log" 2>/dev/null | tail -60 || true
    echo "--- koord-extender log (tail)"; tail -20 "$work/extender.log" 2>/dev/null || true
  fi
  jobs="$(kubectl get podmigrationjobs -o jsonpath='{range .items[*]}{.metadata.name}={.spec.podRef.namespace}{"\n"}{end}' 2>/dev/null | sed -n "s/=$ns\$//p" || true)"
  for job in $jobs; do
    kubectl delete podmigrationjob "$job" --wait=false >/dev/null 2>&1 || true
  done
  # The jobs' Events (namespace default) would outlive them.
  kubectl get events -n default --field-selector involvedObject.kind=PodMigrationJob -o json 2>/dev/null |
    python3 -c 'import json, sys; jobs = set(sys.argv[1].split())
for e in json.load(sys.stdin)["items"]:
    if e["involvedObject"]["name"] in jobs: print(e["metadata"]["name"])' "$jobs" |
    xargs -r kubectl delete events -n default --wait=false >/dev/null 2>&1 || true
  kubectl delete deployments,replicasets,poddisruptionbudgets -n "$ns" --all --wait=false >/dev/null 2>&1 || true
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodemetrics -l "$label=true" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l "$label=true" --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The API helper of the two background loops (one process each, cheaper than kubectl calls):
#   metrics NS HOT NODE...: every 2 s writes each node's NodeMetric status as koord-agent would
#     (updateTime now; podsMetric: 500m for each `app=web` pod bound there and not terminating,
#     100m for any other pod of NS; systemUsage 1 CPU on HOT, 200m elsewhere; nodeUsage the sum),
#     and HOT's cpu usage in millicores to $work/hot_usage.
#   sample NS REPLICAS HOT: every 0.25 s, one line per sample to $work/samples.txt.
cat >"$work/kube.py" <<'PY'
import datetime, json, os, re, ssl, sys, time, urllib.parse, urllib.request

config = open(os.environ["KUBECONFIG"]).read()
server = re.search(r"server:\s*(\S+)", config).group(1)
ctx = ssl.create_default_context(cafile=re.search(r"certificate-authority:\s*(\S+)", config).group(1))
token = re.search(r"token:\s*([^\s}]+)", config).group(1)
work = os.environ["work"]


def call(method, path, body=None, content_type="application/json"):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", content_type)
    with urllib.request.urlopen(req, context=ctx, timeout=10) as resp:
        return json.load(resp)


def pods(ns, selector=None):
    query = "?labelSelector=" + urllib.parse.quote(selector) if selector else ""
    return call("GET", f"/api/v1/namespaces/{ns}/pods{query}")["items"]


def live(pod):
    return not pod["metadata"].get("deletionTimestamp") and pod["status"].get("phase") not in ("Succeeded", "Failed")


def write_atomically(name, text):
    with open(os.path.join(work, name + ".tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(work, name + ".tmp"), os.path.join(work, name))


def metrics(ns, hot, nodes):
    while True:
        try:
            items = pods(ns)
        except Exception as e:  # the next round tries again
            print("metrics: list pods:", e, file=sys.stderr)
            time.sleep(1)
            continue
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for node in nodes:
            on_node = [p for p in items if p["spec"].get("nodeName") == node and live(p)]
            entries = []
            total = 1000 if node == hot else 200
            system = total
            for p in on_node:
                milli = 500 if p["metadata"].get("labels", {}).get("app") == "web" else 100
                total += milli
                entries.append({"namespace": ns, "name": p["metadata"]["name"],
                                "podUsage": {"resources": {"cpu": f"{milli}m", "memory": "200Mi"}}})
            status = {"status": {"updateTime": now, "podsMetric": entries, "nodeMetric": {
                "nodeUsage": {"resources": {"cpu": f"{total}m", "memory": "4Gi"}},
                "systemUsage": {"resources": {"cpu": f"{system}m", "memory": "1Gi"}}}}}
            try:
                call("PATCH", f"/apis/slo.koordinator.sh/v1alpha1/nodemetrics/{node}/status", status,
                     "application/merge-patch+json")
            except Exception as e:
                print("metrics: patch", node, e, file=sys.stderr)
                continue
            if node == hot:
                write_atomically("hot_usage", f"{total}\n")
        time.sleep(2)


def ready(pod):
    return live(pod) and pod["status"].get("phase") == "Running" and any(
        c.get("type") == "Ready" and c.get("status") == "True" for c in pod["status"].get("conditions", []))


# What a user would call unavailable, per sample: the replicas not served by a Ready pod that is
# not terminating (missing, Pending, not Ready, being deleted), plus the serving pods that a
# PodMigrationJob is migrating now (phase Running, or Pending and passed arbitration): such a pod
# is about to go, and Koordinator counts it against maxUnavailablePerWorkload as well.
def sample(ns, replicas, hot):
    out = open(os.path.join(work, "samples.txt"), "a", buffering=1)
    start = time.time()
    while True:
        try:
            web = pods(ns, "app=web")
            jobs = call("GET", "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs")["items"]
        except Exception as e:
            print("sample:", e, file=sys.stderr)
            time.sleep(0.5)
            continue
        active = set()
        for job in jobs:
            ref = job["spec"].get("podRef") or {}
            phase = job.get("status", {}).get("phase", "")
            passed = job["metadata"].get("annotations", {}).get(
                "descheduler.koordinator.sh/passed-arbitration") == "true"
            if ref.get("namespace") == ns and (phase == "Running" or (phase in ("", "Pending") and passed)):
                active.add(ref.get("name"))
        serving = [p["metadata"]["name"] for p in web if ready(p)]
        migrating = sum(1 for name in serving if name in active)
        missing = max(0, replicas - len(serving))
        on_hot = sum(1 for p in web if p["spec"].get("nodeName") == hot and live(p))
        out.write(f"{time.time() - start:.2f} {missing + migrating} {missing} {migrating} {on_hot}\n")
        time.sleep(0.25)


if __name__ == "__main__":
    if sys.argv[1] == "metrics":
        metrics(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sample(sys.argv[2], int(sys.argv[3]), sys.argv[4])
PY
export work

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
# A previous run's namespace may still be going away (its cleanup does not wait).
kubectl wait --for=delete "namespace/$ns" --timeout=90s >/dev/null 2>&1 || true
kubectl create namespace "$ns" >/dev/null

# node NAME: a fake node of 8 CPUs kept Ready by kwok, with an empty NodeMetric (the loop fills it).
node() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {"$label": "true", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"},
            "capacity": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
YAML
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
 "metadata": {"name": "$1", "labels": {"$label": "true"}},
 "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300, "reportIntervalSeconds": 2}}}
YAML
}
# deployment NAME REPLICAS CPU: pods of koord-scheduler that tolerate kwok and stay on our nodes.
deployment() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "apps/v1", "kind": "Deployment",
 "metadata": {"name": "$1", "namespace": "$ns"},
 "spec": {"replicas": $2, "selector": {"matchLabels": {"app": "$1"}},
  "template": {"metadata": {"labels": {"app": "$1"}},
   "spec": {"schedulerName": "koord-scheduler", "nodeSelector": {"$label": "true"},
    "terminationGracePeriodSeconds": 0,
    "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
    "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "$3", "memory": "256Mi"}}}]}}}}
YAML
}
ready_count() { # ready_count APP [NODE]: Ready, not terminating pods of APP (on NODE)
  kubectl get pods -n "$ns" -l "app=$1" -o json | python3 -c '
import json, sys
node = sys.argv[1]
print(sum(1 for p in json.load(sys.stdin)["items"] if not p["metadata"].get("deletionTimestamp")
          and (not node or p["spec"].get("nodeName") == node) and any(
    c["type"] == "Ready" and c["status"] == "True" for c in p["status"].get("conditions", []))))' "${2:-}"
}
all_ready() { [ "$(ready_count "$1" "${3:-}")" -eq "$2" ]; } # all_ready APP N [NODE]
job_field() { kubectl get podmigrationjob "$1" -o jsonpath="$2" 2>/dev/null || true; }

node "$hot"
kubectl wait --for=condition=Ready node "$hot" --timeout=60s >/dev/null && pass "$hot Ready"
write_extender_config
if start_extender; then pass "koord-extender ready"; else fail "koord-extender did not become ready"; exit 1; fi
start_scheduler

# --- A: the Deployment lands on lnl-hot, the only node yet.
deployment web "$replicas" 500m
if wait_for 90 "$replicas Ready web pods on $hot" all_ready web "$replicas" "$hot"; then
  pass "A: $replicas web pods Ready on $hot"
else
  fail "A: the web pods did not all become Ready on $hot"; exit 1
fi
original="$(kubectl get pods -n "$ns" -l app=web -o jsonpath='{range .items[*]}{.metadata.uid}{"\n"}{end}')"
for n in "${cool_nodes[@]}"; do node "$n"; done
kubectl wait --for=condition=Ready node -l "$label=true" --timeout=60s >/dev/null && pass "three cool nodes Ready"

python3 "$work/kube.py" metrics "$ns" "$hot" "$hot" "${cool_nodes[@]}" 2>>"$work/metrics.log" &
metrics_pid=$!
if wait_for 30 "the first NodeMetric report" test -s "$work/hot_usage"; then
  pass "A: NodeMetrics reported; $hot uses $(cat "$work/hot_usage")m of 8000m"
else
  fail "A: no NodeMetric report"; exit 1
fi
python3 "$work/kube.py" sample "$ns" "$replicas" "$hot" 2>>"$work/sampler.log" &
sampler_pid=$!

# maxUnavailablePerWorkload 2 is the only limit that binds: maxMigratingPerNode (2 by default)
# and maxMigratingPerWorkload (2 for 10 replicas by default) are raised to 10 and 40% (4 pods).
# EvictDirectly: the job evicts at once and Succeeds when the pod is gone, so the replacement's
# wait for scheduling and readiness is guarded only by the not-Ready half of
# maxUnavailablePerWorkload, the harder case for the limit. (ReservationFirst also works with kwok,
# see pmj_e2e_test.sh, but keeps each job active until the replacement is Ready.)
cat >"$work/descheduler.yaml" <<YAML
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
    balance:
      enabled:
      - name: LowNodeLoad
  pluginConfig:
  - name: MigrationController
    args:
      defaultJobMode: EvictDirectly
      maxUnavailablePerWorkload: 2
      maxMigratingPerWorkload: 40%
      maxMigratingPerNode: 10
      namespaces:
        include: [$ns]
  - name: LowNodeLoad
    args:
      evictableNamespaces:
        include: [$ns]
      lowThresholds:
        cpu: 20
      highThresholds:
        cpu: 40
      anomalyCondition:
        consecutiveAbnormalities: 1
YAML
"$descheduler_bin" --config "$work/descheduler.yaml" >>"$work/descheduler.log" 2>&1 &
descheduler_pid=$!
if wait_for 60 "koord-descheduler /readyz" curl -sf "http://127.0.0.1:$dport/readyz"; then
  pass "koord-descheduler ready"
else
  fail "koord-descheduler did not become ready"; exit 1
fi

# Drained: lnl-hot at or below its high threshold, every replica Ready, no job of ours active.
drained() {
  [ "$(cat "$work/hot_usage")" -le "$high_milli" ] && [ "$(ready_count web)" -eq "$replicas" ] &&
    [ -z "$(kubectl get podmigrationjobs -o jsonpath='{range .items[*]}{.spec.podRef.namespace} {.status.phase}{"\n"}{end}' |
      awk -v ns="$ns" '$1==ns && $2!="Succeeded" && $2!="Failed"')" ]
}
if wait_for 60 "$hot drained below its high threshold" drained; then
  pass "A: $hot drained: it uses $(cat "$work/hot_usage")m (high ${high_milli}m), $replicas web pods Ready"
else
  fail "A: $hot uses $(cat "$work/hot_usage")m after 60 s (high ${high_milli}m), $(ready_count web) web pods Ready"
fi
sleep 4 # two more passes: no further eviction may break the limit either
stop_bg "$sampler_pid"; sampler_pid=""
samples="$(wc -l <"$work/samples.txt")"
max_unavailable="$(awk 'BEGIN {m = 0} $2 > m {m = $2} END {print m}' "$work/samples.txt")"
now="$(kubectl get pods -n "$ns" -l app=web -o jsonpath='{range .items[*]}{.metadata.uid}{"\n"}{end}')"
moved="$(comm -23 <(sort <<<"$original") <(sort <<<"$now") | grep -c . || true)"
on_hot="$(kubectl get pods -n "$ns" -l app=web --field-selector "spec.nodeName=$hot" -o name | wc -l)"
echo "A: $samples samples, max unavailable $max_unavailable of $replicas; $moved pods moved off $hot ($on_hot left there)"
# At least one sample must have caught a migration (max >= 1), or the sampler saw nothing.
if [ "$samples" -ge 10 ] && [ "$max_unavailable" -ge 1 ] && [ "$max_unavailable" -le 2 ]; then
  pass "A: never more than 2 of $replicas unavailable (max $max_unavailable over $samples samples)"
else
  fail "A: max unavailable $max_unavailable over $samples samples, want 1 or 2 over >= 10 samples"
fi
if [ "$moved" -ge 3 ]; then pass "A: $moved pods migrated off $hot"; else fail "A: only $moved pods left $hot, want >= 3"; fi
lnl_jobs="$(kubectl get podmigrationjobs -o json | python3 -c '
import json, sys
ns = sys.argv[1]
for j in json.load(sys.stdin)["items"]:
    a = j["metadata"].get("annotations", {})
    if (j["spec"].get("podRef") or {}).get("namespace") == ns:
        print(j["spec"].get("mode", ""), a.get("koordinator.sh/evict-trigger", ""), j.get("status", {}).get("phase", ""), a.get("koordinator.sh/evict-reason", ""))' "$ns")"
succeeded="$(awk '$1=="EvictDirectly" && $2=="LowNodeLoad" && $3=="Succeeded"' <<<"$lnl_jobs" | wc -l)"
reason="$(awk '$2=="LowNodeLoad" {$1=$2=$3=""; sub(/^ +/, ""); print; exit}' <<<"$lnl_jobs")"
if [ "$succeeded" -ge 3 ] && [[ "$reason" == "node is overutilized, node cpu usage("*")>threshold(40.00%)"* ]]; then
  pass "A: $succeeded LowNodeLoad jobs (EvictDirectly) Succeeded, reason \"$reason\""
else
  fail "A: $succeeded Succeeded LowNodeLoad jobs (want >= 3), reason \"$reason\""
fi

# --- B: a PodDisruptionBudget refuses the eviction. Three replicas, not two: with
# maxUnavailablePerWorkload 2, Koordinator's ExpectedReplicas gate fails any job for a workload of
# exactly 2 replicas (ForbiddenMigratePod) before it could reach the eviction.
deployment guarded 3 100m
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
 "metadata": {"name": "guarded", "namespace": "$ns"},
 "spec": {"minAvailable": 3, "selector": {"matchLabels": {"app": "guarded"}}}}
YAML
wait_for 60 "three Ready guarded pods" all_ready guarded 3 ||
  fail "B: the guarded pods did not become Ready"
test_pdb_full() { [ "$(kubectl get pdb -n "$ns" guarded -o jsonpath='{.status.currentHealthy}/{.status.disruptionsAllowed}')" = 3/0 ]; }
if wait_for 30 "the PodDisruptionBudget to count 3 healthy pods" test_pdb_full; then
  pass "B: PodDisruptionBudget guarded: 3 healthy, 0 disruptions allowed"
else
  fail "B: PodDisruptionBudget status $(kubectl get pdb -n "$ns" guarded -o jsonpath='{.status}')"
fi
victim="$(kubectl get pods -n "$ns" -l app=guarded -o jsonpath='{.items[0].metadata.name}')"
victim_uid="$(kubectl get pod -n "$ns" "$victim" -o jsonpath='{.metadata.uid}')"
cat <<YAML | kubectl create -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "PodMigrationJob",
 "metadata": {"name": "pmj-pdb"},
 "spec": {"mode": "EvictDirectly", "podRef": {"namespace": "$ns", "name": "$victim"}}}
YAML
evict_failed() { [ "$(job_field pmj-pdb '{.status.conditions[?(@.type=="Eviction")].reason}')" = FailedEvict ]; }
wait_for 60 "pmj-pdb's Eviction condition to say FailedEvict" evict_failed || true
cond="$(job_field pmj-pdb '{.status.conditions[?(@.type=="Eviction")].status}/{.status.conditions[?(@.type=="Eviction")].reason}: {.status.conditions[?(@.type=="Eviction")].message}')"
pdb_msg="Cannot evict pod as it would violate the pod's disruption budget"
if [[ "$cond" == "False/FailedEvict: "*"$pdb_msg"* ]]; then
  pass "B: pmj-pdb condition Eviction=$cond"
else
  fail "B: pmj-pdb condition Eviction is '$cond', want False/FailedEvict with \"$pdb_msg\""
fi
sleep 2 # a retry after backoff must not evict it either
phase="$(job_field pmj-pdb '{.status.phase}')"
uid_now="$(kubectl get pod -n "$ns" "$victim" -o jsonpath='{.metadata.uid}' 2>/dev/null || true)"
deleting="$(kubectl get pod -n "$ns" "$victim" -o jsonpath='{.metadata.deletionTimestamp}' 2>/dev/null || true)"
if [ "$uid_now" = "$victim_uid" ] && [ -z "$deleting" ] && [ "$phase" != Succeeded ]; then
  pass "B: $victim is not evicted; pmj-pdb is $phase"
else
  fail "B: pod $victim uid '$uid_now' (was $victim_uid), deletionTimestamp '$deleting', job phase '$phase'"
fi
events="$(kubectl get events -A --field-selector "involvedObject.kind=PodMigrationJob,involvedObject.uid=$(job_field pmj-pdb '{.metadata.uid}')" \
  -o jsonpath='{range .items[*]}{.type} {.reason}: {.message}{"\n"}{end}')"
if grep -q "^Warning FailedEvict: .*$pdb_msg" <<<"$events"; then
  pass "B: Event $(grep -m1 '^Warning FailedEvict' <<<"$events")"
else
  fail "B: pmj-pdb Events '$events', want Warning FailedEvict with the PDB refusal"
fi
echo "B: kubectl get podmigrationjob pmj-pdb:"
kubectl get podmigrationjob pmj-pdb | sed 's/^/  /'
describe="$(kubectl describe podmigrationjob pmj-pdb)"
if grep -q "FailedEvict" <<<"$describe" && grep -qF "$pdb_msg" <<<"$describe"; then
  pass "B: kubectl describe shows FailedEvict and the PDB refusal"
  grep -E "FailedEvict|Phase:" <<<"$describe" | sed 's/^/  /' | head -6
else
  fail "B: kubectl describe lacks the PDB refusal:"; echo "$describe" | tail -25
fi

echo "failures: $failures"
[ "$failures" -eq 0 ]
