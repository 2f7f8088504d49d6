# Sourced by the least-privilege tests: the chart's pieces rendered with helm, kubeconfigs that
# authenticate as a ServiceAccount with a TokenRequest token, and checks that a request is
# allowed or refused by a named ValidatingAdmissionPolicy. Expects (set by the caller): work (a
# scratch folder), KOORD_SOURCE_DIR, KOORD_TEST_CLUSTER_DIR with cluster.env sourced (PATH holds
# the control plane's kubectl and helm); uses fail/pass from test/e2e/lib/checks.sh.
# shellcheck shell=bash
# shellcheck source=test/controlplane/kubeconfig.sh
source "$KOORD_SOURCE_DIR/test/controlplane/kubeconfig.sh"
chart="$KOORD_SOURCE_DIR/charts/koordinator"
export HELM_CACHE_HOME="$work/helm-cache" HELM_CONFIG_HOME="$work/helm-config" HELM_DATA_HOME="$work/helm-data"

# render TEMPLATE... [-- HELM_ARGS...]: the chart's templates (names under templates/) as one YAML stream.
render() {
  local args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=(--show-only "templates/$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  # helm warns on stderr about the chart's symbolic links (crds/, files/); show only the rest.
  if ! helm template koord "$chart" "${args[@]}" "$@" 2>"$work/helm.err"; then
    grep -v 'found symbolic link' "$work/helm.err" >&2
    return 1
  fi
}

# sa_kubeconfig FILE SERVICEACCOUNT [kubectl create token flags...]: a kubeconfig that
# authenticates as koordinator-system/SERVICEACCOUNT with a fresh TokenRequest token.
sa_kubeconfig() {
  local file="$1" sa="$2" token
  shift 2
  token="$(kubectl create token "$sa" -n koordinator-system --duration=1h "$@")"
  write_kubeconfig "$file" "https://127.0.0.1:$APISERVER_PORT" "$KOORD_TEST_CLUSTER_DIR/certs/apiserver.crt" "$token"
  printf '%s' "$token" > "$file.token"
}

# status_patch KUBECONFIG NAMESPACE POD TYPE BODY: PATCH pods/NAME/status with the token of a
# kubeconfig from sa_kubeconfig; TYPE is strategic-merge or merge. kubectl patch --subresource=status
# reads the status first, which kube-scheduler's role (patch and update on pods/status, no get)
# does not allow; kube-scheduler itself patches without reading. Fails (showing the answer) when
# the apiserver does not answer 2xx (its answer is the output).
status_patch() {
  curl -sS --fail-with-body --cacert "$KOORD_TEST_CLUSTER_DIR/certs/apiserver.crt" \
    -H "Authorization: Bearer $(cat "$1.token")" -H "Content-Type: application/$4-patch+json" \
    -X PATCH --data "$5" "https://127.0.0.1:$APISERVER_PORT/api/v1/namespaces/$2/pods/$3/status"
}

# The message kube-apiserver gives when the policy's binding denies a request.
denied_by() { echo "ValidatingAdmissionPolicy '$1' with binding '$1' denied request"; }

# expect_allowed WHAT COMMAND...: the command succeeds.
expect_allowed() {
  local what="$1" out
  shift
  if out="$("$@" 2>&1)"; then
    pass "allowed: $what"
  else
    fail "should be allowed: $what: $out"
  fi
}

# expect_refused WHAT POLICY [PATTERN] -- COMMAND...: the command fails, kube-apiserver naming
# POLICY as the one that denied it (and the output matching PATTERN, a grep -E pattern, when given).
expect_refused() {
  local what="$1" policy="$2" pattern="" out
  shift 2
  if [ "$1" != "--" ]; then pattern="$1"; shift; fi
  shift
  if out="$("$@" 2>&1)"; then
    fail "should be refused by $policy: $what (it went through)"
  elif ! grep -qF "$(denied_by "$policy")" <<<"$out"; then
    fail "$what: refused, but not by $policy: $out"
  elif [ -n "$pattern" ] && ! grep -qE "$pattern" <<<"$out"; then
    fail "$what: refused by $policy, but the message does not match '$pattern': $out"
  else
    pass "refused by $policy: $what"
  fi
}

# wait_policy_active POLICY SECONDS COMMAND...: polls COMMAND (a harmless request the policy
# refuses, e.g. a server-side dry run) until POLICY refuses it: kube-apiserver loads a new policy
# and binding within a few seconds.
wait_policy_active() {
  local policy="$1" seconds="$2" out=""
  shift 2
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! out="$("$@" 2>&1)" && grep -qF "$(denied_by "$policy")" <<<"$out"; then
      return 0
    fi
    sleep 0.5
  done
  echo "policy $policy not in force after ${seconds}s; last answer: $out"
  return 1
}

# kwok_node NAME CPU MEMORY LABEL: a fake node kept Ready by kwok, tainted as kwok's nodes are.
kwok_node() {
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$1", "labels": {"$4": "true", "koord.test/node": "$1", "type": "kwok"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}]},
 "status": {"allocatable": {"cpu": "$2", "memory": "$3", "pods": "110"},
            "capacity": {"cpu": "$2", "memory": "$3", "pods": "110"}}}
YAML
}

# bound_pod NAMESPACE NAME SERVICEACCOUNT NODE: a pod placed on NODE directly (no scheduler; kwok
# runs it), for a token bound to it. NODE empty: a pod no scheduler picks up.
bound_pod() {
  local placement='"nodeName": "'"$4"'",'
  [ -n "$4" ] && [ "$4" != "-" ] || placement='"schedulerName": "koord-test-nobody",'
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "$2", "namespace": "$1"},
 "spec": {"serviceAccountName": "$3", $placement "terminationGracePeriodSeconds": 0,
   "automountServiceAccountToken": false,
   "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}],
   "containers": [{"name": "c", "image": "fake"}]}}
YAML
}
