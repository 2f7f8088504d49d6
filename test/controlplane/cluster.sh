#!/usr/bin/env bash
# A real, throw-away Kubernetes control plane on loopback, for koord's tests, demos and by hand.
#
#   cluster.sh start DIR [--kwok] [--kwok-nodes-only] [--no-kcm] [--scheduler-config FILE]
#                        [--node-lease-seconds N] [--node-ip IP]
#       Starts etcd, kube-apiserver (TLS, token auth, RBAC), kube-controller-manager and, when asked,
#       kwok (fake kubelets) and kube-scheduler, each on a free loopback port. kwok makes its nodes
#       Ready and renews their Leases, and runs bound pods (Running, Ready, deletion), unless
#       --kwok-nodes-only (implies --kwok) leaves pods alone. Waits until each is
#       ready, writes DIR/kubeconfig (cluster admin) and DIR/cluster.env (ports, PIDs, paths).
#       In FILE, @KUBECONFIG@ is replaced by the kubeconfig's path. --node-lease-seconds N (default
#       40, a kubelet's) is the kwok nodes' Lease duration: kwok renews each Lease every N/4 s, and
#       kube-controller-manager waits N + 10 s without a renewal before it marks a node unreachable.
#       --node-ip IP makes a control plane for real kubelets and pods (test/node/up.sh): kube-apiserver
#       listens on every address and advertises IP (the kubernetes Service's endpoint, which pods reach
#       through kube-proxy), the ServiceAccount admission plugin mounts tokens into pods, kube-apiserver
#       presents a client certificate to kubelets (DIR/certs/kubelet-client-ca.crt signs it), the
#       requests of koordinator-system's ServiceAccounts go to the audit log DIR/logs/audit.log
#       (JSON lines), and the kubeconfig names https://IP:port.
#   cluster.sh start-scheduler DIR FILE    starts (or restarts) kube-scheduler with config FILE (and the
#                                          flags in $KOORD_SCHEDULER_FLAGS, if set)
#   cluster.sh stop-scheduler DIR
#   cluster.sh restart-apiserver DIR       stops and starts kube-apiserver on the same port
#   cluster.sh compact DIR                 compacts etcd at its current revision (410 Gone for old watches)
#   cluster.sh stop DIR                    stops everything by PID (SIGTERM, then SIGKILL after 10 s)
#   cluster.sh status DIR
# Binaries come from test/controlplane/build-binaries.sh (built once per machine, cached by version).
# Logs: DIR/logs/<component>.log. Exit status: 0 on success; on a start failure everything started
# is stopped again and the failing component's log tail is printed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=test/controlplane/kubeconfig.sh
source "$here/kubeconfig.sh"

die() { echo "cluster.sh: $*" >&2; exit 1; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# shellcheck source=test/controlplane/wait.sh
source "$here/wait.sh"
# wait_for NAME PID TIMEOUT CMD...: polls CMD until it succeeds; fails if the process died.
wait_for() {
  local name="$1" pid="$2" timeout="$3"
  shift 3
  wait_started "cluster.sh: $name" "$pid" "$timeout" "$DIR/logs/$name.log" "$@"
}

save() { # save KEY VALUE into cluster.env
  local key="$1" value="$2"
  touch "$DIR/cluster.env"
  grep -v "^$key=" "$DIR/cluster.env" > "$DIR/cluster.env.tmp" || true
  echo "$key=$value" >> "$DIR/cluster.env.tmp"
  mv "$DIR/cluster.env.tmp" "$DIR/cluster.env"
}

load() {
  [ -f "$DIR/cluster.env" ] || die "no cluster in $DIR (cluster.env missing)"
  # shellcheck disable=SC1091
  source "$DIR/cluster.env"
}

stop_pid() { # stop_pid PID: SIGTERM, wait up to 10 s, then SIGKILL
  local pid="$1"
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
}

api_ready() { curl -sfk -H "Authorization: Bearer $TOKEN" "https://127.0.0.1:$APISERVER_PORT/readyz"; }

start_apiserver() {
  local node_flags=(--bind-address=127.0.0.1 --advertise-address=127.0.0.1
                    --disable-admission-plugins=ServiceAccount --endpoint-reconciler-type=none)
  if [ -n "${NODE_IP:-}" ]; then
    node_flags=(--bind-address=0.0.0.0 --advertise-address="$NODE_IP"
                --kubelet-client-certificate="$DIR/certs/kubelet-client.crt"
                --kubelet-client-key="$DIR/certs/kubelet-client.key"
                --kubelet-preferred-address-types=InternalIP,Hostname
                --audit-policy-file="$DIR/audit-policy.yaml" --audit-log-path="$DIR/logs/audit.log"
                --audit-log-format=json)
  fi
  "$K8S_BIN/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" "${node_flags[@]}" --secure-port="$APISERVER_PORT" \
    --cert-dir="$DIR/certs" \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$DIR/sa.key" --service-account-signing-key-file="$DIR/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 \
    --token-auth-file="$DIR/tokens.csv" \
    --authorization-mode=RBAC \
    --allow-privileged=true \
    >>"$DIR/logs/kube-apiserver.log" 2>&1 &
  APISERVER_PID=$!
  save APISERVER_PID "$APISERVER_PID"
  wait_for kube-apiserver "$APISERVER_PID" 90 api_ready
}

start_scheduler() {
  local config="$1"
  [ -f "$config" ] || die "scheduler config '$config' not found"
  sed "s|@KUBECONFIG@|$DIR/kubeconfig|g" "$config" > "$DIR/scheduler-config.yaml"
  local port
  port="$(free_port)"
  # shellcheck disable=SC2086  # KOORD_SCHEDULER_FLAGS: extra flags, split on spaces
  "$K8S_BIN/kube-scheduler" --config="$DIR/scheduler-config.yaml" --bind-address=127.0.0.1 \
    --secure-port="$port" ${KOORD_SCHEDULER_FLAGS:-} >>"$DIR/logs/kube-scheduler.log" 2>&1 &
  SCHEDULER_PID=$!
  save SCHEDULER_PID "$SCHEDULER_PID"
  save SCHEDULER_PORT "$port"
  wait_for kube-scheduler "$SCHEDULER_PID" 60 curl -sfk "https://127.0.0.1:$port/healthz"
}

cmd_start() {
  local kwok=0 kwok_pods=1 kcm=1 scheduler_config="" lease_seconds=40
  while [ $# -gt 0 ]; do
    case "$1" in
      --kwok) kwok=1 ;;
      --kwok-nodes-only) kwok=1; kwok_pods=0 ;;
      --no-kcm) kcm=0 ;;
      --scheduler-config) scheduler_config="$2"; shift ;;
      --node-ip) NODE_IP="$2"; shift ;;
      --node-lease-seconds)
        [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--node-lease-seconds takes a whole number of seconds"
        lease_seconds="$2"; shift ;;
      *) die "unknown option '$1'" ;;
    esac
    shift
  done
  local path
  path="$(bash "$here/build-binaries.sh" | tail -n 1)"
  K8S_BIN="${path%%:*}"
  export PATH="$path:$PATH"
  [ -f "$DIR/cluster.env" ] && die "$DIR already holds a cluster; stop it first"
  mkdir -p "$DIR/logs" "$DIR/certs" "$DIR/etcd"
  trap 'echo "cluster.sh: start failed, stopping what started" >&2; cmd_stop >/dev/null 2>&1 || true' ERR
  save K8S_BIN "$K8S_BIN"
  save BIN_PATH "$path"

  TOKEN="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  echo "$TOKEN,admin,admin-uid,\"system:masters\"" > "$DIR/tokens.csv"
  openssl genrsa -out "$DIR/sa.key" 2048 2>/dev/null
  save TOKEN "$TOKEN"
  if [ -n "${NODE_IP:-}" ]; then
    save NODE_IP "$NODE_IP"
    # kubelets trust this CA for client certificates; kube-apiserver's (system:masters) is signed by it.
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=koord-kubelet-client-ca \
      -keyout "$DIR/certs/kubelet-client-ca.key" -out "$DIR/certs/kubelet-client-ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/O=system:masters/CN=kube-apiserver-kubelet-client" \
      -keyout "$DIR/certs/kubelet-client.key" -out "$DIR/certs/kubelet-client.csr" 2>/dev/null
    openssl x509 -req -in "$DIR/certs/kubelet-client.csr" -CA "$DIR/certs/kubelet-client-ca.crt" \
      -CAkey "$DIR/certs/kubelet-client-ca.key" -CAcreateserial -days 3650 \
      -out "$DIR/certs/kubelet-client.crt" 2>/dev/null
    # The audit log records every request of a ServiceAccount of a koord component (their
    # namespace), so a test can tell which of the rights RBAC grants them they used.
    cat > "$DIR/audit-policy.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    userGroups: ["system:serviceaccounts:koordinator-system"]
  - level: None
POLICY
  fi

  ETCD_PORT="$(free_port)"
  local peer_port
  peer_port="$(free_port)"
  save ETCD_PORT "$ETCD_PORT"
  etcd --name n0 --data-dir "$DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "n0=http://127.0.0.1:$peer_port" --unsafe-no-fsync --log-level warn \
    >>"$DIR/logs/etcd.log" 2>&1 &
  ETCD_PID=$!
  save ETCD_PID "$ETCD_PID"
  wait_for etcd "$ETCD_PID" 30 curl -sf "http://127.0.0.1:$ETCD_PORT/health"

  APISERVER_PORT="$(free_port)"
  save APISERVER_PORT "$APISERVER_PORT"
  start_apiserver

  write_kubeconfig "$DIR/kubeconfig" "https://${NODE_IP:-127.0.0.1}:$APISERVER_PORT" \
    "$DIR/certs/apiserver.crt" "$TOKEN"
  save KUBECONFIG "$DIR/kubeconfig"

  if [ $kcm -eq 1 ]; then
    local controllers="*"
    # Without a kubelet or kwok, nothing renews node Leases: leave nodes alone.
    [ $kwok -eq 1 ] || [ -n "${NODE_IP:-}" ] || controllers="*,-node-lifecycle-controller"
    "$K8S_BIN/kube-controller-manager" --kubeconfig="$DIR/kubeconfig" --leader-elect=false \
      --bind-address=127.0.0.1 --secure-port=0 --controllers="$controllers" \
      --service-account-private-key-file="$DIR/sa.key" --root-ca-file="$DIR/certs/apiserver.crt" \
      --use-service-account-credentials=false --node-monitor-grace-period="$((lease_seconds + 10))s" \
      >>"$DIR/logs/kube-controller-manager.log" 2>&1 &
    save KCM_PID $!
  fi
  if [ $kwok -eq 1 ]; then
    # kwok runs only the stages it is given: take the "fast" node and pod stages and the
    # Lease heartbeat from the kwok module that build-binaries.sh downloaded.
    local kwok_dir stages
    kwok_dir="$(dirname "$(dirname "$(command -v kwok)")")"   # .../kwok-<version>
    stages="$(go env GOMODCACHE)/sigs.k8s.io/kwok@${kwok_dir##*/kwok-}/kustomize/stage"
    : > "$DIR/kwok.yaml"
    local files="node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml"
    [ "$kwok_pods" -eq 1 ] && files="$files pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml"
    for f in $files; do
      [ -f "$stages/$f" ] || die "kwok stage '$stages/$f' not found (run build-binaries.sh)"
      { echo "---"; cat "$stages/$f"; } >> "$DIR/kwok.yaml"
    done
    # kwok gives up if the apiserver is unreachable while it starts, so start-up waits for its
    # health endpoint: tests that restart the apiserver must not catch kwok still starting.
    local kwok_port
    kwok_port="$(free_port)"
    kwok --config="$DIR/kwok.yaml" --kubeconfig="$DIR/kubeconfig" --manage-all-nodes=false \
      --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
      --cidr=10.0.0.0/24 --node-ip=10.0.0.1 --node-lease-duration-seconds="$lease_seconds" \
      --server-address="127.0.0.1:$kwok_port" \
      >>"$DIR/logs/kwok.log" 2>&1 &
    save KWOK_PID $!
    save KWOK_PORT "$kwok_port"
    wait_for kwok "$!" 60 curl -sf "http://127.0.0.1:$kwok_port/healthz"
  fi
  if [ -n "$scheduler_config" ]; then
    start_scheduler "$scheduler_config"
  fi
  trap - ERR
  echo "cluster.sh: ready; export KUBECONFIG=$DIR/kubeconfig"
}

cmd_stop() {
  [ -f "$DIR/cluster.env" ] || return 0
  load
  for var in SCHEDULER_PID KWOK_PID KCM_PID APISERVER_PID ETCD_PID; do
    stop_pid "${!var:-}"
  done
  rm -f "$DIR/cluster.env"
}

cmd_status() {
  load
  for var in ETCD_PID APISERVER_PID KCM_PID KWOK_PID SCHEDULER_PID; do
    local pid="${!var:-}"
    [ -n "$pid" ] || continue
    if kill -0 "$pid" 2>/dev/null; then echo "${var%_PID}: running ($pid)"; else echo "${var%_PID}: stopped"; fi
  done
}

cmd_compact() {
  load
  local rev
  rev="$(curl -sf -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/range" -d '{"key":"AA=="}' |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["header"]["revision"])')"
  curl -sf -X POST "http://127.0.0.1:$ETCD_PORT/v3/kv/compaction" -d "{\"revision\":\"$rev\",\"physical\":true}" >/dev/null
  echo "$rev"
}

[ $# -ge 2 ] || die "usage: cluster.sh start|stop|status|start-scheduler|stop-scheduler|restart-apiserver|compact DIR [...]"
verb="$1"
DIR="$(mkdir -p "$2" && cd "$2" && pwd)"
shift 2
case "$verb" in
  start) cmd_start "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  compact) cmd_compact ;;
  start-scheduler)
    load
    stop_pid "${SCHEDULER_PID:-}"
    start_scheduler "$1" ;;
  stop-scheduler) load; stop_pid "${SCHEDULER_PID:-}" ;;
  restart-apiserver)
    load
    stop_pid "$APISERVER_PID"
    start_apiserver ;;
  *) die "unknown command '$verb'" ;;
esac
