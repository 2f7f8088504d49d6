#!/usr/bin/env bash
# koord-manager at scale (docs/performance.md, issue #33's "manager RSS at 5,000 nodes and 50,000
# pods <= 256 MiB"): on its own real control plane (test/controlplane/cluster.sh, without
# kube-controller-manager, so that nothing evicts pods from nodes no kubelet runs), creates koord's
# CRDs, the slo-controller-config ConfigMap with colocation enabled, NODES Nodes (cpu 32, memory
# 128Gi; not kwok nodes, nothing runs them), PODS_PER_NODE pods a node already bound and Running,
# and one NodeMetric a node with a fresh status (populate.py, over parallel keep-alive
# connections). Then it starts koord-manager (leader-elected with short lease flags, as
# test/e2e/manager/manager_e2e_test.sh does; --webhook-port 0) and follows it (watch_manager.py)
# until /readyz is 200 and every node's status has kubernetes.io/batch-cpu, and prints:
#   the seconds each kind of object took to create;
#   ready_s, all_batch_s (from koord-manager's start), cpu_s_at_all_batch (utime + stime);
#   rss_mib_at_all_batch, peak_rss_mib_at_all_batch (VmRSS, VmHWM at that point);
#   rss_mib_steady, peak_rss_mib, cpu_s_settle (SETTLE seconds later, default 30).
#
#   bash test/bench/manager_scale/run.sh [NODES] [PODS_PER_NODE]     (default 5000 10)
#   env: KOORD_MANAGER (default build/h-perf/manager/koord-manager, else build/release, else
#        build/default), SETTLE (seconds, default 30), WORKERS (populate.py's connections, 8),
#        KEEP=1 (leave the control plane and koord-manager's log in the printed folder)
#
# Build koord-manager optimized first (cmake -DCMAKE_BUILD_TYPE=Release). koord-manager's client
# sends at most 50 requests/s (k8s::ClientConfig's default qps), and it writes four times a node
# (its NodeSLO, its NodeMetric's spec, its status and its explanation annotation), so all_batch_s
# is at least about 4 x NODES / 50 s whatever the manager's own speed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
nodes="${1:-5000}" pods_per_node="${2:-10}"
[[ "$nodes" =~ ^[1-9][0-9]*$ && "$pods_per_node" =~ ^[0-9]+$ ]] ||
  { echo "usage: run.sh [NODES] [PODS_PER_NODE]" >&2; exit 2; }
manager="${KOORD_MANAGER:-}"
if [ -z "$manager" ]; then
  for candidate in build/h-perf build/release build/default; do
    if [ -x "$root/$candidate/manager/koord-manager" ]; then
      manager="$root/$candidate/manager/koord-manager"
      break
    fi
  done
fi
[ -x "$manager" ] || { echo "no koord-manager binary: build it or set KOORD_MANAGER" >&2; exit 2; }

dir="$(mktemp -d /tmp/koord-manager-scale.XXXXXX)"
manager_pid=""
cleanup() {
  if [ -n "$manager_pid" ]; then
    kill "$manager_pid" 2>/dev/null || true
    wait "$manager_pid" 2>/dev/null || true
  fi
  bash "$root/test/controlplane/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" = 1 ]; then
    echo "kept: $dir" >&2
  else
    rm -rf "$dir"
  fi
}
trap cleanup EXIT

echo "koord-manager: $manager"
echo "scale: $nodes nodes x $pods_per_node pods = $((nodes * pods_per_node)) pods"
bash "$root/test/controlplane/cluster.sh" start "$dir" --no-kcm >/dev/null
# shellcheck disable=SC1091
source "$dir/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
server="https://127.0.0.1:$APISERVER_PORT"

kubectl create namespace koordinator-system >/dev/null
kubectl apply -f "$root/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$root/deploy/crds/" >/dev/null
helm template koord "$root/charts/koordinator" -s templates/priorityclasses.yaml 2>/dev/null |
  kubectl apply -f - >/dev/null
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: slo-controller-config, namespace: koordinator-system}
data:
  colocation-config: |
    {"enable": true}
YAML

start="$(date +%s.%N)"
python3 "$here/populate.py" --server "$server" --token "$TOKEN" --nodes "$nodes" \
  --pods-per-node "$pods_per_node" --workers "${WORKERS:-8}"
echo "created everything in $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$manager" --kubeconfig "$KUBECONFIG" --listen-address "127.0.0.1:$port" \
  --leader-elect-resource-name koord-manager-scale --leader-elect-resource-namespace koordinator-system \
  --leader-elect-lease-duration 4s --leader-elect-renew-deadline 3s --leader-elect-retry-period 500ms \
  --webhook-port 0 --log-level warn >"$dir/koord-manager.log" 2>&1 &
manager_pid=$!
if ! python3 "$here/watch_manager.py" --server "$server" --token "$TOKEN" --pid "$manager_pid" \
    --health "http://127.0.0.1:$port" --nodes "$nodes" --settle "${SETTLE:-30}" 2>"$dir/progress.log"; then
  tail -5 "$dir/progress.log" >&2
  echo "--- koord-manager log (tail)" >&2
  tail -20 "$dir/koord-manager.log" >&2
  exit 1
fi
echo "manager_log_lines: $(wc -l <"$dir/koord-manager.log")"
