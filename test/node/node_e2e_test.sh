#!/usr/bin/env bash
# The chart on a real node: test/node/up.sh starts the control plane, containerd, a kubelet and
# kube-proxy on this host (plus one kwok node) and runs `helm install`; then, as a user would see it:
#   - every Deployment and DaemonSet is Ready, its containers run in containerd;
#   - a pod with schedulerName koord-scheduler is placed by the in-cluster kube-scheduler through
#     koord-extender (the extender's own counters say so) and runs in a real container;
#   - koord-agent, from its container, reports the node's NodeResourceTopology and NodeMetric;
#     koord-manager turns the NodeMetric into batch resources on the Node;
#   - a BE pod asking for batch-cpu and batch-memory gets its limits written by koord-agent into
#     the cgroups the kubelet and containerd made, and the kernel holds its busy process to them;
#     CPU suppress's BE cpuset (shown by /debug/qos) is what the kernel has for BE;
#   - an LSR koord-prod pod asking for 1 CPU gets a one-CPU cpuset from koord-extender (the
#     resource-status annotation); koord-agent writes it into the container's cpuset.cpus, the
#     kernel lets its process run only there (Cpus_allowed_list), and the LS shared pool
#     (cpu-shared-pools) leaves it out: an LS pod's container has cpuset.cpus = the shared pool;
#   - a Reservation is placed on the node by koord-extender's loop and its owner, a real pod, is
#     bound into it;
#   - helm upgrade with a changed value rolls koord-scheduler;
#   - koord-extender's readiness drops when its ServiceAccount loses the right to list
#     Reservations (and kube-apiserver restarts, ending the watches that were open), and comes
#     back when the right is restored; liveness holds throughout; a frozen (SIGSTOP)
#     koord-extender fails its liveness probe and the kubelet restarts it;
#   - the audit log of the run: no request of a koord ServiceAccount was refused, and every right
#     RBAC grants them was used, but for the ones listed below with the reason they are kept;
#   - helm uninstall leaves no workload, webhook or policy behind (the CRDs stay: Helm never
#     deletes what a chart's crds/ installed);
#   - down.sh leaves no process, mount, cgroup, link or directory behind.
# Usage: node_e2e_test.sh BUILD_DIR. Needs root, and a kernel that runs containers: when the host
# cannot, it fails with up.sh's reason (it is never skipped).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=test/e2e/lib/checks.sh
source "$repo/test/e2e/lib/checks.sh"
build_dir="$(cd "${1:?usage: node_e2e_test.sh BUILD_DIR}" && pwd)"
DIR="$(mktemp -d /tmp/koord-node-e2e.XXXXXX)"
ns=koordinator-system

finish() {
  if [ "$failures" -gt 0 ] && [ -d "$DIR/logs" ]; then
    kubectl get pods -A -o wide 2>/dev/null
    for f in kubelet containerd kube-proxy; do
      echo "--- $f.log (tail)"; tail -n 15 "$DIR/logs/$f.log" 2>/dev/null
    done
    for f in "$DIR"/pod-logs/"$ns"_*/*/*.log; do
      [ -f "$f" ] && { echo "--- $f (tail)"; tail -n 10 "$f"; }
    done
  fi
  bash "$here/down.sh" --dir "$DIR" >/dev/null 2>&1
}
trap finish EXIT

cat > "$DIR/values.yaml" <<'EOF'
manager:
  sloControllerConfig:
    data:
      # NodeMetric every 10 s instead of 60 s, so that batch resources appear quickly; all of
      # the node's idle CPU reclaimable, so that a CI machine busy with other tests still offers
      # the BE pod's 200 batch-cpu.
      colocation-config: |
        {"enable": true, "metricReportIntervalSeconds": 10, "metricAggregateDurationSeconds": 60,
         "cpuReclaimThresholdPercent": 100}
      resource-threshold-config: |
        {"clusterStrategy": {"enable": true}}
EOF
echo "== up.sh (control plane, containerd, kubelet, kube-proxy, images, helm install)"
if ! bash "$here/up.sh" --dir "$DIR" --build-dir "$build_dir" --kwok-nodes 1 -- -f "$DIR/values.yaml" \
     > "$DIR/up.out" 2> "$DIR/up.err"; then
  tail -n 40 "$DIR/up.err"
  fail "up.sh could not start the one-node cluster and install the chart (reason above)"
  exit 1
fi
pass "up.sh started a real node and helm install finished"
# shellcheck disable=SC1091
source "$DIR/node.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG="$DIR/kubeconfig"
# (containerd's clients warn on every call that cgroup v1 is deprecated: dropped)
ctr_() { ctr --address /run/koord-containerd/containerd.sock -n k8s.io "$@" 2>/dev/null; }
py() { python3 -c "$@"; }

# --- every workload Ready, in containerd -------------------------------------------------------
workloads="$(kubectl get deploy,ds -n "$ns" -o json | py '
import json,sys
for o in json.load(sys.stdin)["items"]:
    s=o.get("status",{})
    if o["kind"]=="Deployment": want,have=o["spec"]["replicas"],s.get("readyReplicas",0)
    else: want,have=s.get("desiredNumberScheduled",0),s.get("numberReady",0)
    print(o["kind"],o["metadata"]["name"],have,want)')"
echo "$workloads"
for name in "Deployment koord-scheduler" "Deployment koord-manager" "Deployment koord-descheduler" \
            "DaemonSet koord-agent"; do
  line="$(echo "$workloads" | grep "^$name ")"
  read -r _ _ have want <<<"$line"
  [ -n "$line" ] && [ "$have" -ge 1 ] && [ "$have" = "$want" ] && pass "$name: $have/$want Ready" ||
    fail "$name not Ready: ${line:-missing}"
done
on_node="$(kubectl get pods -n "$ns" --field-selector spec.nodeName="$NODE_NAME" -o json | py '
import json,sys
for p in json.load(sys.stdin)["items"]:
    for c in p["status"].get("containerStatuses",[]):
        print(p["metadata"]["name"], c["name"], c.get("containerID",""), c.get("ready"))')"
running_tasks="$(ctr_ tasks ls | awk '$3=="RUNNING"{print $1}')"
for c in koord-extender kube-scheduler koord-agent koord-manager koord-descheduler; do
  id="$(echo "$on_node" | awk -v c="$c" '$2==c && $4=="True"{print $3; exit}')"
  id="${id#containerd://}"
  [ -n "$id" ] && echo "$running_tasks" | grep -qx "$id" &&
    pass "$c runs Ready in a containerd container on $NODE_NAME (${id:0:12})" ||
    fail "$c has no Ready container running in containerd on $NODE_NAME"
done

agent_log="$(kubectl logs -n "$ns" ds/koord-agent --tail=3 2>&1)"
[[ "$agent_log" == *koord-agent* ]] && pass "kubectl logs reads koord-agent's log through the kubelet" ||
  fail "kubectl logs of koord-agent: $agent_log"

# --- a pod placed by the in-cluster koord-scheduler through koord-extender -----------------------
extender_metrics() { # the extender's /metrics, read inside its pod's network namespace
  local id pid
  id="$(kubectl get pods -n "$ns" -l app.kubernetes.io/name=koord-scheduler -o json | py '
import json,sys
for p in json.load(sys.stdin)["items"]:
    for c in p["status"].get("containerStatuses",[]):
        if c["name"]=="koord-extender" and c.get("state",{}).get("running"): print(c["containerID"])')"
  id="${id#containerd://}"
  pid="$(ctr_ tasks ls | awk -v id="$id" '$1==id{print $2}')"
  [ -n "$pid" ] && nsenter -t "$pid" -n curl -sf http://127.0.0.1:10262/metrics
}
metric() { # metric NAME_AND_LABELS: the sum of the matching samples
  extender_metrics | awk -v m="$1" 'index($0, m)==1 {s+=$NF} END {print s+0}'
}
binds_before="$(metric 'koord_extender_verb_duration_seconds_count{verb="bind"')"
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: hello, namespace: default}
spec:
  schedulerName: koord-scheduler
  nodeSelector: {kubernetes.io/hostname: $NODE_NAME}
  containers:
    - name: spin
      image: koord.local/spin:1.0
      resources: {requests: {cpu: 10m, memory: 16Mi}, limits: {cpu: 50m, memory: 16Mi}}
EOF
if kubectl wait --for=condition=Ready pod/hello --timeout=90s >/dev/null; then
  cid="$(kubectl get pod hello -o jsonpath='{.status.containerStatuses[0].containerID}')"
  pass "pod hello runs on $(kubectl get pod hello -o jsonpath='{.spec.nodeName}') in ${cid:0:25}..."
else
  kubectl describe pod hello | tail -n 15
  fail "pod hello (schedulerName koord-scheduler) did not become Ready"
fi
source_component="$(kubectl get events -n default --field-selector involvedObject.name=hello,reason=Scheduled \
  -o jsonpath='{.items[0].reportingComponent}{.items[0].source.component}')"
[[ "$source_component" == *koord-scheduler* ]] && pass "the Scheduled event comes from koord-scheduler" ||
  fail "the Scheduled event's source is '$source_component', not koord-scheduler"
binds_after="$(metric 'koord_extender_verb_duration_seconds_count{verb="bind"')"
filters="$(metric 'koord_extender_filter_pods_total')"
[ "${binds_after%.*}" -gt "${binds_before%.*}" ] && [ "${filters%.*}" -ge 1 ] &&
  pass "koord-extender filtered ($filters) and bound ($binds_before -> $binds_after) in its container" ||
  fail "koord-extender's counters do not show the pod (filter $filters, bind $binds_before -> $binds_after)"

# --- koord-agent's reports from inside its container; koord-manager's batch resources ------------
if wait_for 90 "NodeResourceTopology $NODE_NAME" kubectl get noderesourcetopologies.topology.node.k8s.io "$NODE_NAME"; then
  zones="$(kubectl get noderesourcetopologies.topology.node.k8s.io "$NODE_NAME" -o jsonpath='{.zones[*].name}')"
  pass "koord-agent reported NodeResourceTopology $NODE_NAME (zones: $zones)"
else
  fail "no NodeResourceTopology for $NODE_NAME"
fi
node_cpu_usage() { kubectl get nodemetrics.slo.koordinator.sh "$NODE_NAME" -o jsonpath='{.status.nodeMetric.nodeUsage.resources.cpu}'; }
usage_present() { [ -n "$(node_cpu_usage)" ]; }
wait_for 90 "NodeMetric $NODE_NAME status" usage_present &&
  pass "koord-agent reported NodeMetric $NODE_NAME (node cpu usage $(node_cpu_usage))" ||
  fail "no NodeMetric status for $NODE_NAME"
batch_cpu() { kubectl get node "$NODE_NAME" -o jsonpath='{.status.allocatable.kubernetes\.io/batch-cpu}'; }
batch_enough() { local v; v="$(batch_cpu)"; [ -n "$v" ] && [ "$v" -ge 200 ]; }
if wait_for 120 "batch-cpu on $NODE_NAME" batch_enough; then
  pass "koord-manager put kubernetes.io/batch-cpu=$(batch_cpu) on $NODE_NAME from the NodeMetric"
else
  fail "kubernetes.io/batch-cpu on $NODE_NAME is '$(batch_cpu)' (need >= 200 for the BE pod)"
fi

# --- a BE pod's batch limits in the kubelet's cgroups, enforced by the kernel ---------------------
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: be-spin
  namespace: default
  labels: {koordinator.sh/qosClass: BE}
spec:
  schedulerName: koord-scheduler
  priorityClassName: koord-batch
  nodeSelector: {kubernetes.io/hostname: $NODE_NAME}
  containers:
    - name: spin
      image: koord.local/spin:1.0
      resources:
        requests: {kubernetes.io/batch-cpu: "200", kubernetes.io/batch-memory: 64Mi}
        limits: {kubernetes.io/batch-cpu: "200", kubernetes.io/batch-memory: 64Mi}
EOF
if kubectl wait --for=condition=Ready pod/be-spin --timeout=90s >/dev/null; then
  uid="$(kubectl get pod be-spin -o jsonpath='{.metadata.uid}')"
  cid="$(kubectl get pod be-spin -o jsonpath='{.status.containerStatuses[0].containerID}')"
  cid="${cid#containerd://}"
  if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
    pod_cg="/sys/fs/cgroup/kubepods/besteffort/pod$uid"
    quota() { cut -d' ' -f1 "$pod_cg/cpu.max"; }
    usage_us() { awk '/^usage_usec/{print $2}' "$pod_cg/cpu.stat"; }
    mem_limit() { cat "$pod_cg/memory.max"; }
  else
    pod_cg="/sys/fs/cgroup/cpu/kubepods/besteffort/pod$uid"
    quota() { cat "$pod_cg/cpu.cfs_quota_us"; }
    usage_us() { echo $(($(cat "/sys/fs/cgroup/cpuacct/kubepods/besteffort/pod$uid/cpuacct.usage") / 1000)); }
    mem_limit() { cat "/sys/fs/cgroup/memory/kubepods/besteffort/pod$uid/memory.limit_in_bytes"; }
  fi
  quota_written() { [ "$(quota)" = 20000 ]; }
  if wait_for 60 "the BE pod's CPU quota" quota_written; then
    pass "koord-agent wrote the BE pod's quota (20000 us per 100000 us: 200 batch-cpu) in $pod_cg"
  else
    fail "the BE pod's quota in $pod_cg is '$(quota)', want 20000"
  fi
  [ -d "$pod_cg/$cid" ] && pass "the pod's container cgroup is containerd's ($cid)" ||
    fail "no container cgroup $pod_cg/$cid"
  [ "$(mem_limit)" = $((64 * 1024 * 1024)) ] && pass "the BE pod's memory limit is 64Mi (batch-memory)" ||
    fail "the BE pod's memory limit is '$(mem_limit)', want $((64 * 1024 * 1024))"
  u0="$(usage_us)"; sleep 5; u1="$(usage_us)"
  used="$(py "print(f'{($u1 - $u0) / 5e6:.3f}')")"
  py "import sys; sys.exit(0 if 0.05 <= $used <= 0.30 else 1)" &&
    pass "the kernel holds the BE pod's busy process to $used CPU (limit 0.2)" ||
    fail "the BE pod used $used CPU over 5 s, want about 0.2"
  # CPU suppress (resource-threshold-config enable: true, policy cpuset) on the kubelet's cgroups:
  # /debug/qos (koord-agent on the host network, 127.0.0.1) names the BE cpuset it chose, and the
  # kernel's cpuset.cpus of the BE QoS cgroup and of the pod's container say the same.
  suppress_cpuset() {
    curl -sf "http://127.0.0.1:9316/debug/qos" | py 'import json,sys
d = {s["name"]: s for s in json.load(sys.stdin)["strategies"]}["CPUSuppress"]
assert d["state"] == "ok" and d["decision"].get("policy") == "cpuset", d
print(d["decision"]["be_cpuset"])' 2>/dev/null
  }
  if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
    be_cpus() { cat "/sys/fs/cgroup/kubepods/besteffort/$1cpuset.cpus"; }
  else
    be_cpus() { cat "/sys/fs/cgroup/cpuset/kubepods/besteffort/$1cpuset.cpus"; }
  fi
  suppressed() { s="$(suppress_cpuset)" && [ -n "$s" ] && [ "$(be_cpus "")" = "$s" ] && [ "$(be_cpus "pod$uid/$cid/")" = "$s" ]; }
  if wait_for 30 "CPU suppress's BE cpuset in the kernel" suppressed; then
    pass "CPU suppress: /debug/qos says BE gets CPUs $(suppress_cpuset), and so do the BE QoS cgroup and the pod's container"
  else
    fail "CPU suppress: /debug/qos says '$(suppress_cpuset)', the BE QoS cgroup has '$(be_cpus "")', the container '$(be_cpus "pod$uid/$cid/")'"
  fi
else
  kubectl describe pod be-spin | tail -n 15
  fail "the BE pod did not become Ready"
fi
kubectl delete pod hello be-spin --wait=false >/dev/null 2>&1

# --- an LSR pod's cpuset: chosen by koord-extender, written by koord-agent, held by the kernel ----
# A koord-prod LSR pod asking for one whole CPU (cpusPerCore is 1 here) gets a cpuset from
# NodeNUMAResource at bind (the resource-status annotation); koord-agent writes it into the
# container's cpuset.cpus and takes it out of the LS shared pool (the NodeResourceTopology's
# cpu-shared-pools), which is where an LS pod runs. The chart's pods request 400m of the node's
# 2 CPUs, so 1 CPU fits.
cpus_norm() { # cpus_norm "0-2,5": the CPUs as a sorted comma list ("0,1,2,5")
  py 'import sys
s = set()
for part in filter(None, sys.argv[1].strip().split(",")):
    a, _, b = part.partition("-")
    s.update(range(int(a), int(b or a) + 1))
print(",".join(map(str, sorted(s))))' "$1"
}
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then cpuset_root=/sys/fs/cgroup/kubepods; else
  cpuset_root=/sys/fs/cgroup/cpuset/kubepods; fi
container_id() { local c; c="$(kubectl get pod "$1" -o jsonpath='{.status.containerStatuses[0].containerID}')"; echo "${c#containerd://}"; }
container_cpus() { # container_cpus POD: the kernel's cpuset.cpus of the pod's container (any QoS folder)
  local uid cid d
  uid="$(kubectl get pod "$1" -o jsonpath='{.metadata.uid}')"; cid="$(container_id "$1")"
  d="$(find "$cpuset_root" -maxdepth 3 -type d -path "*/pod$uid/$cid" 2>/dev/null | head -1)"
  [ -n "$uid" ] && [ -n "$cid" ] && [ -n "$d" ] && cpus_norm "$(cat "$d/cpuset.cpus")"
}
shared_pool() { # the CPUs of the NodeResourceTopology's cpu-shared-pools
  local a
  a="$(kubectl get noderesourcetopologies.topology.node.k8s.io "$NODE_NAME" \
    -o jsonpath='{.metadata.annotations.node\.koordinator\.sh/cpu-shared-pools}')"
  cpus_norm "$(echo "${a:-[]}" | py 'import json,sys
print(",".join(p["cpuset"] for p in json.load(sys.stdin) or []))')"
}
pool_before="$(shared_pool)"
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: lsr-spin
  namespace: default
  labels: {koordinator.sh/qosClass: LSR, koordinator.sh/priority-class: koord-prod}
spec:
  schedulerName: koord-scheduler
  priorityClassName: koord-prod
  nodeSelector: {kubernetes.io/hostname: $NODE_NAME}
  containers:
    - name: spin
      image: koord.local/spin:1.0
      resources: {requests: {cpu: "1", memory: 16Mi}, limits: {cpu: "1", memory: 16Mi}}
EOF
if kubectl wait --for=condition=Ready pod/lsr-spin --timeout=90s >/dev/null; then
  status="$(kubectl get pod lsr-spin -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/resource-status}')"
  lsr_cpus="$(cpus_norm "$(echo "${status:-{\}}" | py 'import json,sys; print(json.load(sys.stdin).get("cpuset",""))')")"
  by="$(kubectl get events -n default --field-selector involvedObject.name=lsr-spin,reason=Scheduled \
    -o jsonpath='{.items[0].reportingComponent}{.items[0].source.component}')"
  if [[ "$lsr_cpus" =~ ^[0-9]+$ ]] && [[ "$by" == *koord-scheduler* ]]; then
    pass "koord-scheduler placed the LSR pod and koord-extender gave it CPU $lsr_cpus (resource-status $status)"
  else
    fail "the LSR pod: resource-status '$status' (want a cpuset of one CPU), Scheduled by '$by'"
  fi
  lsr_pinned() { [ -n "$lsr_cpus" ] && [ "$(container_cpus lsr-spin)" = "$lsr_cpus" ]; }
  if wait_for 60 "the LSR container's cpuset" lsr_pinned; then
    pass "koord-agent wrote cpuset.cpus=$lsr_cpus into the LSR pod's container cgroup"
  else
    fail "the LSR pod's container cgroup has cpuset.cpus '$(container_cpus lsr-spin)', want '$lsr_cpus' (resource-status)"
  fi
  lsr_pid="$(ctr_ tasks ls | awk -v id="$(container_id lsr-spin)" '$1==id{print $2}')"
  allowed="$(awk '/^Cpus_allowed_list:/{print $2}' "/proc/${lsr_pid:-0}/status" 2>/dev/null)"
  [ -n "$allowed" ] && [ "$(cpus_norm "$allowed")" = "$lsr_cpus" ] &&
    pass "the kernel lets the LSR pod's process ($lsr_pid) run only on CPU $allowed (Cpus_allowed_list)" ||
    fail "the LSR pod's process '$lsr_pid' has Cpus_allowed_list '$allowed', want '$lsr_cpus'"
  pool_excludes() { local p; p="$(shared_pool)"; [ -n "$p" ] && [ -n "$lsr_cpus" ] && [[ ",$p," != *",$lsr_cpus,"* ]]; }
  if wait_for 60 "the shared pool without CPU $lsr_cpus" pool_excludes; then
    pass "the NodeResourceTopology's cpu-shared-pools ($(shared_pool); $pool_before before the LSR pod) leaves out the LSR pod's CPU $lsr_cpus"
  else
    fail "cpu-shared-pools is '$(shared_pool)', want it without the LSR pod's CPU $lsr_cpus"
  fi
  kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: ls-spin
  namespace: default
  labels: {koordinator.sh/qosClass: LS}
spec:
  schedulerName: koord-scheduler
  nodeSelector: {kubernetes.io/hostname: $NODE_NAME}
  containers:
    - name: spin
      image: koord.local/spin:1.0
      resources: {requests: {cpu: 10m, memory: 16Mi}, limits: {cpu: 50m, memory: 16Mi}}
EOF
  if kubectl wait --for=condition=Ready pod/ls-spin --timeout=90s >/dev/null; then
    ls_in_pool() { local p; p="$(shared_pool)"; [ -n "$p" ] && [ "$(container_cpus ls-spin)" = "$p" ]; }
    if wait_for 60 "the LS container's cpuset" ls_in_pool; then
      pass "the LS pod's container has cpuset.cpus=$(container_cpus ls-spin), the shared pool, without CPU $lsr_cpus"
    else
      fail "the LS pod's container has cpuset.cpus '$(container_cpus ls-spin)', the shared pool is '$(shared_pool)'"
    fi
  else
    kubectl describe pod ls-spin | tail -n 15
    fail "the LS pod did not become Ready"
  fi
else
  kubectl describe node "$NODE_NAME" | sed -n '/Allocated resources/,/Events/p'
  kubectl describe pod lsr-spin | tail -n 15
  fail "the LSR pod (cpu 1, koord-prod) did not become Ready"
fi
kubectl delete pod lsr-spin ls-spin --wait=false >/dev/null 2>&1

# --- a Reservation placed by koord-extender's loop, and its owner bound into it --------------------
kubectl apply -f - >/dev/null <<EOF
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: node-e2e}
spec:
  template:
    metadata: {namespace: default}
    spec:
      schedulerName: koord-scheduler
      nodeSelector: {kubernetes.io/hostname: $NODE_NAME}
      containers:
        - name: main
          resources: {requests: {cpu: 100m, memory: 32Mi}}
  owners:
    - labelSelector: {matchLabels: {app: node-e2e-owner}}
  ttl: 10m
  allocateOnce: true
EOF
phase_is() { [ "$(kubectl get reservation node-e2e -o jsonpath='{.status.phase}')" = "$1" ]; }
if wait_for 60 "Reservation Available" phase_is Available; then
  pass "Reservation node-e2e Available on $(kubectl get reservation node-e2e -o jsonpath='{.status.nodeName}')"
else
  fail "Reservation node-e2e: $(kubectl get reservation node-e2e -o jsonpath='{.status}')"
fi
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: owner, namespace: default, labels: {app: node-e2e-owner}}
spec:
  schedulerName: koord-scheduler
  containers:
    - name: spin
      image: koord.local/spin:1.0
      resources: {requests: {cpu: 100m, memory: 16Mi}, limits: {cpu: 100m, memory: 16Mi}}
EOF
if kubectl wait --for=condition=Ready pod/owner --timeout=90s >/dev/null; then
  allocated="$(kubectl get pod owner -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}')"
  [[ "$allocated" == *node-e2e* ]] && pass "the owner runs in a real container, bound into the Reservation ($allocated)" ||
    fail "the owner's reservation-allocated is '$allocated'"
  wait_for 30 "Reservation Succeeded" phase_is Succeeded && pass "allocateOnce: the Reservation is Succeeded" ||
    fail "Reservation node-e2e after its owner: $(kubectl get reservation node-e2e -o jsonpath='{.status.phase}')"
else
  kubectl describe pod owner | tail -n 10
  fail "the Reservation's owner did not become Ready"
fi
kubectl delete pod owner --wait=false >/dev/null 2>&1

# --- the audit: what the ServiceAccounts did, against what RBAC grants them ---------------------
cp "$DIR/cp/logs/audit.log" "$DIR/audit-before-rbac-change.log"
kubectl get clusterroles,clusterrolebindings,roles,rolebindings -A -o json > "$DIR/rbac.json"
python3 "$here/audit_rbac.py" --audit "$DIR/audit-before-rbac-change.log" --rbac "$DIR/rbac.json" \
  --namespace "$ns" --allowed-unused "$here/rbac-unused-ok.txt" > "$DIR/audit.txt" 2>&1
audit_rc=$?
cat "$DIR/audit.txt"
[ $audit_rc -eq 0 ] && pass "audit: no refused request, every granted right used or explained" ||
  fail "audit: see above"

# --- helm upgrade rolls koord-scheduler ------------------------------------------------------------
old_uid="$(kubectl get pods -n "$ns" -l app.kubernetes.io/name=koord-scheduler -o jsonpath='{.items[0].metadata.uid}')"
if helm upgrade koord "$repo/charts/koordinator" --reuse-values --set extender.logLevel=debug \
     --wait --timeout 3m > "$DIR/upgrade.txt" 2>&1; then
  new="$(kubectl get pods -n "$ns" -l app.kubernetes.io/name=koord-scheduler -o json | py '
import json,sys
for p in json.load(sys.stdin)["items"]:
    if p["metadata"].get("deletionTimestamp"): continue
    c=[c for c in p["spec"]["containers"] if c["name"]=="koord-extender"][0]
    print(p["metadata"]["uid"], "--log-level=debug" in c["command"])')"
  [ -n "$new" ] && [[ "$new" != *"$old_uid"* ]] && [[ "$new" == *True* ]] &&
    pass "helm upgrade rolled koord-scheduler to a pod with --log-level=debug" ||
    fail "helm upgrade did not roll koord-scheduler ($old_uid -> $new)"
else
  cat "$DIR/upgrade.txt"; fail "helm upgrade failed"
fi

# --- readiness follows the extender's informer access --------------------------------------------
extender_ready() {
  kubectl get pods -n "$ns" -l app.kubernetes.io/name=koord-scheduler -o json | py '
import json,sys
for p in json.load(sys.stdin)["items"]:
    if p["metadata"].get("deletionTimestamp"): continue
    for c in p["status"].get("containerStatuses",[]):
        if c["name"]=="koord-extender": print(c["ready"], c["restartCount"])'
}
extender_not_ready() { [[ "$(extender_ready)" == False* ]]; }
extender_is_ready() { [[ "$(extender_ready)" == True* ]]; }
kubectl get clusterrolebinding koord-extender -o json > "$DIR/koord-extender-binding.json"
kubectl delete clusterrolebinding koord-extender >/dev/null
# Watches already open outlive an RBAC change; a kube-apiserver restart ends them, as an upgrade does.
bash "$repo/test/controlplane/cluster.sh" restart-apiserver "$DIR/cp" >/dev/null
if wait_for 120 "koord-extender unready" extender_not_ready; then
  pass "koord-extender turned unready once it could no longer list Reservations ($(extender_ready))"
else
  fail "koord-extender stayed ready without the right to list Reservations ($(extender_ready))"
fi
python3 - "$DIR/koord-extender-binding.json" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
for k in ("uid", "resourceVersion", "creationTimestamp", "managedFields"):
    o["metadata"].pop(k, None)
json.dump(o, open(sys.argv[1], "w"))
EOF
kubectl create -f "$DIR/koord-extender-binding.json" >/dev/null
if wait_for 150 "koord-extender ready again" extender_is_ready; then
  pass "koord-extender is ready again once the right is back ($(extender_ready): liveness never restarted it)"
else
  fail "koord-extender did not become ready again ($(extender_ready))"
fi
[[ "$(extender_ready)" == *" 0" ]] || fail "koord-extender was restarted by its liveness probe ($(extender_ready))"

# Liveness: a koord-extender that stops answering (SIGSTOP) is restarted by the kubelet.
ext_pid="$(pgrep -f '^koord-extender --config=' | head -1)"
if [ -n "$ext_pid" ]; then
  kill -STOP "$ext_pid"
  restarted() { [[ "$(extender_ready)" == True\ [1-9]* ]]; }
  if wait_for 120 "koord-extender restarted and ready" restarted; then
    pass "a frozen koord-extender failed its liveness probe and was restarted ($(extender_ready))"
  else
    fail "a frozen koord-extender was not restarted ($(extender_ready))"
  fi
  kill -CONT "$ext_pid" 2>/dev/null
else
  fail "no koord-extender process on the host to freeze"
fi

# --- helm uninstall ---------------------------------------------------------------------------------
if helm uninstall koord --wait --timeout 3m > "$DIR/uninstall.txt" 2>&1; then
  gone() { ! kubectl get namespace "$ns" >/dev/null 2>&1; }
  wait_for 120 "namespace $ns deleted" gone && pass "helm uninstall removed namespace $ns and its workloads" ||
    fail "namespace $ns still exists after helm uninstall"
  left="$(kubectl get deploy,ds,pods -A -l app.kubernetes.io/part-of=koordinator -o name 2>/dev/null)
$(kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations,validatingadmissionpolicies,priorityclasses -o name 2>/dev/null | grep -i koord)"
  [ -z "$(echo "$left" | tr -d '[:space:]')" ] && pass "no koord workload, webhook, policy or PriorityClass is left" ||
    fail "left behind after helm uninstall: $left"
  kubectl get crd reservations.scheduling.koordinator.sh >/dev/null 2>&1 &&
    pass "the CRDs stay after helm uninstall (Helm does not delete crds/; docs/install.md)" ||
    fail "the CRDs were deleted by helm uninstall"
  no_koord_tasks() { ! ctr_ containers ls 2>/dev/null | grep -q 'ghcr.io/koord/'; }
  wait_for 90 "koord containers gone" no_koord_tasks && pass "containerd holds no koord container any more" ||
    fail "koord containers still in containerd: $(ctr_ containers ls | grep ghcr.io/koord/)"
else
  cat "$DIR/uninstall.txt"; fail "helm uninstall failed"
fi

# --- down.sh ------------------------------------------------------------------------------------------
bash "$here/down.sh" --dir "$DIR" > "$DIR.down.txt" 2>&1
leftovers=""
pgrep -f "/run/koord-containerd" >/dev/null && leftovers+=" containerd/shims"
pgrep -x kubelet >/dev/null && leftovers+=" kubelet"
ip link show koord0 >/dev/null 2>&1 && leftovers+=" link:koord0"
[ -e /var/lib/kubelet ] && leftovers+=" /var/lib/kubelet"
grep -q "/var/lib/kubelet\|/run/koord-containerd\|$DIR" /proc/self/mounts && leftovers+=" mounts"
ls -d /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods 2>/dev/null | grep -q . && leftovers+=" kubepods-cgroups"
[ -e "$DIR" ] && leftovers+=" $DIR"
[ -z "$leftovers" ] && pass "down.sh left nothing behind" || fail "down.sh left:$leftovers ($(cat "$DIR.down.txt"))"
rm -f "$DIR.down.txt"

echo "node e2e: $failures failure(s)"
[ "$failures" -eq 0 ]
