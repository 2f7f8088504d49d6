#!/usr/bin/env bash
# koord-manager end to end on the real control plane: two replicas campaign for one Lease.
#  A. both start (distinct --listen-address ports); exactly one leads: the Lease's holderIdentity
#     is the identity the leader logged, koord_manager_leader is 1 on it and 0 on the other; both
#     answer /healthz and /readyz (a follower is ready too).
#  B. SIGKILL of the leader (no release): the other replica takes the Lease over once the lease
#     duration has passed since it last saw a renewal (checked: within lease duration + 2 s) and
#     reports koord_manager_leader 1.
#  C. SIGTERM of the remaining replica: it exits 0 and releases the Lease (empty holderIdentity).
# Short timings: --leader-elect-lease-duration 4s, renew deadline 3s, retry period 500ms.
# Usage: manager_e2e_test.sh KOORD_MANAGER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
manager_bin="${1:?usage: manager_e2e_test.sh KOORD_MANAGER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
# shellcheck source=test/e2e/lib/checks.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/checks.sh"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
work="$(mktemp -d)"
lease_ns=koordinator-system
lease=koord-manager-e2e
lease_seconds=4
pids=("" "")
ports=("$(free_port)" "$(free_port)")

cleanup() {
  for pid in "${pids[@]}"; do
    if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  kubectl delete lease -n "$lease_ns" "$lease" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- lease"; kubectl get lease -n "$lease_ns" "$lease" -o yaml 2>/dev/null || true
    for i in 0 1; do echo "--- koord-manager $i log (tail)"; tail -30 "$work/manager-$i.log" 2>/dev/null || true; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

kubectl get namespace "$lease_ns" >/dev/null 2>&1 || kubectl create namespace "$lease_ns" >/dev/null
# koord's CRDs: the controllers' informers (NodeSLO, NodeMetric, Device, ...) must sync before
# /readyz answers 200.
kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl delete lease -n "$lease_ns" "$lease" >/dev/null 2>&1 || true

start_manager() {  # index
  "$manager_bin" --kubeconfig "$KUBECONFIG" --listen-address "127.0.0.1:${ports[$1]}" \
    --leader-elect-resource-name "$lease" --leader-elect-resource-namespace "$lease_ns" \
    --leader-elect-lease-duration "${lease_seconds}s" --leader-elect-renew-deadline 3s \
    --leader-elect-retry-period 500ms --webhook-port 0 >>"$work/manager-$1.log" 2>&1 &
  pids[$1]=$!
}
get() { curl -sf "http://127.0.0.1:${ports[$1]}$2"; }  # index path
leader_metric() { get "$1" /metrics | awk '$1 == "koord_manager_leader" {print $2}'; }
is_leader() { [ "$(leader_metric "$1")" = "1" ]; }
holder() { kubectl get lease -n "$lease_ns" "$lease" -o jsonpath='{.spec.holderIdentity}' 2>/dev/null; }
# The identity a replica logged when it started serving.
identity_of() { grep -o '"identity":"[^"]*"\|identity=[^ ]*' "$work/manager-$1.log" | head -1 | sed 's/.*identity[":=]*//; s/"$//'; }
alive() { kill -0 "${pids[$1]}" 2>/dev/null; }

# A. two replicas, one leader.
start_manager 0
start_manager 1
for i in 0 1; do
  wait_for 30 "koord-manager $i /readyz" get "$i" /readyz && pass "replica $i answers /readyz" ||
    fail "replica $i never became ready"
  get "$i" /healthz >/dev/null && pass "replica $i answers /healthz" || fail "replica $i /healthz"
done
one_leader() { [ "$( (is_leader 0 && echo x; is_leader 1 && echo x) | wc -l)" = 1 ]; }
wait_for 30 "exactly one leader" one_leader && pass "exactly one replica reports koord_manager_leader 1" ||
  fail "leader metrics: replica 0 '$(leader_metric 0)', replica 1 '$(leader_metric 1)'"
leader=0; is_leader 1 && leader=1
follower=$((1 - leader))
sleep 1
one_leader && pass "still exactly one leader a second later" || fail "the leader changed or doubled"
[ "$(leader_metric "$follower")" = "0" ] && pass "the follower reports koord_manager_leader 0" ||
  fail "follower metric '$(leader_metric "$follower")'"
leader_id="$(identity_of "$leader")"
follower_id="$(identity_of "$follower")"
[ -n "$leader_id" ] && [ "$(holder)" = "$leader_id" ] &&
  pass "the Lease's holderIdentity is the leader's identity ($leader_id)" ||
  fail "holderIdentity '$(holder)', leader identity '$leader_id'"
get "$follower" /readyz >/dev/null && pass "the follower is ready" || fail "the follower is not ready"
grep -q "started leading" "$work/manager-$leader.log" && pass "the leader logged that it started leading" ||
  fail "no 'started leading' line in the leader's log"

# B. SIGKILL of the leader: the follower takes over within the lease duration.
killed_at=$(date +%s.%N)
kill -9 "${pids[$leader]}"; wait "${pids[$leader]}" 2>/dev/null || true
pids[$leader]=""
if wait_for 20 "the follower to lead" is_leader "$follower"; then
  took=$(python3 -c "import time; print(f'{time.time() - $killed_at:.1f}')")
  echo "handover took ${took}s (lease duration ${lease_seconds}s)"
  if python3 -c "import sys; sys.exit(0 if $took <= $lease_seconds + 2 else 1)"; then
    pass "the follower took over in ${took}s, within the lease duration + 2 s"
  else
    fail "the follower took ${took}s to take over (lease duration ${lease_seconds}s)"
  fi
else
  fail "the follower never took over"
fi
[ "$(holder)" = "$follower_id" ] && pass "the Lease's holderIdentity is now the follower's" ||
  fail "holderIdentity '$(holder)', want '$follower_id'"
get "$follower" /readyz >/dev/null && pass "the new leader is ready" || fail "the new leader is not ready"

# C. SIGTERM: a clean exit that releases the Lease.
kill -TERM "${pids[$follower]}"
status=0
wait "${pids[$follower]}" || status=$?
pids[$follower]=""
[ "$status" = 0 ] && pass "SIGTERM: koord-manager exited 0" || fail "SIGTERM: exit status $status"
[ "$(holder)" = "" ] && pass "SIGTERM released the Lease (empty holderIdentity)" ||
  fail "holderIdentity after SIGTERM: '$(holder)'"
grep -q "stopped leading" "$work/manager-$follower.log" && pass "it logged that it stopped leading" ||
  fail "no 'stopped leading' line"

[ "$failures" -eq 0 ] || exit 1
