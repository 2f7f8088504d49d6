#!/usr/bin/env bash
# The Helm chart against the real kube-apiserver: `helm lint` passes; `helm template` renders the
# CRDs, the namespace, the four koord PriorityClasses with Koordinator's values and kube-scheduler's
# configuration verbatim from deploy/scheduler-config/; the whole output is accepted by
# `kubectl apply --dry-run=server`; and the ServiceAccount's RBAC, applied for real, allows what
# kube-scheduler and koord-extender do and refuses what they do not need.
# Environment: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR.
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
work="$(mktemp -d)"
export HELM_CACHE_HOME="$work/helm-cache" HELM_CONFIG_HOME="$work/helm-config" HELM_DATA_HOME="$work/helm-data"
chart="$KOORD_SOURCE_DIR/charts/koordinator"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
cleanup() {
  kubectl delete -f "$work/rbac.yaml" --ignore-not-found >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# A python3 with PyYAML (cmake/install-deps.sh installs Debian's python3-yaml).
py=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import yaml' 2>/dev/null; then py="$candidate"; break; fi
done
[ -n "$py" ] || { echo "FAIL: no python3 with PyYAML"; exit 1; }

helm lint "$chart" 2>/dev/null | tail -1 | grep -q '0 chart(s) failed' && pass "helm lint" || fail "helm lint"
helm template koord "$chart" --include-crds > "$work/all.yaml" 2>/dev/null
"$py" - "$work" "$KOORD_SOURCE_DIR" <<'PY' && pass "rendered objects" || fail "rendered objects"
import sys, yaml
work, src = sys.argv[1], sys.argv[2]
docs = [d for d in yaml.safe_load_all(open(f"{work}/all.yaml")) if d]
kinds = {}
for d in docs:
    kinds.setdefault(d["kind"], []).append(d)
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("  not so:", what); ok = False
check(len(kinds.get("CustomResourceDefinition", [])) == 10, "10 CRDs")
check([n["metadata"]["name"] for n in kinds.get("Namespace", [])] == ["koordinator-system"], "namespace koordinator-system")
pcs = {p["metadata"]["name"]: p["value"] for p in kinds.get("PriorityClass", [])}
check(pcs == {"koord-prod": 9000, "koord-mid": 7000, "koord-batch": 5000, "koord-free": 3000}, f"priority classes {pcs}")
cm = kinds["ConfigMap"][0]["data"]
check(yaml.safe_load(cm["scheduler-config.yaml"]) == yaml.safe_load(open(f"{src}/deploy/scheduler-config/scheduler-config.yaml")), "scheduler config verbatim")
ext = yaml.safe_load(cm["koord-extender-config.yaml"])
check(ext["kind"] == "KoordExtenderConfiguration" and ext["server"]["address"] == "127.0.0.1:10262", "extender config")
dep = kinds["Deployment"][0]["spec"]["template"]["spec"]
check([c["name"] for c in dep["containers"]] == ["kube-scheduler", "koord-extender"], "two containers")
check(dep["serviceAccountName"] == "koord-scheduler", "service account")
with open(f"{work}/rbac.yaml", "w") as f:
    yaml.safe_dump_all([d for d in docs if d["kind"] in ("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")], f)
with open(f"{work}/extender-config.yaml", "w") as f:
    f.write(cm["koord-extender-config.yaml"])
sys.exit(0 if ok else 1)
PY

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
if kubectl apply --dry-run=server -f "$work/all.yaml" > "$work/dry-run.txt" 2>&1; then
  pass "kubectl apply --dry-run=server accepts all $(grep -c 'server dry run' "$work/dry-run.txt") objects"
else
  cat "$work/dry-run.txt"; fail "kubectl apply --dry-run=server"
fi

kubectl apply -f "$work/rbac.yaml" >/dev/null
# can-i answers "no" for a resource the server does not know: install koord's CRDs first.
kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
sa=system:serviceaccount:koordinator-system:koord-scheduler
can() { kubectl auth can-i "$@" --as="$sa" 2>/dev/null || true; }
for allowed in "list nodes" "watch pods" "patch pods" "create pods --subresource=binding" "create events" \
               "list reservations.scheduling.koordinator.sh" \
               "update reservations.scheduling.koordinator.sh --subresource=status" \
               "delete reservations.scheduling.koordinator.sh" \
               "update leases.coordination.k8s.io/koord-scheduler -n koordinator-system" \
               "update leases.coordination.k8s.io/koord-extender -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $allowed)" = yes ] && pass "allowed: $allowed" || fail "should be allowed: $allowed"
done
# The reservation loop writes status and deletes expired reservations; it never writes their spec.
for refused in "delete nodes" "update deployments.apps" "create pods" "update nodes" \
               "update reservations.scheduling.koordinator.sh" "create reservations.scheduling.koordinator.sh" \
               "list secrets" "update leases.coordination.k8s.io/other -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $refused)" = no ] && pass "refused: $refused" || fail "should be refused: $refused"
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "chart: all checks passed"
