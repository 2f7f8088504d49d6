# The parts of the one-node cluster, sourced by test/node/up.sh, down.sh and the node e2e test.
# shellcheck shell=bash
# Contract: DIR is the cluster's directory (state in DIR/node.env), K8S_BIN and CONTAINERD_BIN the
# binaries' directories; every start function waits until its part answers, and fails with its
# log's tail otherwise.

NODE_NAME="${KOORD_NODE_NAME:-koord-node}"
CONTAINERD_STATE=/run/koord-containerd
CONTAINERD_SOCK="$CONTAINERD_STATE/containerd.sock"
KUBELET_ROOT=/var/lib/kubelet
POD_SUBNET=10.244.0.0/24
CNI_BRIDGE=koord0
CHART_RELEASE=koord

node_die() { echo "node: $*" >&2; exit 1; }

node_save() { # node_save KEY VALUE into DIR/node.env
  touch "$DIR/node.env"
  grep -v "^$1=" "$DIR/node.env" > "$DIR/node.env.tmp" || true
  echo "$1=$2" >> "$DIR/node.env.tmp"
  mv "$DIR/node.env.tmp" "$DIR/node.env"
}

node_load() {
  [ -f "$DIR/node.env" ] || return 1
  # shellcheck disable=SC1091
  source "$DIR/node.env"
  export PATH="$BIN_PATH:$PATH" KUBECONFIG="$DIR/cp/kubeconfig"
}

# node_preflight: refuses, with the reason, a host that cannot run the node (not root, no
# overlayfs, a kubelet or containerd of its own, the kubelet's ports taken).
node_preflight() {
  [ "$(id -u)" -eq 0 ] || node_die "needs root: the kubelet and containerd manage cgroups, mounts and network namespaces"
  grep -qw overlay /proc/filesystems || node_die "the kernel has no overlayfs (containerd's snapshotter needs it): $(uname -r)"
  [ -d /sys/fs/cgroup ] || node_die "no /sys/fs/cgroup: the kubelet needs cgroups"
  if [ -e "$KUBELET_ROOT" ] && [ -n "$(ls -A "$KUBELET_ROOT" 2>/dev/null)" ]; then
    node_die "$KUBELET_ROOT is not empty: this host runs (or ran) a kubelet of its own; remove it or use another machine"
  fi
  if pgrep -x kubelet >/dev/null; then node_die "a kubelet already runs on this host (pid $(pgrep -x kubelet | head -1))"; fi
  local port
  for port in 10250 10248 10249 10256; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      node_die "port $port is taken (the kubelet or kube-proxy needs it)"
    fi
  done
}

# node_host_ip: this host's address on its default route, which pods reach kube-apiserver at.
node_host_ip() {
  local ip
  ip="$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p' | head -1)"
  [ -n "$ip" ] || ip="$(ip -4 -o addr show scope global | awk '{print $4}' | cut -d/ -f1 | head -1)"
  [ -n "$ip" ] || node_die "this host has no IPv4 address besides loopback; pods need one to reach kube-apiserver"
  echo "$ip"
}

# shellcheck source=test/controlplane/wait.sh
source "$(dirname "${BASH_SOURCE[0]}")/../controlplane/wait.sh"
# node_wait NAME PID TIMEOUT LOG CMD...: polls CMD until it succeeds; fails if PID died or on timeout.
node_wait() { wait_started "node: $1" "${@:2}"; }

# node_has_cap N: whether this process holds capability N in its effective set.
node_has_cap() {
  local eff
  eff="$(awk '/^CapEff:/{print $2}' /proc/self/status)"
  (( (16#$eff >> $1) & 1 ))
}

node_start_containerd() {
  mkdir -p "$DIR/containerd/root" "$DIR/cni/net.d" "$DIR/logs" "$CONTAINERD_STATE"
  cat > "$DIR/cni/net.d/10-koord.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "koord",
  "plugins": [
    {"type": "bridge", "bridge": "$CNI_BRIDGE", "isGateway": true, "ipMasq": true, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_SUBNET"}]],
              "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$DIR/cni/ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF
  local runc_bin
  runc_bin="$(command -v runc)" || node_die "runc is not installed (bash cmake/install-deps.sh)"
  [ -x /usr/lib/cni/bridge ] || node_die "the CNI plugins are not installed in /usr/lib/cni (bash cmake/install-deps.sh)"
  # The kubelet gives sandboxes oom_score_adj -998 and critical pods -997 or less; lowering it takes
  # CAP_SYS_RESOURCE. A host (or a sandboxed CI machine) without it would fail every pod with
  # "failed to update /proc/self/oom_score_adj: Permission denied": there containerd raises such
  # values to its own, as rootless setups do (docs/install.md).
  local restrict_oom=false
  node_has_cap 24 || restrict_oom=true
  node_save RESTRICT_OOM_SCORE_ADJ "$restrict_oom"
  cat > "$DIR/containerd/config.toml" <<EOF
version = 3
root = "$DIR/containerd/root"
state = "$CONTAINERD_STATE"

[grpc]
  address = "$CONTAINERD_SOCK"

[plugins.'io.containerd.cri.v1.images']
  snapshotter = "overlayfs"
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = "koord.local/pause:3.10"

[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = $restrict_oom
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = "runc"
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        BinaryName = "$runc_bin"
        Root = "$CONTAINERD_STATE/runc"
        SystemdCgroup = false
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["/usr/lib/cni"]
    conf_dir = "$DIR/cni/net.d"
EOF
  # The shim is found on PATH, next to containerd.
  PATH="$CONTAINERD_BIN:$PATH" "$CONTAINERD_BIN/containerd" --config "$DIR/containerd/config.toml" \
    >>"$DIR/logs/containerd.log" 2>&1 &
  node_save CONTAINERD_PID $!
  node_wait containerd $! 60 "$DIR/logs/containerd.log" \
    "$CONTAINERD_BIN/ctr" --address "$CONTAINERD_SOCK" version
}

# node_import_images LIST: imports each "<archive> <repository> <tag>" line of LIST (images.sh's
# output) into containerd's k8s.io namespace, where the kubelet's images live.
node_import_images() {
  local archive repository tag
  while read -r archive repository tag; do
    "$CONTAINERD_BIN/ctr" --address "$CONTAINERD_SOCK" -n k8s.io images import \
      --base-name "$repository" "$archive" >/dev/null 2>>"$DIR/logs/ctr.log" ||
      node_die "ctr images import $archive failed: $(tail -n 3 "$DIR/logs/ctr.log")"
    local refs
    refs="$("$CONTAINERD_BIN/ctr" --address "$CONTAINERD_SOCK" -n k8s.io images ls -q 2>>"$DIR/logs/ctr.log")"
    grep -qx "$repository:$tag" <<<"$refs" || node_die "$repository:$tag is not in containerd after importing $archive"
  done < "$1"
}

node_start_kubelet() {
  # koord-agent mounts the host's /sys with HostToContainer propagation (a cgroup or resctrl mount
  # made later is seen too), which needs /sys to be a shared mount, as systemd makes every mount.
  # On a host without systemd it is private: make it shared, and down.sh makes it private again.
  if [ "$(findmnt -no PROPAGATION /sys)" = private ]; then
    mount --make-rshared /sys
    node_save SYS_MADE_SHARED true
  fi
  mkdir -p "$KUBELET_ROOT"
  local fail_cgroup_v1=true
  # cgroup v1 (this CI's kernel): the kubelet refuses it unless told not to (failCgroupV1, KEP-5573).
  [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] || fail_cgroup_v1=false
  # The agent reads this file (its --kubelet-config default) for the cgroup driver and CPU manager.
  cat > "$KUBELET_ROOT/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
failCgroupV1: $fail_cgroup_v1
failSwapOn: false
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $DIR/cp/certs/kubelet-client-ca.crt}
authorization: {mode: Webhook}
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
podLogsDir: $DIR/pod-logs
EOF
  "$K8S_BIN/kubelet" --config="$KUBELET_ROOT/config.yaml" --kubeconfig="$DIR/cp/kubeconfig" \
    --hostname-override="$NODE_NAME" --node-ip="$NODE_IP" --v=2 >>"$DIR/logs/kubelet.log" 2>&1 &
  node_save KUBELET_PID $!
  node_wait kubelet $! 90 "$DIR/logs/kubelet.log" curl -sf http://127.0.0.1:10248/healthz
}

node_start_kube_proxy() {
  "$K8S_BIN/kube-proxy" --kubeconfig="$DIR/cp/kubeconfig" --hostname-override="$NODE_NAME" \
    --proxy-mode=iptables --cluster-cidr=10.244.0.0/16 --conntrack-max-per-core=0 \
    --metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256 \
    >>"$DIR/logs/kube-proxy.log" 2>&1 &
  node_save KUBE_PROXY_PID $!
  node_wait kube-proxy $! 60 "$DIR/logs/kube-proxy.log" curl -sf http://127.0.0.1:10256/healthz
}

# node_wait_ready NODE TIMEOUT: until the Node's Ready condition is True.
node_wait_ready() {
  kubectl wait --for=condition=Ready "node/$1" --timeout="${2}s" >/dev/null || {
    kubectl describe node "$1" >&2 || true
    tail -n 30 "$DIR/logs/kubelet.log" >&2
    node_die "node $1 did not become Ready"
  }
}

# node_add_kwok_nodes N: kwok-node-0..N-1, fake nodes kwok keeps Ready (32 CPUs), tainted
# kwok.x-k8s.io/node=fake:NoSchedule.
node_add_kwok_nodes() {
  local i
  for i in $(seq 0 $(($1 - 1))); do
    kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-$i
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {type: kwok, kubernetes.io/hostname: kwok-node-$i}
spec:
  # Only pods that tolerate it (koord-agent's DaemonSet tolerates every taint) land on a fake node.
  taints: [{key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}]
status:
  allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
  capacity: {cpu: "32", memory: 128Gi, pods: "110"}
EOF
  done
}

# node_helm_install HELM_ARGS...: helm install of the chart with the local kube-scheduler image,
# waiting for every workload to be Ready.
node_helm_install() {
  local k8s_version
  k8s_version="$(basename "$(dirname "$K8S_BIN")")"
  k8s_version="${k8s_version#k8s-}"
  helm install "$CHART_RELEASE" "$repo/charts/koordinator" \
    --set scheduler.image.repository=koord.local/kube-scheduler \
    --set scheduler.image.tag="$k8s_version" "$@" --wait --timeout 5m >&2 || {
    kubectl get pods -A -o wide >&2 || true
    node_die "helm install did not become Ready in 5 minutes"
  }
}
