# Sourced by the end-to-end scripts: checks, koord-extender's life cycle and kube-scheduler with the
# shipped configuration. Expects (set by the caller): extender_bin, work (a scratch folder that
# holds extender-config.yaml and receives extender.log), KOORD_SOURCE_DIR, KOORD_TEST_CLUSTER_DIR,
# cluster_sh; sets failures, extender_pid and port.
# shellcheck shell=bash
# shellcheck source=test/e2e/lib/checks.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/checks.sh"
extender_pid=""
port="$(free_port)"
# koord's CRDs (koord-extender watches Reservations and is not ready before that list syncs).
apply_crds() {
  kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
  kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
}
stop_extender() {
  if [ -n "$extender_pid" ]; then kill -9 "$extender_pid" 2>/dev/null || true; wait "$extender_pid" 2>/dev/null || true; fi
  extender_pid=""
}
# Writes $work/extender-config.yaml: the cluster's kubeconfig, our port, leader election off, the
# default plugins; any arguments are appended as more YAML lines.
write_extender_config() {
  { cat <<YAML
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
    for line in "$@"; do echo "$line"; done; } > "$work/extender-config.yaml"
}
# Starts koord-extender with $work/extender-config.yaml and waits up to 30 s for /readyz.
start_extender() {
  "$extender_bin" --config "$work/extender-config.yaml" >>"$work/extender.log" 2>&1 &
  extender_pid=$!
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return 0
    kill -0 "$extender_pid" 2>/dev/null || { echo "koord-extender exited"; return 1; }
    sleep 0.1
  done
  return 1
}
# kube-scheduler with deploy/scheduler-config/scheduler-config.yaml pointed at our port.
start_scheduler() {
  { echo "clientConnection:"; echo "  kubeconfig: @KUBECONFIG@";
    sed "s|127.0.0.1:10262|127.0.0.1:$port|g" "$KOORD_SOURCE_DIR/deploy/scheduler-config/scheduler-config.yaml"; } > "$work/scheduler-config.yaml"
  bash "$cluster_sh" start-scheduler "$KOORD_TEST_CLUSTER_DIR" "$work/scheduler-config.yaml" >/dev/null
}
