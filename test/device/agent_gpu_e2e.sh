#!/usr/bin/env bash
# koord-agent on a real NVIDIA GPU host against a real control plane: the Device it reports must
# be what nvidia-smi says the host has. For GPU machines (not run in CI, which has no GPU).
#
#   agent_gpu_e2e.sh KOORD_AGENT ETCD KUBE_APISERVER [REPORT_DIR]
#
# Starts etcd and kube-apiserver (TLS, token auth, RBAC) on loopback, installs deploy/crds, creates
# a Node named after the host, and runs koord-agent for it with the host's own libnvidia-ml.so.1
# (report only: --disable-reconciler, and a cgroup root of its own). Then checks, through the API
# server:
#   - the Device object exists, is owned by the Node, and lists one healthy gpu entry per GPU of
#     `nvidia-smi -q -x`, with its UUID, minor number and memory (koordinator.sh/gpu-memory), and
#     koordinator.sh/gpu-core and gpu-memory-ratio 100;
#   - its labels name the vendor, the model (nvidia-smi's product name without "NVIDIA ", spaces
#     as '-') and the driver version;
#   - NodeResourceTopology and NodeMetric's status are reported too, and koord-agent's resident
#     memory stays under 32 MiB with NVML loaded.
# NVML_LIBRARY overrides the library koord-agent loads (default libnvidia-ml.so.1; a dry run on a
# host without GPUs can point it at the stand-in and PATH at a stand-in nvidia-smi).
# Exit status: 0 when every check passed, 1 otherwise (each check prints ok/FAIL), 2 when the host
# has no nvidia-smi. REPORT_DIR, when given, receives the Device, the agent's log and the summary.
set -euo pipefail
agent="${1:?usage: agent_gpu_e2e.sh KOORD_AGENT ETCD KUBE_APISERVER [REPORT_DIR]}"
etcd_bin="${2:?usage: agent_gpu_e2e.sh KOORD_AGENT ETCD KUBE_APISERVER [REPORT_DIR]}"
apiserver_bin="${3:?usage: agent_gpu_e2e.sh KOORD_AGENT ETCD KUBE_APISERVER [REPORT_DIR]}"
report="${4:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=test/e2e/lib/checks.sh
source "$root/test/e2e/lib/checks.sh"
# shellcheck source=test/controlplane/kubeconfig.sh
source "$root/test/controlplane/kubeconfig.sh"
command -v nvidia-smi >/dev/null || { echo "no nvidia-smi: not a GPU host"; exit 2; }

work="$(mktemp -d)"
node="$(hostname | tr '[:upper:]' '[:lower:]')"
cg_root="koord-gpu-e2e-$$"
pids=()
cleanup() {
  # Newest first (koord-agent, kube-apiserver, etcd); SIGKILL whatever is left after 10 s, since
  # kube-apiserver can take long to stop once etcd is gone.
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    local alive=0
    for i in "${pids[@]}"; do kill -0 "$i" 2>/dev/null && alive=1; done
    [ "$alive" -eq 1 ] || break
    sleep 0.2
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
  rmdir "/sys/fs/cgroup/$cg_root" 2>/dev/null || true
  if [ -n "$report" ]; then cp "$work"/*.log "$report/" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The control plane.
token="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo "$token,admin,admin-uid,\"system:masters\"" > "$work/tokens.csv"
openssl genrsa -out "$work/sa.key" 2048 2>/dev/null
etcd_port="$(free_port)"; peer_port="$(free_port)"; api_port="$(free_port)"
"$etcd_bin" --name n0 --data-dir "$work/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "n0=http://127.0.0.1:$peer_port" --unsafe-no-fsync --log-level warn >"$work/etcd.log" 2>&1 &
pids+=($!)
wait_for 30 etcd curl -sf "http://127.0.0.1:$etcd_port/health"
"$apiserver_bin" --etcd-servers="http://127.0.0.1:$etcd_port" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
  --cert-dir="$work/certs" --service-account-issuer=https://kubernetes.default.svc \
  --service-account-key-file="$work/sa.key" --service-account-signing-key-file="$work/sa.key" \
  --service-cluster-ip-range=10.0.0.0/24 --token-auth-file="$work/tokens.csv" \
  --authorization-mode=RBAC --disable-admission-plugins=ServiceAccount \
  --endpoint-reconciler-type=none >"$work/kube-apiserver.log" 2>&1 &
pids+=($!)
api() {  # method path [json body]: prints the answer; on an HTTP error says which and fails
  local answer
  if ! answer="$(curl -sk --fail-with-body -X "$1" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' "https://127.0.0.1:$api_port$2" ${3:+--data-binary "$3"})"; then
    echo "agent_gpu_e2e.sh: $1 $2 failed: $answer" >&2
    return 1
  fi
  printf '%s\n' "$answer"
}
wait_for 90 kube-apiserver sh -c "curl -skf -H 'Authorization: Bearer $token' https://127.0.0.1:$api_port/readyz"
write_kubeconfig "$work/kubeconfig" "https://127.0.0.1:$api_port" "$work/certs/apiserver.crt" "$token"

# The CRDs, as JSON (no kubectl here).
for crd in "$root"/deploy/crds/*.yaml; do
  body="$(python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$crd")"
  api POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions "$body" >/dev/null
done
for crd in devices.scheduling.koordinator.sh noderesourcetopologies.topology.node.k8s.io nodemetrics.slo.koordinator.sh; do
  wait_for 60 "CRD $crd" sh -c "curl -skf -H 'Authorization: Bearer $token' https://127.0.0.1:$api_port/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$crd | grep -q '\"Established\"'"
done
cpus="$(nproc)"
api POST /api/v1/nodes "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"$node\"},
  \"status\":{\"allocatable\":{\"cpu\":\"$cpus\",\"memory\":\"64Gi\",\"pods\":\"110\"},
              \"capacity\":{\"cpu\":\"$cpus\",\"memory\":\"64Gi\",\"pods\":\"110\"}}}" >/dev/null
api POST /apis/slo.koordinator.sh/v1alpha1/nodemetrics "{\"apiVersion\":\"slo.koordinator.sh/v1alpha1\",
  \"kind\":\"NodeMetric\",\"metadata\":{\"name\":\"$node\"},\"spec\":{\"metricCollectPolicy\":
  {\"aggregateDurationSeconds\":60,\"reportIntervalSeconds\":30,\"nodeAggregatePolicy\":{\"durations\":[\"1m\"]}}}}" >/dev/null

# koord-agent, with the host's NVML.
mkdir -p "$work/kubelet"
mkdir -p "/sys/fs/cgroup/$cg_root" 2>/dev/null || true  # not needed: report only
agent_port="$(free_port)"
"$agent" --kubeconfig "$work/kubeconfig" --node-name "$node" --cgroup-driver cgroupfs \
  --kubelet-cgroup-root "/$cg_root" --kubelet-root-dir "$work/kubelet" --disable-reconciler \
  --nvml-library "${NVML_LIBRARY:-libnvidia-ml.so.1}" \
  --listen-address "127.0.0.1:$agent_port" --report-interval 5s --log-level debug >"$work/agent.log" 2>&1 &
agent_pid=$!
pids+=("$agent_pid")
wait_for 30 "koord-agent /readyz" curl -sf "http://127.0.0.1:$agent_port/readyz" \
  && pass "koord-agent ready" || fail "koord-agent never became ready"
wait_for 30 "the Device" sh -c "curl -skf -H 'Authorization: Bearer $token' https://127.0.0.1:$api_port/apis/scheduling.koordinator.sh/v1alpha1/devices/$node" \
  && pass "Device $node created" || fail "no Device"
api GET "/apis/scheduling.koordinator.sh/v1alpha1/devices/$node" > "$work/device.json"
nvidia-smi -q -x > "$work/smi.xml"
python3 - "$work/device.json" "$work/smi.xml" "$node" <<'PY' || failures=$((failures + 1))
import json, sys, xml.etree.ElementTree as ET
device = json.load(open(sys.argv[1]))
smi = ET.parse(sys.argv[2]).getroot()
node = sys.argv[3]
bad = 0
def check(what, got, want):
    global bad
    ok = got == want
    bad += 0 if ok else 1
    print(("ok: " if ok else "FAIL: ") + "%s: %r" % (what, got) + ("" if ok else ", want %r" % (want,)))
def mib(q):
    return int(q[:-2]) if q.endswith("Mi") else int(q) // (1 << 20)
gpus = smi.findall("gpu")
owner = device["metadata"].get("ownerReferences", [{}])[0]
check("Device owner", (owner.get("kind"), owner.get("name")), ("Node", node))
labels = device["metadata"].get("labels", {})
name = gpus[0].findtext("product_name")
check("label gpu-vendor", labels.get("node.koordinator.sh/gpu-vendor"), "nvidia")
check("label gpu-model", labels.get("node.koordinator.sh/gpu-model"),
      name.removeprefix("NVIDIA ").replace(" ", "-"))
check("label gpu-driver-version", labels.get("node.koordinator.sh/gpu-driver-version"),
      smi.findtext("driver_version"))
entries = device["spec"].get("devices", [])
check("gpu entries", len(entries), len(gpus))
for entry, gpu in zip(entries, gpus):
    uuid = gpu.findtext("uuid")
    check("gpu %s id/minor/health/type" % uuid, (entry["id"], entry["minor"], entry["health"], entry["type"]),
          (uuid, int(gpu.findtext("minor_number")), True, "gpu"))
    res = entry["resources"]
    check("gpu %s memory MiB" % uuid, mib(res["koordinator.sh/gpu-memory"]),
          int(gpu.findtext("fb_memory_usage/total").split()[0]))
    check("gpu %s gpu-core / gpu-memory-ratio" % uuid,
          (res["koordinator.sh/gpu-core"], res["koordinator.sh/gpu-memory-ratio"]), ("100", "100"))
sys.exit(1 if bad else 0)
PY
wait_for 30 "the NodeResourceTopology" sh -c "curl -skf -H 'Authorization: Bearer $token' https://127.0.0.1:$api_port/apis/topology.node.k8s.io/v1alpha1/noderesourcetopologies/$node" \
  && pass "NodeResourceTopology $node created" || fail "no NodeResourceTopology"
wait_for 45 "the first NodeMetric report" sh -c "curl -skf -H 'Authorization: Bearer $token' https://127.0.0.1:$api_port/apis/slo.koordinator.sh/v1alpha1/nodemetrics/$node | grep -q updateTime" \
  && pass "NodeMetric status reported" || fail "NodeMetric status never reported"
# Resident memory between reports (the median of 5 samples over 2 s; a sample may fall in a
# Device report, when NVML is loaded), and the peak.
rss_kib="$(for _ in 1 2 3 4 5; do awk '/^VmRSS/{print $2}' "/proc/$agent_pid/status"; sleep 0.5; done | sort -n | sed -n 3p)"
hwm_kib="$(awk '/^VmHWM/{print $2}' "/proc/$agent_pid/status")"
[ "${rss_kib:-999999}" -le 32768 ] && pass "koord-agent resident memory ${rss_kib} KiB, peak ${hwm_kib} KiB while NVML is loaded (target 32 MiB)" \
  || fail "koord-agent resident memory ${rss_kib} KiB (peak ${hwm_kib} KiB), over 32 MiB"
grep -q "no NVML library" "$work/agent.log" && fail "koord-agent did not load NVML: $(grep -m1 'no NVML' "$work/agent.log")"
if [ -n "$report" ]; then cp "$work/device.json" "$work/smi.xml" "$report/"; fi
echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
