#!/usr/bin/env bash
# koord-scheduler's ServiceAccount on the real kube-apiserver, without and then with the chart's
# ValidatingAdmissionPolicy koord-scheduler-pod-writes (templates/scheduler-admission-policy.yaml),
# RBAC as the chart renders it, and a token bound to a pod as the chart's pod has:
#  0. the annotations the policy lets the account change are exactly the keys koord-extender's
#     PreBind plugins put in the bind patch (read from extender/ and include/koord/api/), and no
#     plugin patches labels; the policy is absent when scheduler.admissionPolicy=false and refuses
#     to render for Kubernetes < 1.30;
#  1. without the policy, the account changes a container image of a pod in another namespace, a
#     foreign annotation, and a label and the Ready condition through pods/status (what the policy
#     is for: this test fails if the policy does not stop them);
#  2. with the policy, the same requests (and spec, label and finalizer changes, and annotations
#     on bound pods or pods of another scheduler) are refused, each naming the policy, and the pod
#     is unchanged; writing and removing koord-extender's result annotation on a pending pod of
#     koord-scheduler, and the PodScheduled condition through pods/status, are allowed;
#  3. kube-scheduler and koord-extender, both running as that account under the policy: a pod that
#     owns a Reservation is bound by koord-extender's bind, which writes reservation-allocated
#     first; an unschedulable pod gets kube-scheduler's PodScheduled=False; a preemption (the
#     victim's DisruptionTarget condition, its deletion, the preemptor's nominatedNodeName) ends
#     with the preemptor bound; and neither logged a request the policy denied.
# Usage: scheduler_policy_test.sh KOORD_EXTENDER_BINARY   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
extender_bin="${1:?usage: scheduler_policy_test.sh KOORD_EXTENDER_BINARY}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
work="$(mktemp -d)"
policy=koord-scheduler-pod-writes
ns=koord-lp-sched        # the scheduler's pods
other=koord-lp-victim    # another team's namespace
label=koord.test/least-privilege-scheduler
# shellcheck source=test/e2e/lib/extender.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/extender.sh"
# shellcheck source=test/integration/least_privilege/lib.sh
source "$KOORD_SOURCE_DIR/test/integration/least_privilege/lib.sh"
scheduler_started=0
cleanup() {
  stop_extender
  [ "$scheduler_started" -eq 0 ] || bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
  if [ "$failures" -ne 0 ]; then
    echo "--- koord-extender log (tail)"; tail -30 "$work/extender.log" 2>/dev/null || true
    echo "--- kube-scheduler log (tail)"; tail -30 "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log" 2>/dev/null || true
  fi
  kubectl delete -f "$work/policy.yaml" --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete reservation lp-reservation --ignore-not-found --wait=false >/dev/null 2>&1 || true
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete pods -n "$other" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete pod -n koordinator-system koord-scheduler-lp --force --grace-period=0 --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" "$other" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  kubectl delete priorityclass lp-low lp-high --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete nodes -l "$label=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  kubectl delete -f "$work/rbac.yaml" --ignore-not-found >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 0. The chart: the policy's result annotations against koord-extender's sources; the switch; the
#    Kubernetes version it needs.
render scheduler-admission-policy.yaml > "$work/policy.yaml" || fail "helm template: templates/scheduler-admission-policy.yaml"
render rbac.yaml > "$work/rbac.yaml"
if python3 - "$work/policy.yaml" "$KOORD_SOURCE_DIR" <<'PY'; then pass "the policy's result annotations are the keys koord-extender's bind patch writes"; else fail "result annotations"; fi
import pathlib, re, sys
text = open(sys.argv[1]).read()
src = pathlib.Path(sys.argv[2])
m = re.search(r"- name: resultAnnotations\s+expression: \"\[(.*?)\]\"", text)
if not m:
    print("  no resultAnnotations variable in the rendered policy"); sys.exit(1)
allowed = set(re.findall(r"'([^']+)'", m.group(1)))
# Every write into a BindPatch (extender/framework/plugin.hpp) from the plugins and the framework.
constants = dict(re.findall(r'inline constexpr std::string_view (k\w+)\s*=\s*"([^"]*)"',
                            (src / "include/koord/api/well_known.hpp").read_text()))
written, labels, unresolved = set(), [], []
for path in sorted((src / "extender").rglob("*.cpp")):
    if "simulator" in path.parts:
        continue
    code = path.read_text()
    for hit in re.finditer(r"\b\w*patch\w*\.(annotations|labels)\[([^\]]*)\]", code, re.I):
        where = f"{path.relative_to(src)}: {hit.group(0)}"
        if hit.group(1) == "labels":
            labels.append(where); continue
        key = re.fullmatch(r"\s*std::string\(\s*api::(k\w+)\s*\)\s*", hit.group(2))
        if not key or key.group(1) not in constants:
            unresolved.append(where); continue
        written.add(constants[key.group(1)])
ok = True
if not written:
    print("  found no annotation that the bind patch writes"); ok = False
if written != allowed:
    print(f"  policy allows {sorted(allowed)}, the bind patch writes {sorted(written)}"); ok = False
for what, items in (("label writes (the policy allows none)", labels), ("keys not resolved", unresolved)):
    for item in items:
        print(f"  {what}: {item}"); ok = False
sys.exit(0 if ok else 1)
PY
[ -z "$(render scheduler-admission-policy.yaml -- --set scheduler.admissionPolicy=false 2>/dev/null)" ] &&
  pass "scheduler.admissionPolicy=false renders no policy" || fail "scheduler.admissionPolicy=false still renders the policy"
if out="$(render scheduler-admission-policy.yaml -- --kube-version 1.29.0 --set agent.admissionPolicy=false 2>&1)"; then
  fail "the policy rendered for Kubernetes 1.29"
else
  grep -q "scheduler.admissionPolicy needs Kubernetes >= 1.30" <<<"$out" && pass "Kubernetes 1.29: refused, naming scheduler.admissionPolicy" ||
    fail "Kubernetes 1.29: $out"
fi

# The cluster side: koordinator-system, the CRDs, the account's RBAC as the chart has it, two fake
# nodes, the scheduler's pod (a token bound to it, as the chart's Deployment's pod has one).
kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
apply_crds
kubectl apply -f "$work/rbac.yaml" >/dev/null
kubectl create namespace "$ns" >/dev/null
kubectl create namespace "$other" >/dev/null
kwok_node lp-node-0 4 8Gi "$label"
kwok_node lp-node-1 2 4Gi "$label"
kubectl wait --for=condition=Ready node -l "$label=true" --timeout=60s >/dev/null && pass "two fake nodes Ready"
bound_pod koordinator-system koord-scheduler-lp koord-scheduler lp-node-0
sa_kubeconfig "$work/scheduler.kubeconfig" koord-scheduler --bound-object-kind Pod --bound-object-name koord-scheduler-lp
as_sched() { kubectl --kubeconfig "$work/scheduler.kubeconfig" "$@"; }
whoami="$(as_sched auth whoami -o jsonpath='{.status.userInfo.username}')"
[ "$whoami" = system:serviceaccount:koordinator-system:koord-scheduler ] && pass "the token authenticates as $whoami" ||
  { fail "the token authenticates as '$whoami'"; exit 1; }

# Another team's running pod (placed directly; kwok runs it) and two pending pods: one for
# koord-scheduler, one for another scheduler. No scheduler runs yet, so they stay pending.
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "payments", "namespace": "$other", "labels": {"app": "payments"},
   "annotations": {"example.com/owner": "payments-team"}},
 "spec": {"nodeName": "lp-node-0", "terminationGracePeriodSeconds": 0,
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "registry.example/payments:1.0"}]}}
YAML
while read -r name scheduler; do
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "$name", "namespace": "$ns"},
 "spec": {"schedulerName": "$scheduler", "terminationGracePeriodSeconds": 0,
   "containers": [{"name": "c", "image": "registry.example/app:1"}]}}
YAML
done <<'PODS'
pending koord-scheduler
elsewhere another-scheduler
PODS
kubectl wait --for=jsonpath='{.status.phase}'=Running pod/payments -n "$other" --timeout=60s >/dev/null &&
  pass "another namespace's pod runs"
image() { kubectl get pod -n "$other" payments -o jsonpath='{.spec.containers[0].image}'; }
image_patch() { echo "{\"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"$1\"}]}}"; }
allocated='{"name": "lp-reservation", "uid": "00000000-0000-0000-0000-000000000001"}'
result_patch() { python3 -c 'import json,sys; print(json.dumps({"metadata": {"annotations": {"scheduling.koordinator.sh/reservation-allocated": sys.argv[1]}}}))' "$1"; }

# 1. Without the policy: RBAC alone lets the account rewrite another namespace's pod.
kubectl delete -f "$work/policy.yaml" --ignore-not-found >/dev/null
expect_allowed "(no policy) the image of $other/payments" as_sched patch pod payments -n "$other" -p "$(image_patch evil.example/miner:1)"
[ "$(image)" = evil.example/miner:1 ] && pass "(no policy) the image is now $(image)" || fail "(no policy) image: $(image)"
expect_allowed "(no policy) a foreign annotation on $other/payments" \
  as_sched annotate pod payments -n "$other" --overwrite example.com/owner=attacker
expect_allowed "(no policy) a label through pods/status" \
  status_patch "$work/scheduler.kubeconfig" "$other" payments merge '{"metadata": {"labels": {"app": "attacker"}}}'
expect_allowed "(no policy) the Ready condition through pods/status" \
  status_patch "$work/scheduler.kubeconfig" "$other" payments strategic-merge '{"status": {"conditions": [{"type": "Ready", "status": "False", "reason": "Attacker"}]}}'
# Put back what the attack changed (as the cluster admin).
kubectl patch pod payments -n "$other" -p "$(image_patch registry.example/payments:1.0)" >/dev/null
kubectl label pod payments -n "$other" --overwrite app=payments >/dev/null
kubectl annotate pod payments -n "$other" --overwrite example.com/owner=payments-team >/dev/null

# 2. With the policy.
grep -q "name: $policy" "$work/policy.yaml" && kubectl apply -f "$work/policy.yaml" >/dev/null ||
  { fail "the chart has no $policy to apply"; exit 1; }
wait_policy_active "$policy" 60 as_sched patch pod payments -n "$other" --dry-run=server -p "$(image_patch evil.example/miner:1)" &&
  pass "policy $policy in force" || { fail "policy $policy not in force"; exit 1; }
expect_refused "the image of $other/payments" "$policy" "may not change a pod's spec" -- \
  as_sched patch pod payments -n "$other" -p "$(image_patch evil.example/miner:2)"
[ "$(image)" = registry.example/payments:1.0 ] && pass "the image is still $(image)" || fail "image: $(image)"
expect_refused "a foreign annotation on $other/payments" "$policy" "refused: example.com/owner" -- \
  as_sched annotate pod payments -n "$other" --overwrite example.com/owner=attacker
expect_refused "a foreign annotation removed" "$policy" "refused: example.com/owner" -- \
  as_sched annotate pod payments -n "$other" example.com/owner-
expect_refused "a label" "$policy" "metadata.labels" -- as_sched label pod payments -n "$other" --overwrite app=attacker
expect_refused "a finalizer" "$policy" "metadata.finalizers" -- \
  as_sched patch pod payments -n "$other" --type=merge -p '{"metadata": {"finalizers": ["example.com/hold"]}}'
expect_refused "the pending pod's image" "$policy" "may not change a pod's spec" -- \
  as_sched patch pod pending -n "$ns" -p '{"spec": {"containers": [{"name": "c", "image": "evil.example/miner:1"}]}}'
expect_refused "a label through pods/status" "$policy" "metadata.labels" -- \
  status_patch "$work/scheduler.kubeconfig" "$other" payments merge '{"metadata": {"labels": {"app": "attacker"}}}'
expect_refused "the result annotation through pods/status" "$policy" "not through pods/status" -- \
  status_patch "$work/scheduler.kubeconfig" "$ns" pending merge "$(result_patch "$allocated")"
expect_refused "the Ready condition through pods/status" "$policy" "only the pod conditions PodScheduled and DisruptionTarget" -- \
  status_patch "$work/scheduler.kubeconfig" "$other" payments strategic-merge '{"status": {"conditions": [{"type": "Ready", "status": "False", "reason": "AttackerAgain"}]}}'
expect_refused "status.message through pods/status" "$policy" "status.message" -- \
  status_patch "$work/scheduler.kubeconfig" "$other" payments merge '{"status": {"message": "attacker"}}'
expect_refused "the result annotation on a bound pod" "$policy" "not bound yet" -- \
  as_sched patch pod payments -n "$other" --type=merge -p "$(result_patch "$allocated")"
expect_refused "the result annotation on another scheduler's pod" "$policy" "not bound yet" -- \
  as_sched patch pod elsewhere -n "$ns" --type=merge -p "$(result_patch "$allocated")"
expect_refused "the result annotation and a foreign one together" "$policy" "refused: example.com/x" -- \
  as_sched patch pod pending -n "$ns" --type=merge -p '{"metadata": {"annotations": {"scheduling.koordinator.sh/reservation-allocated": "{}", "example.com/x": "y"}}}'
got="$(kubectl get pod -n "$other" payments -o jsonpath='{.metadata.labels.app} {.metadata.annotations.example\.com/owner} {.metadata.finalizers}')"
[ "$got" = "payments payments-team " ] && pass "$other/payments unchanged (label, annotation, finalizers)" || fail "$other/payments now: $got"
expect_allowed "the result annotation on koord-scheduler's pending pod" \
  as_sched patch pod pending -n "$ns" --type=merge -p "$(result_patch "$allocated")"
expect_allowed "the result annotation changed" \
  as_sched patch pod pending -n "$ns" --type=merge -p "$(result_patch '{"name": "other", "uid": "2"}')"
expect_allowed "the result annotation removed" \
  as_sched patch pod pending -n "$ns" --type=merge -p '{"metadata": {"annotations": {"scheduling.koordinator.sh/reservation-allocated": null}}}'
expect_allowed "PodScheduled and nominatedNodeName through pods/status (what kube-scheduler writes)" \
  status_patch "$work/scheduler.kubeconfig" "$ns" pending strategic-merge '{"status": {"nominatedNodeName": "lp-node-0", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "test"}]}}'
kubectl delete pod -n "$ns" pending elsewhere --force --grace-period=0 >/dev/null 2>&1

# 3. kube-scheduler (the shipped configuration) and koord-extender, both as the account, under the policy.
cat > "$work/extender-config.yaml" <<YAML
apiVersion: config.koordinator.sh/v1alpha1
kind: KoordExtenderConfiguration
clientConnection:
  kubeconfig: $work/scheduler.kubeconfig
server:
  address: "127.0.0.1:$port"
leaderElection:
  leaderElect: false
YAML
start_extender && pass "koord-extender ready, as koord-scheduler's account" || { fail "koord-extender did not become ready"; exit 1; }
{ echo "clientConnection:"; echo "  kubeconfig: $work/scheduler.kubeconfig";
  sed -e "s|127.0.0.1:10262|127.0.0.1:$port|g" -e "s|leaderElect: true|leaderElect: false|" \
    "$KOORD_SOURCE_DIR/deploy/scheduler-config/scheduler-config.yaml"; } > "$work/scheduler-config.yaml"
scheduler_started=1
bash "$cluster_sh" start-scheduler "$KOORD_TEST_CLUSTER_DIR" "$work/scheduler-config.yaml" >/dev/null
pass "kube-scheduler started as koord-scheduler's account"
sched_log_start="$(wc -l < "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log")"

placement='"nodeSelector": {"'"$label"'": "true"},
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}]'
# A Reservation of 1 CPU on lp-node-0 for pods labelled app=lp-owner; koord-extender places it.
cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation",
 "metadata": {"name": "lp-reservation"},
 "spec": {"owners": [{"labelSelector": {"matchLabels": {"app": "lp-owner"}}}],
   "template": {"spec": {"nodeName": "lp-node-0", $placement,
     "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "256Mi"}}}]}}}}
YAML
phase() { kubectl get reservation lp-reservation -o jsonpath='{.status.phase}' 2>/dev/null; }
reservation_available() { [ "$(phase)" = Available ]; }
wait_for 30 "lp-reservation Available" reservation_available && pass "lp-reservation Available (status written by koord-extender as the account)" ||
  fail "lp-reservation: phase '$(phase)'"

pod() {  # name app cpu [priorityClassName] [node]
  local extra=""
  [ -n "${4:-}" ] && extra="\"priorityClassName\": \"$4\","
  [ -n "${5:-}" ] && extra="$extra \"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": {\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"koord.test/node\", \"operator\": \"In\", \"values\": [\"$5\"]}]}]}}},"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$1", "namespace": "$ns", "labels": {"app": "$2"}},
 "spec": {"schedulerName": "koord-scheduler", "terminationGracePeriodSeconds": 0, $extra $placement,
   "containers": [{"name": "c", "image": "fake", "resources": {"requests": {"cpu": "$3", "memory": "128Mi"}}}]}}
YAML
}
node_of() { kubectl get pod -n "$ns" "$1" -o jsonpath='{.spec.nodeName}' 2>/dev/null || true; }
bound() { [ -n "$(node_of "$1")" ]; }
scheduled_message() { kubectl get pod -n "$ns" "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}' 2>/dev/null || true; }
has_message() { [ -n "$(scheduled_message "$1")" ]; }

pod owner lp-owner 1
if wait_for 30 "owner bound" bound owner; then
  got="$(kubectl get pod -n "$ns" owner -o jsonpath='{.metadata.annotations.scheduling\.koordinator\.sh/reservation-allocated}')"
  uid="$(kubectl get reservation lp-reservation -o jsonpath='{.metadata.uid}')"
  [ "$(node_of owner)" = lp-node-0 ] && pass "owner bound to $(node_of owner) by koord-extender's bind" || fail "owner on $(node_of owner)"
  python3 -c 'import json,sys; a=json.loads(sys.argv[1]); sys.exit(0 if a.get("name")=="lp-reservation" and a.get("uid")==sys.argv[2] else 1)' "$got" "$uid" &&
    pass "owner carries reservation-allocated $got, patched by koord-extender as the account" ||
    fail "owner's reservation-allocated: '$got' (the reservation's uid $uid)"
else
  fail "owner not bound: $(scheduled_message owner)"
fi

pod too-big nobody 64
wait_for 30 "too-big's PodScheduled message" has_message too-big && pass "unschedulable pod: kube-scheduler wrote PodScheduled: $(scheduled_message too-big)" ||
  fail "too-big has no PodScheduled message"

# Preemption on lp-node-1 (2 CPUs): a low-priority pod holds 1500m; a high-priority one needs 1500m.
kubectl create priorityclass lp-low --value=100 >/dev/null
kubectl create priorityclass lp-high --value=1000 >/dev/null
pod victim lp-victim 1500m lp-low lp-node-1
wait_for 30 "victim bound" bound victim && pass "victim bound to $(node_of victim)" || fail "victim not bound: $(scheduled_message victim)"
victim_uid="$(kubectl get pod -n "$ns" victim -o jsonpath='{.metadata.uid}' 2>/dev/null || true)"
pod preemptor lp-preemptor 1500m lp-high lp-node-1
if wait_for 60 "preemptor bound" bound preemptor; then
  pass "preemptor bound to $(node_of preemptor) after preempting the victim"
  now_uid="$(kubectl get pod -n "$ns" victim -o jsonpath='{.metadata.uid}' 2>/dev/null || true)"
  [ "$now_uid" != "$victim_uid" ] && pass "the victim was deleted by kube-scheduler" || fail "the victim is still there"
else
  fail "preemptor not bound: $(scheduled_message preemptor)"
fi

# Neither program had a request refused by the policy.
denials="$( { tail -n +"$((sched_log_start + 1))" "$KOORD_TEST_CLUSTER_DIR/logs/kube-scheduler.log"; cat "$work/extender.log"; } |
  grep -c "$(denied_by "$policy")" || true)"
[ "$denials" -eq 0 ] && pass "kube-scheduler and koord-extender logged no request denied by $policy" ||
  fail "$denials log lines name a request denied by $policy"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "least_privilege scheduler: all checks passed"
