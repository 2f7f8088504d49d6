#!/usr/bin/env bash
# koord-agent's ServiceAccount on the real kube-apiserver, without and then with the chart's
# ValidatingAdmissionPolicy koord-agent-node-objects (templates/agent-admission-policy.yaml) and
# RBAC as the chart renders it. The agent on node A is played by a token bound to a pod on lp-agent-a
# (as the kubelet's token for the koord-agent pod is); it carries the node's name in the user's
# extra (authentication.kubernetes.io/node-name).
#  0. the policy is absent when agent.admissionPolicy=false or agent.enabled=false and refuses to
#     render for Kubernetes < 1.30;
#  1. without the policy, node A's token creates node B's NodeMetric and updates its status, and
#     creates and updates node B's NodeResourceTopology and Device, and a token bound to no node
#     updates them too (what the policy is for: this test fails if the policy does not stop them);
#  2. with the policy: node A's token creates node A's NodeMetric and updates its status, and
#     creates and updates node A's NodeResourceTopology and Device; every create, update and status
#     update of node B's objects is refused naming the policy, and so is every write with a token
#     bound to no node or to a pod on no node; the cluster admin is not limited.
# (RBAC lets the agent write a NodeMetric only through its status: a PUT of the NodeMetric itself
# is refused by RBAC before the policy sees it, so only status updates are tried for it.)
# Usage: agent_policy_test.sh   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
work="$(mktemp -d)"
policy=koord-agent-node-objects
label=koord.test/least-privilege-agent
node_a=lp-agent-a
node_b=lp-agent-b
node_c=lp-agent-c        # no such node
# shellcheck source=test/e2e/lib/checks.sh
source "$KOORD_SOURCE_DIR/test/e2e/lib/checks.sh"
# shellcheck source=test/integration/least_privilege/lib.sh
source "$KOORD_SOURCE_DIR/test/integration/least_privilege/lib.sh"
kinds=(nodemetrics.slo.koordinator.sh noderesourcetopologies.topology.node.k8s.io devices.scheduling.koordinator.sh)
# updates KIND: whether RBAC lets the agent PUT the object itself (not NodeMetric: its status only).
updates() { [ "$1" != nodemetrics.slo.koordinator.sh ]; }
cleanup() {
  kubectl delete -f "$work/policy.yaml" --ignore-not-found >/dev/null 2>&1 || true
  for kind in "${kinds[@]}"; do
    kubectl delete "$kind" "$node_a" "$node_b" "$node_c" --ignore-not-found >/dev/null 2>&1 || true
  done
  kubectl delete pod -n koordinator-system koord-agent-lp-a koord-agent-lp-nowhere --force --grace-period=0 --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete nodes -l "$label=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  kubectl delete -f "$work/rbac.yaml" --ignore-not-found >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 0. The chart.
render agent-admission-policy.yaml > "$work/policy.yaml" || fail "helm template: templates/agent-admission-policy.yaml"
render agent-rbac.yaml > "$work/rbac.yaml"
grep -q "name: $policy" "$work/policy.yaml" && pass "the chart renders $policy by default" || fail "no $policy in the chart"
[ -z "$(render agent-admission-policy.yaml -- --set agent.admissionPolicy=false 2>/dev/null)" ] &&
  [ -z "$(render agent-admission-policy.yaml -- --set agent.enabled=false 2>/dev/null)" ] &&
  pass "agent.admissionPolicy=false or agent.enabled=false: no policy" || fail "the policy renders with agent.admissionPolicy=false or agent.enabled=false"
if out="$(render agent-admission-policy.yaml -- --kube-version 1.29.0 --set scheduler.admissionPolicy=false 2>&1)"; then
  fail "the policy rendered for Kubernetes 1.29"
else
  grep -q "agent.admissionPolicy needs Kubernetes >= 1.30" <<<"$out" && pass "Kubernetes 1.29: refused, naming agent.admissionPolicy" ||
    fail "Kubernetes 1.29: $out"
fi
# With both policies off the chart still installs on Kubernetes 1.29 (its kubeVersion allows 1.28).
if out="$(render -- --kube-version 1.29.0 --set scheduler.admissionPolicy=false --set agent.admissionPolicy=false 2>&1)" &&
   ! grep -q ValidatingAdmissionPolicy <<<"$out"; then
  pass "Kubernetes 1.29 with both policies off: renders, without policies"
else
  fail "Kubernetes 1.29 with both policies off: $(tail -3 <<<"$out")"
fi

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl apply -f "$work/rbac.yaml" >/dev/null
kubectl delete -f "$work/policy.yaml" --ignore-not-found >/dev/null
kwok_node "$node_a" 4 8Gi "$label"
kwok_node "$node_b" 4 8Gi "$label"
# The agent's pod on node A, and one on no node (never scheduled).
bound_pod koordinator-system koord-agent-lp-a koord-agent "$node_a"
bound_pod koordinator-system koord-agent-lp-nowhere koord-agent -
sa_kubeconfig "$work/agent-a.kubeconfig" koord-agent --bound-object-kind Pod --bound-object-name koord-agent-lp-a
sa_kubeconfig "$work/unbound.kubeconfig" koord-agent
sa_kubeconfig "$work/nowhere.kubeconfig" koord-agent --bound-object-kind Pod --bound-object-name koord-agent-lp-nowhere
as_a() { kubectl --kubeconfig "$work/agent-a.kubeconfig" "$@"; }
as_unbound() { kubectl --kubeconfig "$work/unbound.kubeconfig" "$@"; }
as_nowhere() { kubectl --kubeconfig "$work/nowhere.kubeconfig" "$@"; }
node_claim() { "$@" auth whoami -o jsonpath='{.status.userInfo.extra.authentication\.kubernetes\.io/node-name}'; }
[ "$(node_claim as_a)" = "[\"$node_a\"]" ] && pass "node A's token carries node-name $(node_claim as_a)" ||
  fail "node A's token: node-name '$(node_claim as_a)'"
[ -z "$(node_claim as_unbound)$(node_claim as_nowhere)" ] && pass "the unbound token and the token of the pod on no node carry no node-name" ||
  fail "node-name of the unbound token '$(node_claim as_unbound)', of the pod on no node '$(node_claim as_nowhere)'"

# Objects as koord-agent writes them (agent/reporters/): named after the node.
object() {  # KIND NODE [MARK]: the JSON of a new object; MARK makes it differ from the last one
  local mark="${3:-0}"
  case "$1" in
    nodemetrics.slo.koordinator.sh)
      echo "{\"apiVersion\": \"slo.koordinator.sh/v1alpha1\", \"kind\": \"NodeMetric\", \"metadata\": {\"name\": \"$2\", \"labels\": {\"lp-mark\": \"$mark\"}}, \"spec\": {}}" ;;
    noderesourcetopologies.topology.node.k8s.io)
      echo "{\"apiVersion\": \"topology.node.k8s.io/v1alpha1\", \"kind\": \"NodeResourceTopology\", \"metadata\": {\"name\": \"$2\", \"labels\": {\"lp-mark\": \"$mark\"}}, \"topologyPolicies\": [\"None\"], \"zones\": []}" ;;
    devices.scheduling.koordinator.sh)
      echo "{\"apiVersion\": \"scheduling.koordinator.sh/v1alpha1\", \"kind\": \"Device\", \"metadata\": {\"name\": \"$2\", \"labels\": {\"lp-mark\": \"$mark\"}}, \"spec\": {\"devices\": []}}" ;;
  esac
}
# create AS KIND NODE; update AS KIND NODE MARK (a read-modify-write, as the agent's reporters do);
# update_status AS NODE MARK (NodeMetric's status).
create() { object "$2" "$3" | "$1" create -f - ; }
update() {
  kubectl get "$2" "$3" -o json | python3 -c 'import json,sys; o=json.load(sys.stdin); o["metadata"].setdefault("labels",{})["lp-mark"]=sys.argv[1]; print(json.dumps(o))' "$4" |
    "$1" replace -f -
}
update_status() {
  kubectl get nodemetrics.slo.koordinator.sh "$2" -o json |
    python3 -c 'import json,sys; o=json.load(sys.stdin); o["status"]={"updateTime": "2026-01-01T00:00:%02dZ" % int(sys.argv[1])}; print(json.dumps(o))' "$3" |
    "$1" replace --subresource=status -f -
}
mark() { kubectl get "$1" "$2" -o jsonpath='{.metadata.labels.lp-mark}'; }

# 1. Without the policy: node A's token writes node B's objects; so does a token bound to no node.
for kind in "${kinds[@]}"; do
  expect_allowed "(no policy) node A's token creates $kind/$node_b" create as_a "$kind" "$node_b"
  updates "$kind" || continue
  expect_allowed "(no policy) node A's token updates $kind/$node_b" update as_a "$kind" "$node_b" 1
  expect_allowed "(no policy) the unbound token updates $kind/$node_b" update as_unbound "$kind" "$node_b" 2
  [ "$(mark "$kind" "$node_b")" = 2 ] && pass "(no policy) $kind/$node_b holds the last write" || fail "(no policy) $kind/$node_b: mark $(mark "$kind" "$node_b")"
done
expect_allowed "(no policy) node A's token updates NodeMetric $node_b's status" update_status as_a "$node_b" 1
for kind in "${kinds[@]}"; do kubectl delete "$kind" "$node_b" >/dev/null; done

# 2. With the policy.
grep -q "name: $policy" "$work/policy.yaml" && kubectl apply -f "$work/policy.yaml" >/dev/null ||
  { fail "the chart has no $policy to apply"; exit 1; }
probe() { object nodemetrics.slo.koordinator.sh "$node_b" | as_a create --dry-run=server -f -; }
wait_policy_active "$policy" 60 probe &&
  pass "policy $policy in force" || { fail "policy $policy not in force"; exit 1; }
for kind in "${kinds[@]}"; do
  expect_allowed "node A's token creates $kind/$node_a" create as_a "$kind" "$node_a"
  if updates "$kind"; then
    expect_allowed "node A's token updates $kind/$node_a" update as_a "$kind" "$node_a" 1
    [ "$(mark "$kind" "$node_a")" = 1 ] && pass "$kind/$node_a holds node A's update" || fail "$kind/$node_a: mark $(mark "$kind" "$node_a")"
  fi
  expect_refused "node A's token creates $kind/$node_b" "$policy" "on node $node_a may write only the .* named $node_a, not $node_b" -- \
    create as_a "$kind" "$node_b"
  kubectl get "$kind" "$node_b" >/dev/null 2>&1 && fail "$kind/$node_b exists after a refused create" || pass "$kind/$node_b was not created"
  object "$kind" "$node_b" 5 | kubectl create -f - >/dev/null && pass "the cluster admin creates $kind/$node_b (not limited)"
  if updates "$kind"; then
    expect_refused "node A's token updates $kind/$node_b" "$policy" "not $node_b" -- update as_a "$kind" "$node_b" 6
    [ "$(mark "$kind" "$node_b")" = 5 ] && pass "$kind/$node_b unchanged" || fail "$kind/$node_b: mark $(mark "$kind" "$node_b")"
  fi
  for who in unbound nowhere; do
    updates "$kind" && expect_refused "the $who token updates $kind/$node_a" "$policy" "only with a token bound to a pod on a node" -- \
      update "as_$who" "$kind" "$node_a" 7
    expect_refused "the $who token creates $kind/$node_c" "$policy" "only with a token bound to a pod on a node" -- \
      create "as_$who" "$kind" "$node_c"
  done
done
expect_allowed "node A's token updates NodeMetric $node_a's status" update_status as_a "$node_a" 2
expect_refused "node A's token updates NodeMetric $node_b's status" "$policy" "not $node_b" -- update_status as_a "$node_b" 3
expect_refused "the unbound token updates NodeMetric $node_a's status" "$policy" "only with a token bound" -- update_status as_unbound "$node_a" 4

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "least_privilege agent: all checks passed"
