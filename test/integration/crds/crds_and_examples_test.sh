#!/usr/bin/env bash
# Against the real kube-apiserver: installs every CRD of deploy/crds/, then for every object of
# every file in deploy/examples/ runs create, read, update, status update (where the kind has a
# status subresource) and delete, and checks `kubectl get` printer columns for Reservation and
# PodMigrationJob, and the v1.6.0 Reservation short form served as scheduling.koordinator.sh/v1.
# Environment: KOORD_TEST_CLUSTER_DIR (a cluster started by test/controlplane/cluster.sh),
# KOORD_SOURCE_DIR (the repository).
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
cd "$KOORD_SOURCE_DIR"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

kubectl apply -f deploy/crds/ >/dev/null
kubectl wait --for condition=established --timeout=60s -f deploy/crds/ >/dev/null
pass "every CRD in deploy/crds/ is established"

# The examples need these namespaces; everything the test creates is deleted at the end.
for ns in koordinator-system; do
  kubectl get namespace "$ns" >/dev/null 2>&1 || kubectl create namespace "$ns" >/dev/null
done

# Splits each example into single objects (python3 is installed by cmake/install-deps.sh; the YAML
# parser here is kubectl itself: `kubectl create --dry-run=client -o json`).
objects_dir="$(mktemp -d)"
trap 'rm -rf "$objects_dir"' EXIT
n=0
for file in deploy/examples/*.yaml; do
  # A component config (DeschedulerConfiguration) is not an API object; its loader tests it.
  if grep -q '^kind: DeschedulerConfiguration' "$file"; then
    continue
  fi
  kubectl create --dry-run=client -o json -f "$file" > "$objects_dir/all.json"
  python3 - "$objects_dir" "$(basename "$file" .yaml)" <<'PY'
import json, sys
out_dir, stem = sys.argv[1], sys.argv[2]
text, items, pos = open(f"{out_dir}/all.json").read(), [], 0
decoder = json.JSONDecoder()
while pos < len(text):  # kubectl prints one JSON object per document, back to back
    if text[pos].isspace():
        pos += 1
        continue
    obj, pos = decoder.raw_decode(text, pos)
    items.extend(obj["items"] if obj.get("kind") == "List" else [obj])
for i, item in enumerate(items):
    json.dump(item, open(f"{out_dir}/{stem}.{i}.json", "w"))
PY
  rm "$objects_dir/all.json"
done

# group/kind of every CRD with a status subresource.
kubectl get crd -o json | python3 -c '
import json, sys
for crd in json.load(sys.stdin)["items"]:
    if any("status" in (v.get("subresources") or {}) for v in crd["spec"]["versions"]):
        print(crd["spec"]["group"] + "/" + crd["spec"]["names"]["kind"])' > "$objects_dir/with-status.txt"

for obj in "$objects_dir"/*.json; do
  name_ref="$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["kind"]+"/"+o["metadata"]["name"])' "$obj")"
  label="$(basename "$obj") $name_ref"
  kind="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$obj")"
  if [ "$kind" = Namespace ] && kubectl get -f "$obj" >/dev/null 2>&1; then
    continue
  fi
  if ! kubectl create -f "$obj" >/dev/null; then fail "create $label"; continue; fi
  if ! kubectl get -f "$obj" -o json >/dev/null; then fail "read $label"; fi
  if ! kubectl label -f "$obj" koord.test/updated=true >/dev/null; then fail "update $label"; fi
  if [ "$(kubectl get -f "$obj" -o jsonpath='{.metadata.labels.koord\.test/updated}')" != true ]; then
    fail "update of $label not visible"
  fi
  group_kind="$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["apiVersion"].rpartition("/")[0]+"/"+o["kind"])' "$obj")"
  if grep -qx "$group_kind" "$objects_dir/with-status.txt"; then
    # status subresource: a status write is kept, a status field in a main-resource update is not.
    case "$kind" in
      Reservation | PodMigrationJob) field=nodeName value=koord-test-node ;;
      NodeMetric) field=updateTime value=2026-01-01T00:00:00Z ;;
      *) field="" value="" ;;  # an empty status schema: the write must still be accepted
    esac
    patch='{"status":{}}'
    [ -n "$field" ] && patch="{\"status\":{\"$field\":\"$value\"}}"
    if ! kubectl patch -f "$obj" --subresource=status --type=merge -p "$patch" >/dev/null; then
      fail "status update $label"
    elif [ -n "$field" ] && [ "$(kubectl get -f "$obj" -o jsonpath="{.status.$field}")" != "$value" ]; then
      fail "status update of $label not visible"
    fi
  fi
  pass "create/read/update(/status) $label"
done

# Printer columns as Koordinator has them.
# The header line of `kubectl get`. The whole output is read first: with many objects left by
# other tests, `kubectl get | head -n 1` kills kubectl with SIGPIPE, and pipefail then ends the
# script without a word.
header() { local out; out="$(kubectl get "$1" 2>/dev/null || true)"; sed -n '1{s/  */ /g;s/ $//;p}' <<<"$out"; }
want="NAME PHASE AGE NODE TTL EXPIRES"
got="$(header reservations.scheduling.koordinator.sh)"
[ "$got" = "$want" ] && pass "kubectl get reservation: $got" || fail "reservation columns: got '$got', want '$want'"
want="NAME PHASE STATUS AGE NODE RESERVATION PODNAMESPACE POD NEWPOD TTL"
got="$(header pmj)"
[ "$got" = "$want" ] && pass "kubectl get pmj: $got" || fail "pmj columns: got '$got', want '$want'"
row="$(kubectl get reservation game-server-reservation --no-headers | tr -s ' ')"
case "$row" in
  "game-server-reservation "*" koord-test-node 24h"*) pass "reservation row shows node and the default ttl: $row" ;;
  *) fail "reservation row: '$row'" ;;
esac

# The v1.6.0 short form: served as v1 and as v1alpha1 (one schema), with the CRD's defaults.
ttl="$(kubectl get reservations.v1.scheduling.koordinator.sh game-server-reservation -o jsonpath='{.spec.ttl} {.spec.allocateOnce} {.spec.resources.requests.cpu}')"
[ "$ttl" = "24h true 4" ] && pass "short-form reservation via v1: $ttl" || fail "short-form via v1: '$ttl'"
api="$(kubectl get reservations.v1alpha1.scheduling.koordinator.sh game-server-reservation -o jsonpath='{.apiVersion}')"
[ "$api" = scheduling.koordinator.sh/v1alpha1 ] && pass "short-form reservation via v1alpha1" || fail "v1alpha1 read: '$api'"

# A schema violation is refused with the field named.
if out="$(kubectl create -f - 2>&1 <<'YAML'
apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata: {name: koord-test-bad}
spec: {allocatePolicy: Sometimes, resources: {requests: {cpu: "1"}}}
YAML
)"; then
  fail "a reservation with allocatePolicy Sometimes was accepted"
else
  case "$out" in *spec.allocatePolicy*) pass "bad enum refused: spec.allocatePolicy" ;; *) fail "bad enum error: $out" ;; esac
fi

for obj in "$objects_dir"/*.json; do
  kind="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$obj")"
  [ "$kind" = Namespace ] && continue
  kubectl delete -f "$obj" --wait=false >/dev/null 2>&1 || fail "delete $(basename "$obj")"
done
pass "deleted every example object"

echo "$failures failed"
[ "$failures" -eq 0 ]
