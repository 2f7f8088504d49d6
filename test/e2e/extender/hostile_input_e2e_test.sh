#!/usr/bin/env bash
# koord-extender against what a hostile process on the same host can send it (docs/security.md),
# with the real control plane behind it and the shipped defaults (maxRequestBytes 1 MiB,
# maxBufferedBytes 4 MiB, 512 connections):
#  1. JSON nested 100,000 objects or 300,000 arrays deep under an unknown field of the Pod or of a
#     Node, sent to each verb, is refused with 400 naming the limit, and the process lives on;
#  2. a pod whose containers ask cpu 100 and -99 is refused by filter with the field named;
#  3. twelve requests at the cap at once, each decoding into as many small objects as fits: four
#     are held, the rest answered 503; resident memory peaks well under the chart's limit and is
#     back within a few MB of where it was once they end; bodies over the cap are never kept;
#  4. 520 idle connections and 100 that stall half way through their head do not lock out
#     /healthz, and HEAD /healthz answers like GET.
# Usage: hostile_input_e2e_test.sh KOORD_EXTENDER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: hostile_input_e2e_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
work="$(mktemp -d)"
hostile="$KOORD_SOURCE_DIR/test/e2e/lib/hostile_http.py"
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
cleanup() {
  stop_extender
  if [ "$failures" -ne 0 ]; then
    echo "--- koord-extender log (tail)"; tail -40 "$work/extender.log" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
value() { sed -n "s/^$1=//p" <<<"$2"; }  # KEY OUTPUT

apply_crds
cat > "$work/extender-config.yaml" <<YAML
apiVersion: config.koordinator.sh/v1alpha1
kind: KoordExtenderConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG
server:
  address: "127.0.0.1:$port"
leaderElection:
  leaderElect: false
YAML
start_extender && pass "koord-extender ready" || { fail "koord-extender did not become ready"; exit 1; }

# 1. Deep nesting
out="$(python3 "$hostile" deep "$port" /scheduler/filter /scheduler/prioritize /scheduler/preempt /scheduler/bind)"
refused="$(grep -c '\.status=400$' <<<"$out" || true)"
named="$(grep -c '\.names_limit=True$' <<<"$out" || true)"
[ "$refused" = 12 ] && [ "$named" = 12 ] &&
  pass "1: deep JSON to every verb: 12 of 12 answered 400 naming the limit" ||
  fail "1: deep JSON: $refused of 12 answered 400, $named named the limit: $out"
kill -0 "$extender_pid" && curl -sf "http://127.0.0.1:$port/healthz" >/dev/null &&
  pass "1: koord-extender still serving" || fail "1: koord-extender died on deep JSON"

# 2. Negative requests
body='{"Pod":{"metadata":{"name":"neg","namespace":"default","uid":"u-neg"},"spec":{"containers":[
{"name":"a","resources":{"requests":{"cpu":"100"}}},{"name":"b","resources":{"requests":{"cpu":"-99"}}}]}},
"NodeNames":["n1"]}'
answer="$(curl -s -X POST -H 'Content-Type: application/json' --data "$body" "http://127.0.0.1:$port/scheduler/filter")"
grep -q 'spec.containers\[1\].resources.requests\[cpu\]: Invalid value: \\"-99\\": must be greater than or equal to 0' <<<"$answer" &&
  pass "2: filter refuses cpu 100 + -99, naming the field" || fail "2: filter answered $answer"

# 3. Memory: a warm-up burst, then the measured one.
pid="$extender_pid"
python3 "$hostile" bodies "$port" POST /scheduler/filter --connections 12 --bytes 1000000 --stall 2 --valid-json >/dev/null
out="$(python3 "$hostile" bodies "$port" POST /scheduler/filter --connections 12 --bytes 1000000 --stall 3 --pid "$pid" --valid-json)"
echo "$out" | sed 's/^/  /'
before="$(value rss_before_kib "$out")"; peak="$(value rss_peak_kib "$out")"; after="$(value rss_after_kib "$out")"
statuses="$(value statuses "$out")"
[[ "$statuses" == *"503:"* ]] && pass "3: requests past the 4 MiB budget answered 503 ($statuses)" ||
  fail "3: no request was refused for the budget ($statuses)"
[ "$peak" -le $((320 * 1024)) ] && pass "3: peak resident memory $((peak / 1024)) MiB (chart limit 512 MiB)" ||
  fail "3: peak resident memory $((peak / 1024)) MiB"
[ "$after" -le $((before + 8 * 1024)) ] &&
  pass "3: resident memory back to $((after / 1024)) MiB after the burst (before: $((before / 1024)) MiB)" ||
  fail "3: resident memory $((after / 1024)) MiB after the burst, $((before / 1024)) MiB before"
out="$(python3 "$hostile" bodies "$port" POST /scheduler/filter --connections 12 --bytes 33554432 --stall 2 --pid "$pid")"
before="$(value rss_before_kib "$out")"; peak="$(value rss_peak_kib "$out")"
[ "$(value statuses "$out")" = "413:12" ] && [ "$peak" -le $((before + 16 * 1024)) ] &&
  pass "3: twelve 32 MiB bodies answered 413, peak $((peak / 1024)) MiB (before: $((before / 1024)) MiB)" ||
  fail "3: 32 MiB bodies: $(tr '\n' ' ' <<<"$out")"

# 4. Connection floods
out="$(python3 "$hostile" flood "$port" /healthz --idle 520 --slow 100 --probes 20)"
[ "$(value probes_ok "$out")" = 20 ] &&
  pass "4: /healthz answered 20 of 20 probes with $(value opened "$out") idle and stalled connections open" ||
  fail "4: flood: $(tr '\n' ' ' <<<"$out")"
[ "$(curl -s -o /dev/null -w '%{http_code}' -I "http://127.0.0.1:$port/healthz")" = 200 ] &&
  pass "4: HEAD /healthz answers 200" || fail "4: HEAD /healthz"
kill -0 "$extender_pid" && pass "koord-extender alive after every probe" || fail "koord-extender died"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "hostile input e2e: all checks passed"
