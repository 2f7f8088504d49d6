#!/usr/bin/env bash
# koord-extender serving HTTPS (server.tlsCertFile / tlsKeyFile) to a stock kube-scheduler with
# enableHTTPS and the certificate as its CA, on the real control plane:
#  1. /readyz answers over HTTPS with the certificate verified; plain HTTP to the TLS port gets no
#     answer, and koord-extender keeps serving;
#  2. pods with schedulerName koord-scheduler are filtered, scored and bound through koord-extender
#     over HTTPS (its metrics count the binds);
#  3. a client that opens a connection and never starts the handshake does not hold the server up.
# Usage: https_e2e_test.sh KOORD_EXTENDER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: https_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
ns=koord-e2e-https
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete nodes -l koord.test/e2e-https=true --wait=false >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -40 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
https() { curl -s --max-time 5 --cacert "$work/tls.crt" "$@"; }

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=koord-extender \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$work/tls.key" -out "$work/tls.crt" 2>/dev/null
kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl create namespace "$ns" >/dev/null
cat > "$work/extender-config.yaml" <<YAML
apiVersion: config.koordinator.sh/v1alpha1
kind: KoordExtenderConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG
server:
  address: "127.0.0.1:$port"
  tlsCertFile: $work/tls.crt
  tlsKeyFile: $work/tls.key
leaderElection:
  leaderElect: false
YAML
"$extender_bin" --config "$work/extender-config.yaml" >>"$work/extender.log" 2>&1 &
extender_pid=$!
wait_for 30 "koord-extender ready over HTTPS" https -f "https://127.0.0.1:$port/readyz" ||
  { fail "koord-extender did not become ready over HTTPS"; exit 1; }

# 1. Verified HTTPS; plain HTTP refused.
verify="$(https -o /dev/null -w '%{http_code} %{ssl_verify_result}' "https://127.0.0.1:$port/readyz")"
[ "$verify" = "200 0" ] && pass "1: /readyz over HTTPS, certificate verified" ||
  fail "1: /readyz over HTTPS answered '$verify' (want '200 0')"
if plain="$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")"; then
  fail "1: plain HTTP to the TLS port was answered ($plain)"
else
  pass "1: plain HTTP to the TLS port gets no answer"
fi
kill -0 "$extender_pid" && https -f "https://127.0.0.1:$port/healthz" >/dev/null &&
  pass "1: koord-extender still serving" || fail "1: koord-extender stopped serving"

# 2. kube-scheduler over HTTPS: the shipped configuration, pointed at https:// with the CA.
{ echo "clientConnection:"; echo "  kubeconfig: @KUBECONFIG@";
  sed -e "s|http://127.0.0.1:10262|https://127.0.0.1:$port|g" \
      -e "s|    enableHTTPS: false|    enableHTTPS: true\n    tlsConfig:\n      caFile: $work/tls.crt|" \
      "$KOORD_SOURCE_DIR/deploy/scheduler-config/scheduler-config.yaml"; } > "$work/scheduler-config.yaml"
grep -q "caFile: $work/tls.crt" "$work/scheduler-config.yaml" || { fail "2: could not set the CA"; exit 1; }
bash "$cluster_sh" start-scheduler "$KOORD_TEST_CLUSTER_DIR" "$work/scheduler-config.yaml" >/dev/null
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "e2e-https-node", "labels": {"koord.test/e2e-https": "true"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
YAML
kubectl wait --for=condition=Ready node/e2e-https-node --timeout=60s >/dev/null
for i in 0 1 2; do
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "https-$i", "namespace": "$ns"},
 "spec": {"schedulerName": "koord-scheduler",
   "nodeSelector": {"koord.test/e2e-https": "true"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}
YAML
done
all_bound() {
  [ "$(kubectl get pods -n "$ns" -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' |
       grep -c '^e2e-https-node$')" = 3 ]
}
wait_for 90 "three pods bound" all_bound && pass "2: three pods bound through kube-scheduler" ||
  fail "2: pods not bound: $(kubectl get pods -n "$ns" -o wide 2>&1 | tail -n +2)"
binds="$(https "https://127.0.0.1:$port/metrics" |
  awk '/^koord_extender_verb_duration_seconds_count\{.*verb="bind"/ {s += $2} END {print s + 0}')"
[ "${binds:-0}" -ge 3 ] && pass "2: koord-extender bound them over HTTPS ($binds binds)" ||
  fail "2: koord-extender's metrics count $binds binds (want >= 3)"

# 3. A connection that never starts its handshake does not hold the server up.
python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
time.sleep(15)
PY
silent=$!
sleep 0.5
https -f "https://127.0.0.1:$port/healthz" >/dev/null && pass "3: serving beside a silent connection" ||
  fail "3: a silent connection held the server up"
kill "$silent" 2>/dev/null || true
wait "$silent" 2>/dev/null || true

[ "$failures" -eq 0 ] || exit 1
