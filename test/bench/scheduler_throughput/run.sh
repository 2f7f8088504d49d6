#!/usr/bin/env bash
# Scheduling throughput with and without koord-extender (docs/performance.md): on its own control
# plane with kwok, N fake nodes, then M pending pods placed by a stock kube-scheduler (1) with the
# koord-scheduler profile and no extender, (2) with deploy/scheduler-config/scheduler-config.yaml
# and koord-extender. Prints pods/s of each (from the scheduler being up to the last binding),
# measured in the same run, and their ratio.
#
#   bash test/bench/scheduler_throughput/run.sh --extender build/default/extender/koord-extender
#        [--nodes 1000] [--pods 5000] [--runs 1] [--kwok-pods] [--no-batching] [--no-plugins]
#        [--verbs all|filter|bind] [--cpus CONTROL:SCHEDULER] [--extender-cpus LIST]
#        [--scheduler-config FILE] [--node-lease-seconds N] [--floor-extender PATH]
#
# kube-scheduler (1.35+) reuses a pod's result for the identical pods after it (the
# OpportunisticBatching feature) but turns that off for any profile with extenders; --no-batching
# turns it off in both runs, which compares the same scheduling algorithm with and without us.
#
# By default kwok keeps the nodes Ready but leaves the bound pods alone: on 2 cores its Running and
# Ready updates of every pod compete with the scheduler, and they land inside the window of the
# slower run while the faster run leaves them to after its last binding, which measures kwok more
# than scheduling. --kwok-pods runs them too (both runs still pay alike only on a larger machine).
#
# --no-plugins runs koord-extender with `plugins: []`: what the extender protocol itself costs
# (kube-scheduler's client, HTTP, JSON, binding through the extender) with no plugin at work, the
# ceiling of the ratio on this machine. --runs N alternates which of the two goes first and prints
# the median ratio.
#
# --verbs splits the extender's cost in two: `filter` keeps the filter, prioritize and preempt
# verbs and drops bindVerb (kube-scheduler binds itself, as in the run without the extender);
# `bind` keeps only bindVerb (every pod still binds through koord-extender, but kube-scheduler
# decides alone). The default, `all`, is the chart's configuration.
#
# --cpus CONTROL:SCHEDULER (taskset lists, e.g. 0:1) pins etcd, kube-apiserver, kwok,
# kube-controller-manager and this script's own clients to CONTROL, and kube-scheduler and
# koord-extender to SCHEDULER: the koord-scheduler pod on CPUs of its own, as on a cluster where
# the control plane does not share the scheduler's cores. Unpinned, all of them share every core.
#
# --extender-cpus LIST (with --cpus) pins koord-extender apart from kube-scheduler, e.g. --cpus 0:1
# --extender-cpus 0 gives kube-scheduler CPU 1 alone: what kube-scheduler itself spends on talking
# to an extender, with no extender sharing its core.
#
# Under --cpus with one scheduler CPU, each run also prints ratio_ceiling_kube_scheduler_cpu: the
# plain run's wall time over the CPU seconds kube-scheduler alone used in the extender's run. On
# one CPU kube-scheduler cannot finish faster than its own CPU time, and that time includes its
# side of every extender call (encoding the pod and names, its HTTP client, decoding the replies),
# so no extender, however cheap, gets a ratio above this figure on the machine measured.
#
# --floor-extender PATH (build/default/test/bench/scheduler_throughput/floor_extender) adds a third
# measurement to every run: the same scheduler configuration with floor_extender, an extender that
# only copies the candidates back, scores nothing and POSTs the binding, in koord-extender's place.
# Its ratio (ratio_floor_over_without) is what kube-scheduler reaches in that run with an extender
# on koord's HTTP server and REST client that does no work of its own, so the gap between it and
# koord-extender's is what koord-extender's own work costs.
# Odd runs go plain, koord-extender, floor; even runs floor, koord-extender, plain.
#
# --scheduler-config FILE measures another KubeSchedulerConfiguration in place of the chart's (its
# extenders' 127.0.0.1:10262 is pointed at this run's koord-extender, as for the chart's).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
extender_bin="" nodes=1000 pods=5000 runs=1 kwok_mode=--kwok-nodes-only plugins_line="" verbs=all
lease_seconds=40
scheduler_config="$root/deploy/scheduler-config/scheduler-config.yaml"
control_cpus="" scheduler_cpus="" extender_cpus="" floor_bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --extender | --nodes | --pods | --runs | --verbs | --cpus | --extender-cpus | --scheduler-config | \
    --node-lease-seconds | --floor-extender)
      [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --kwok-pods) kwok_mode=--kwok; shift; continue ;;
    --no-plugins) plugins_line="plugins: []"; shift; continue ;;
    --no-batching) export KOORD_SCHEDULER_FLAGS="--feature-gates=OpportunisticBatching=false"
                   shift; continue ;;
    --extender) extender_bin="$2" ;;
    --floor-extender) floor_bin="$2" ;;
    --nodes) nodes="$2" ;;
    --pods) pods="$2" ;;
    --runs) runs="$2" ;;
    --verbs) verbs="$2" ;;
    --scheduler-config) scheduler_config="$2" ;;
    --node-lease-seconds)
      [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "--node-lease-seconds takes a whole number" >&2; exit 2; }
      lease_seconds="$2" ;;
    --cpus)
      [[ "$2" =~ ^[0-9,-]+:[0-9,-]+$ ]] || { echo "--cpus takes CONTROL:SCHEDULER, e.g. 0:1" >&2; exit 2; }
      control_cpus="${2%%:*}" scheduler_cpus="${2#*:}" ;;
    --extender-cpus)
      [[ "$2" =~ ^[0-9,-]+$ ]] || { echo "--extender-cpus takes a CPU list, e.g. 0" >&2; exit 2; }
      extender_cpus="$2" ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
case "$verbs" in
  all) drop_verbs='' ;;
  filter) drop_verbs='^[[:space:]]*bindVerb:' ;;
  bind) drop_verbs='^[[:space:]]*(filterVerb|prioritizeVerb|preemptVerb):' ;;
  *) echo "--verbs takes all, filter or bind" >&2; exit 2 ;;
esac
[ -x "$extender_bin" ] || { echo "pass --extender PATH (the koord-extender binary)" >&2; exit 2; }
[ -z "$floor_bin" ] || [ -x "$floor_bin" ] || { echo "cannot run --floor-extender $floor_bin" >&2; exit 2; }
[ -r "$scheduler_config" ] || { echo "cannot read --scheduler-config $scheduler_config" >&2; exit 2; }
if [ -n "$extender_cpus" ] && [ -z "$control_cpus" ]; then
  echo "--extender-cpus needs --cpus" >&2; exit 2
fi
# Prefixes of the commands that start kube-scheduler and koord-extender: their CPUs under --cpus.
on_scheduler_cpus=() on_extender_cpus=()
if [ -n "$control_cpus" ]; then
  on_scheduler_cpus=(taskset -c "$scheduler_cpus")
  on_extender_cpus=(taskset -c "${extender_cpus:-$scheduler_cpus}")
  # Everything this script starts from here on (kubectl, the watch that times the runs, the
  # control plane) inherits the control plane's CPUs.
  taskset -p -c "$control_cpus" $$ >/dev/null || { echo "taskset cannot pin to $control_cpus" >&2; exit 2; }
  "${on_scheduler_cpus[@]}" true || { echo "taskset cannot pin to $scheduler_cpus" >&2; exit 2; }
  "${on_extender_cpus[@]}" true || { echo "taskset cannot pin to $extender_cpus" >&2; exit 2; }
fi
dir="$(mktemp -d /tmp/koord-sched-bench.XXXXXX)"
extender_pid=""
cleanup() {
  [ -n "$extender_pid" ] && kill "$extender_pid" 2>/dev/null || true
  bash "$root/test/controlplane/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
bash "$root/test/controlplane/cluster.sh" start "$dir" "$kwok_mode" \
  --node-lease-seconds "$lease_seconds" >/dev/null
# shellcheck disable=SC1091
source "$dir/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
kubectl create namespace koordinator-system >/dev/null
# The CRDs koord-extender watches: without them it never reports ready.
kubectl apply -f "$root/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$root/deploy/crds/" >/dev/null
helm template koord "$root/charts/koordinator" -s templates/priorityclasses.yaml 2>/dev/null | kubectl apply -f - >/dev/null

python3 - "$nodes" > "$dir/nodes.json" <<'PY'
import json, sys
items = [{"apiVersion": "v1", "kind": "Node",
          "metadata": {"name": f"bench-node-{i}", "labels": {"type": "kwok", "zone": f"z{i % 3}"},
                       "annotations": {"kwok.x-k8s.io/node": "fake"}},
          "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
          "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                     "capacity": {"cpu": "32", "memory": "128Gi", "pods": "110"}}}
         for i in range(int(sys.argv[1]))]
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
PY
kubectl apply -f "$dir/nodes.json" >/dev/null
kubectl wait --for=condition=Ready nodes --all --timeout=300s >/dev/null
python3 - "$pods" > "$dir/pods.json" <<'PY'
import json, sys
items = [{"apiVersion": "v1", "kind": "Pod",
          "metadata": {"name": f"p-{i}", "labels": {"app": f"a{i % 50}", "koordinator.sh/qosClass": "LS"}},
          "spec": {"schedulerName": "koord-scheduler", "priorityClassName": "koord-prod",
                   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
                   "containers": [{"name": "c", "image": "fake",
                                   "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}]}}
         for i in range(int(sys.argv[1]))]
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
PY

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$dir/extender-config.yaml" <<YAML
apiVersion: config.koordinator.sh/v1alpha1
kind: KoordExtenderConfiguration
clientConnection: {kubeconfig: $KUBECONFIG, qps: 1000, burst: 2000}
server: {address: "127.0.0.1:$port"}
leaderElection: {leaderElect: false}
$plugins_line
YAML
cat > "$dir/plain.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: "@KUBECONFIG@", qps: 1000, burst: 2000}
leaderElection: {leaderElect: false}
profiles: [{schedulerName: koord-scheduler}]
YAML
{ echo "clientConnection: {kubeconfig: \"@KUBECONFIG@\", qps: 1000, burst: 2000}";
  sed -e "s|127.0.0.1:10262|127.0.0.1:$port|g" -e 's|leaderElect: true|leaderElect: false|' \
    "$scheduler_config" |
    if [ -n "$drop_verbs" ]; then grep -v -E "$drop_verbs"; else cat; fi; } > "$dir/with-extender.yaml"

# CPU seconds (user + system) a process has used so far; 0 when it is gone.
cpu_seconds() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || { echo 0; return; }
  stat="${stat##*) }"
  # shellcheck disable=SC2086
  set -- $stat
  python3 -c "print((${12} + ${13}) / $(getconf CLK_TCK))"
}

# TCP connections this machine has accepted so far (every listener; /proc/net/snmp PassiveOpens).
# During the extender's run most are kube-scheduler's new connections to koord-extender: its
# extender client keeps only 2 idle ones.
tcp_passive_opens() {
  awk '/^Tcp:/ { if (!n) { for (i = 1; i <= NF; i++) col[$i] = i; n = 1 } else print $col["PassiveOpens"] }' \
    /proc/net/snmp
}

# Creates the pods while no scheduler runs, starts kube-scheduler with config $1, and prints pods/s
# from the moment it is up (healthz) to the last binding: the scheduler's throughput, not the
# client's creation rate. With $2 (a label), also writes to stderr the CPU seconds each component
# used while the scheduler ran, which says where the time went, and koord-extender's by thread
# name (koord-http: the requests; watch-pods, watch-nodes: the informers; thread_cpu.py), the
# requests kube-apiserver served meanwhile by verb and resource (api_requests.py; "unavailable"
# when its metrics cannot be read), and the TCP connections the machine accepted.
measure() {
  kubectl delete pods --all --wait=false --grace-period=0 --force >/dev/null 2>&1 || true
  while [ "$(kubectl get pods -o name 2>/dev/null | wc -l)" -ne 0 ]; do sleep 1; done
  kubectl create -f "$dir/pods.json" >/dev/null
  local components="etcd:$ETCD_PID apiserver:$APISERVER_PID kwok:$KWOK_PID kcm:${KCM_PID:-0}"
  [ -n "$extender_pid" ] && components="$components extender:$extender_pid"
  # A watch, opened before the scheduler starts, tells when the last pod is bound (and fails the
  # run past 60 s plus 0.1 s a pod: slower than 10 pods/s, something is broken).
  python3 "$here/wait_bound.py" --server "https://127.0.0.1:$APISERVER_PORT" --token "$TOKEN" \
    --count "$pods" --timeout "$((60 + pods / 10))" > "$dir/wait.out" &
  local waiter=$!
  until grep -q watching "$dir/wait.out" 2>/dev/null; do sleep 0.1; done
  # Counted from before kube-scheduler starts, so no read of the metrics falls inside the run.
  local accepted_before
  accepted_before="$(tcp_passive_opens)"
  python3 "$here/api_requests.py" snapshot --server "https://127.0.0.1:$APISERVER_PORT" \
    --token "$TOKEN" >"$dir/requests_before"
  # kube-scheduler's log grows over the runs: its lines from here on are this run's.
  local log_lines_before=0
  if [ -f "$dir/logs/kube-scheduler.log" ]; then
    log_lines_before="$(wc -l <"$dir/logs/kube-scheduler.log")"
  fi
  "${on_scheduler_cpus[@]}" bash "$root/test/controlplane/cluster.sh" start-scheduler "$dir" "$1" >/dev/null
  local start end scheduler_pid
  start="$(date +%s.%N)"
  scheduler_pid="$(sed -n 's/^SCHEDULER_PID=//p' "$dir/cluster.env" | tail -1)"
  # From here on, as the wall clock: kube-scheduler's own start is left out of every figure.
  local scheduler_before entry
  scheduler_before="$(cpu_seconds "$scheduler_pid")"
  local -A before=()
  for entry in $components; do before[$entry]="$(cpu_seconds "${entry#*:}")"; done
  if [ -n "$extender_pid" ]; then
    python3 "$here/thread_cpu.py" snapshot "$extender_pid" >"$dir/threads_before"
  fi
  wait "$waiter" || { echo "waiting for the pods to be bound failed" >&2; exit 1; }
  end="$(date +%s.%N)"
  echo "tcp_connections_accepted_$2: $(($(tcp_passive_opens) - accepted_before))" >&2
  # Pods kube-scheduler had to try again (a refused or failed bind, a filter error), and the first
  # reason: a retried pod costs another cycle and an Event, so a run with many is not like the rest.
  local retried
  retried="$(tail -n +"$((log_lines_before + 1))" "$dir/logs/kube-scheduler.log" | grep 'Error scheduling pod' || true)"
  if [ -n "$retried" ]; then
    echo "scheduling_errors_$2: $(wc -l <<<"$retried"), first: $(head -1 <<<"$retried" | sed -n 's/.* err="\([^"]*\)".*/\1/p' | cut -c1-240)" >&2
  else
    echo "scheduling_errors_$2: 0" >&2
  fi
  echo "apiserver_requests_$2: $(python3 "$here/api_requests.py" since \
    --server "https://127.0.0.1:$APISERVER_PORT" --token "$TOKEN" "$dir/requests_before")" >&2
  if [ -n "$extender_pid" ]; then
    echo "extender_cpu_by_thread_$2: $(python3 "$here/thread_cpu.py" since "$extender_pid" "$dir/threads_before")" >&2
  fi
  local report
  report="scheduler=$(python3 -c "print(round($(cpu_seconds "$scheduler_pid") - $scheduler_before, 1))")"
  for entry in $components; do
    report="$report ${entry%%:*}=$(python3 -c "print(round($(cpu_seconds "${entry#*:}") - ${before[$entry]}, 1))")"
  done
  echo "cpu_seconds_$2: $report (wall $(python3 -c "print(round($end - $start, 1))"))" >&2
  # For the ceiling below: kube-scheduler's own CPU seconds and the wall time of this run.
  python3 -c "print($(cpu_seconds "$scheduler_pid") - $scheduler_before, $end - $start)" >"$dir/figures_$2"
  bash "$root/test/controlplane/cluster.sh" stop-scheduler "$dir" >/dev/null
  python3 -c "print(round($pods / ($end - $start), 1))"
}

# Starts the extender binary $1 (koord-extender or floor_extender) and waits until it is ready.
start_extender() {
  "${on_extender_cpus[@]}" "$1" --config "$dir/extender-config.yaml" --log-level warn \
    >"$dir/extender.log" 2>&1 &
  extender_pid=$!
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
    kill -0 "$extender_pid" 2>/dev/null || break
    sleep 0.2
  done
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || {
    if kill -0 "$extender_pid" 2>/dev/null; then
      echo "$(basename "$1") did not become ready in 120 s; its log:" >&2
    else
      echo "$(basename "$1") exited before it became ready; its log:" >&2
    fi
    tail -n 20 "$dir/extender.log" >&2
    exit 1
  }
}
stop_extender() {
  kill "$extender_pid"; wait "$extender_pid" 2>/dev/null || true; extender_pid=""
}

# Odd runs measure without the extender first, even runs with it first: the cluster's history
# (etcd's revisions, the apiserver's caches) grows with every run, so a fixed order would favour
# whichever comes first.
# With --floor-extender: sets floor to the pods/s of the same scheduler configuration with
# floor_extender (in this shell, so that cleanup stops it if the run fails).
measure_floor() {
  start_extender "$floor_bin"
  floor="$(measure "$dir/with-extender.yaml" with_floor_extender)"
  stop_extender
}
ratios=() ceilings=() floor_ratios=()
for run in $(seq 1 "$runs"); do
  floor=""
  if [ $((run % 2)) -eq 1 ]; then
    plain="$(measure "$dir/plain.yaml" without_extender)"
    start_extender "$extender_bin"
    with="$(measure "$dir/with-extender.yaml" with_extender)"
    stop_extender
    if [ -n "$floor_bin" ]; then measure_floor; fi
  else
    if [ -n "$floor_bin" ]; then measure_floor; fi
    start_extender "$extender_bin"
    with="$(measure "$dir/with-extender.yaml" with_extender)"
    stop_extender
    plain="$(measure "$dir/plain.yaml" without_extender)"
  fi
  ratio="$(python3 -c "print(round($with / $plain, 3))")"
  ratios+=("$ratio")
  # With kube-scheduler confined to one CPU it cannot place the pods faster than its own CPU time:
  # the plain run's wall time over the CPU seconds kube-scheduler itself used in the extender's run
  # is the ratio even an extender that used no CPU at all could reach (the extender's share of
  # kube-scheduler's work, encoding requests and decoding replies, is in those seconds).
  ceiling=""
  if [ -n "$scheduler_cpus" ] && [[ "$scheduler_cpus" =~ ^[0-9]+$ ]]; then
    read -r _ plain_wall <"$dir/figures_without_extender"
    read -r scheduler_cpu _ <"$dir/figures_with_extender"
    ceiling="$(python3 -c "print(round(min($plain_wall / max($scheduler_cpu, 1e-9), 9.999), 3))")"
    ceilings+=("$ceiling")
  fi
  echo "run: $run"
  echo "nodes: $nodes"
  echo "pods: $pods"
  echo "kwok: ${kwok_mode#--}, node leases of ${lease_seconds} s"
  if [ -n "$plugins_line" ]; then echo "extender_plugins: none"; else echo "extender_plugins: default"; fi
  echo "extender_verbs: $verbs"
  echo "scheduler_flags: ${KOORD_SCHEDULER_FLAGS:-none}"
  if [ -n "$control_cpus" ]; then
    if [ -n "$extender_cpus" ]; then
      echo "cpus: control plane $control_cpus, kube-scheduler $scheduler_cpus, koord-extender $extender_cpus"
    else
      echo "cpus: control plane $control_cpus, kube-scheduler and koord-extender $scheduler_cpus"
    fi
  else
    echo "cpus: shared"
  fi
  echo "pods_per_second_without_extender: $plain"
  echo "pods_per_second_with_extender: $with"
  echo "ratio_with_over_without: $ratio"
  if [ -n "$floor" ]; then
    floor_ratios+=("$(python3 -c "print(round($floor / $plain, 3))")")
    echo "pods_per_second_with_floor_extender: $floor"
    echo "ratio_floor_over_without: ${floor_ratios[-1]}"
  fi
  if [ -n "$ceiling" ]; then echo "ratio_ceiling_kube_scheduler_cpu: $ceiling"; fi
done
median() { python3 -c "import statistics, sys; print('$1:', round(statistics.median(map(float, sys.argv[1:])), 3))" "${@:2}"; }
if [ "$runs" -gt 1 ]; then
  median median_ratio "${ratios[@]}"
  if [ ${#floor_ratios[@]} -gt 0 ]; then median median_ratio_floor "${floor_ratios[@]}"; fi
  if [ ${#ceilings[@]} -gt 0 ]; then median median_ratio_ceiling_kube_scheduler_cpu "${ceilings[@]}"; fi
fi
exit 0
