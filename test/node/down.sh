#!/usr/bin/env bash
# Removes everything test/node/up.sh started and made, in this order: the kubelet (so it restarts
# nothing), every container and pod sandbox (containerd's k8s.io namespace) and their shims,
# containerd, kube-proxy's rules (kube-proxy --cleanup) and kube-proxy, the CNI bridge, network
# namespaces and masquerade chains, the mounts under /var/lib/kubelet and DIR, the pods' cgroups
# (kubepods), the kubelet's log links in /var/log/containers, /sys's propagation (back to
# private when up.sh made it shared), the control plane, and the directories /var/lib/kubelet,
# /run/koord-containerd and DIR. Safe to run twice, or after a failed up.sh.
#
#   bash test/node/down.sh [--dir DIR]      (default /tmp/koord-node)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=test/node/node-lib.sh
source "$here/node-lib.sh"

DIR=/tmp/koord-node
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) node_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[ -d "$DIR" ] || { echo "down.sh: nothing at $DIR"; exit 0; }
DIR="$(cd "$DIR" && pwd)"
node_load || { echo "down.sh: no node cluster in $DIR (node.env missing)"; exit 0; }

stop_pid() { # SIGTERM, up to 10 s, then SIGKILL
  local pid="${1:-}"
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null
}

stop_pid "${KUBELET_PID:-}"

ctr_() { "$CONTAINERD_BIN/ctr" --address "$CONTAINERD_SOCK" -n k8s.io "$@"; }
if [ -n "${CONTAINERD_PID:-}" ] && kill -0 "$CONTAINERD_PID" 2>/dev/null; then
  for task in $(ctr_ tasks ls -q 2>/dev/null); do
    ctr_ tasks kill -s SIGKILL "$task" >/dev/null 2>&1
  done
  sleep 1
  for task in $(ctr_ tasks ls -q 2>/dev/null); do ctr_ tasks delete -f "$task" >/dev/null 2>&1; done
  for c in $(ctr_ containers ls -q 2>/dev/null); do ctr_ containers delete "$c" >/dev/null 2>&1; done
fi
stop_pid "${CONTAINERD_PID:-}"
# Shims outlive containerd by design; ours name our socket's directory.
for pid in $(pgrep -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCK" 2>/dev/null); do
  kill -KILL "$pid" 2>/dev/null
done

stop_pid "${KUBE_PROXY_PID:-}"
[ -x "$K8S_BIN/kube-proxy" ] && "$K8S_BIN/kube-proxy" --cleanup >/dev/null 2>&1

ip link delete "$CNI_BRIDGE" >/dev/null 2>&1
for ns in $(ip netns list 2>/dev/null | awk '/^cni-/{print $1}'); do ip netns delete "$ns" 2>/dev/null; done
# The bridge plugin's ipMasq chains (CNI-<hash>) and their POSTROUTING jumps.
iptables -t nat -S POSTROUTING 2>/dev/null | grep -- '-j CNI-' | sed 's/^-A/-D/' |
  while read -r rule; do eval "iptables -t nat $rule" 2>/dev/null; done
for chain in $(iptables -t nat -S 2>/dev/null | awk '/^-N CNI-/{print $2}'); do
  iptables -t nat -F "$chain" 2>/dev/null; iptables -t nat -X "$chain" 2>/dev/null
done

# Mounts (pod volumes, sandbox shm, overlay rootfs), deepest first.
awk '{print $2}' /proc/self/mounts | grep -E "^($KUBELET_ROOT|$DIR|$CONTAINERD_STATE)(/|$)" | sort -r |
  while read -r m; do umount -l "$m" 2>/dev/null; done

# The pods' cgroups the kubelet made (kubepods, bottom-up), in every hierarchy.
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then roots=(/sys/fs/cgroup/kubepods); else
  roots=(/sys/fs/cgroup/*/kubepods)
fi
for root in "${roots[@]}"; do
  [ -d "$root" ] && find "$root" -depth -type d -exec rmdir {} + 2>/dev/null
done

# The kubelet's links to container logs (under DIR/pod-logs, removed with DIR).
find /var/log/containers -maxdepth 1 -type l -lname "$DIR/*" -delete 2>/dev/null
[ "${SYS_MADE_SHARED:-}" = true ] && mount --make-rprivate /sys
bash "$repo/test/controlplane/cluster.sh" stop "$DIR/cp" >/dev/null 2>&1
rm -rf "$KUBELET_ROOT" "$CONTAINERD_STATE" "$DIR"
echo "down.sh: removed the node cluster in $DIR"
