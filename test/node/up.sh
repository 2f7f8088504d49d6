#!/usr/bin/env bash
# A one-node Kubernetes cluster on this host, with koord installed by `helm install`:
#
#   bash test/node/up.sh [--dir DIR] [--build-dir B] [--kwok-nodes N] [--no-chart] [-- HELM_ARGS...]
#
# Starts, as root, on a Debian 12 machine (cgroup v1 or v2):
#   - the control plane (test/controlplane/cluster.sh --node-ip: etcd, kube-apiserver,
#     kube-controller-manager and the default kube-scheduler), advertising this host's address;
#   - containerd (CRI, overlayfs, runc, cgroupfs) with its state under DIR and its socket at
#     /run/koord-containerd/containerd.sock, the bridge CNI network koord0 (10.244.0.0/24);
#   - a kubelet (root dir /var/lib/kubelet, cgroupfs driver) registering this host as the Node
#     `koord-node` (override: KOORD_NODE_NAME), and kube-proxy (iptables mode);
#   - N kwok nodes (fake kubelets, kwok-node-<i>) beside it, with --kwok-nodes N (default 0);
#   - koord's images, built by test/node/images.sh from the binaries in B (default build/default,
#     built first when missing) and imported into containerd's k8s.io namespace;
#   - the chart: helm install koord charts/koordinator with the local kube-scheduler image and
#     HELM_ARGS, waiting until every Deployment and DaemonSet is Ready (skipped with --no-chart).
# Binaries come from test/controlplane/build-binaries.sh --node (built once, cached by version);
# Debian packages from cmake/install-deps.sh. docs/install.md says what each part is and where it
# came from. Remove everything with: bash test/node/down.sh [--dir DIR]
# On success prints `export KUBECONFIG=DIR/kubeconfig`; on failure prints the failing part's log
# tail and leaves what started for down.sh (and for looking at).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=test/node/node-lib.sh
source "$here/node-lib.sh"

DIR=/tmp/koord-node
build_dir="$repo/build/default"
kwok_nodes=0
chart=1
helm_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR="$2"; shift ;;
    --build-dir) build_dir="$2"; shift ;;
    --kwok-nodes)
      [[ "${2:-}" =~ ^[0-9]+$ ]] || node_die "--kwok-nodes takes a number"
      kwok_nodes="$2"; shift ;;
    --no-chart) chart=0 ;;
    --) shift; helm_args=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) node_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

node_preflight
bash "$repo/cmake/install-deps.sh" >&2
path="$(bash "$repo/test/controlplane/build-binaries.sh" --node | tail -n 1)"
export PATH="$path:$PATH"
K8S_BIN="${path%%:*}"
CONTAINERD_BIN="${path##*:}"

if [ ! -x "$build_dir/extender/koord-extender" ] || [ ! -x "$build_dir/agent/koord-agent" ] ||
   [ ! -x "$build_dir/manager/koord-manager" ] || [ ! -x "$build_dir/manager/koord-descheduler" ]; then
  echo "up.sh: building koord-extender, koord-agent, koord-manager and koord-descheduler in $build_dir" >&2
  if [ "$build_dir" = "$repo/build/default" ] && [ ! -f "$build_dir/build.ninja" ]; then
    (cd "$repo" && cmake --preset default >&2)
  fi
  cmake --build "$build_dir" --target koord-extender koord-agent koord-manager koord-descheduler >&2
fi

mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
[ -f "$DIR/node.env" ] && node_die "$DIR already holds a node cluster; run test/node/down.sh --dir $DIR first"
node_save KOORD_NODE_DIR "$DIR"
node_save K8S_BIN "$K8S_BIN"
node_save CONTAINERD_BIN "$CONTAINERD_BIN"
node_save BIN_PATH "$path"
node_save NODE_NAME "$NODE_NAME"

echo "up.sh: building images into $DIR/images" >&2
bash "$here/images.sh" "$build_dir" "$DIR/images" > "$DIR/images.list"

NODE_IP="$(node_host_ip)"
node_save NODE_IP "$NODE_IP"
cluster_flags=(--node-ip "$NODE_IP" --scheduler-config "$here/default-scheduler.yaml")
[ "$kwok_nodes" -gt 0 ] && cluster_flags+=(--kwok)
bash "$repo/test/controlplane/cluster.sh" start "$DIR/cp" "${cluster_flags[@]}" >&2
export KUBECONFIG="$DIR/cp/kubeconfig"
ln -sf "$DIR/cp/kubeconfig" "$DIR/kubeconfig"

node_start_containerd
node_import_images "$DIR/images.list"
node_start_kubelet
node_start_kube_proxy
node_wait_ready "$NODE_NAME" 120
[ "$kwok_nodes" -gt 0 ] && node_add_kwok_nodes "$kwok_nodes"

if [ $chart -eq 1 ]; then
  node_helm_install "${helm_args[@]}"
fi
echo "up.sh: ready: one real node ($NODE_NAME)$( [ "$kwok_nodes" -gt 0 ] && echo " and $kwok_nodes kwok nodes")" >&2
echo "export KUBECONFIG=$DIR/kubeconfig"
