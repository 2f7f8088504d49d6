#!/usr/bin/env bash
# koord-descheduler against the community descheduler (sigs.k8s.io/descheduler v0.36.0), strategy by
# strategy, on the shared control plane (README.md in this folder). For each scenario of
# scenarios.py (a few kwok nodes of its own and pods written with spec.nodeName, statuses patched
# where a strategy needs restarts or a failed phase) both run once in dry-run with only that
# plugin enabled, and the SETS of pods they chose (namespace/name; <ReplicaSet>@<node> with
# multiplicity for RemoveDuplicates) must be equal, and equal to what the scenario expects (which
# keeps the scenarios deterministic and non-empty, but one that is meant to be empty).
# Prints `ok: <Strategy>: both chose [a, b]` or `FAIL: <Strategy>: ...` per scenario; exit 1 on any
# FAIL. Without a koord-descheduler binary only the community's choices are checked.
# Usage: run.sh [KOORD_DESCHEDULER_BINARY]   (env: KOORD_TEST_CLUSTER_DIR, KOORD_SOURCE_DIR,
#        KOORD_UPSTREAM_KEEP=1 to keep the objects and the work folder)
set -euo pipefail
: "${KOORD_TEST_CLUSTER_DIR:?}" "${KOORD_SOURCE_DIR:?}"
koord_bin="${1:-}"
# shellcheck disable=SC1091
source "$KOORD_TEST_CLUSTER_DIR/cluster.env"
export PATH="$BIN_PATH:$PATH" KUBECONFIG
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ns=koord-desched-upstream
label=koord.test/desched-upstream=true
work="$(mktemp -d)"
failures=0

community_bin="$(bash "$KOORD_SOURCE_DIR/test/controlplane/build-descheduler.sh" | tail -1)"

cleanup() {
  # KOORD_UPSTREAM_KEEP=1 leaves the objects and the work folder for a look by hand.
  if [ -n "${KOORD_UPSTREAM_KEEP:-}" ]; then echo "kept: $work, namespace $ns"; return; fi
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl delete pods -n "$ns" --all --force --grace-period=0 >/dev/null 2>&1 || true
  kubectl delete nodes -l "$label" --wait=false >/dev/null 2>&1 || true
  kubectl delete priorityclasses -l "$label" --wait=false >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# A namespace left terminating by an earlier run must be gone before it is created again.
kubectl delete nodes -l "$label" --wait=false >/dev/null 2>&1 || true
kubectl delete namespace "$ns" --ignore-not-found --timeout=60s >/dev/null
scenarios() { python3 "$here/scenarios.py" "$@"; }

wait_running() { # wait_running POD...: each pod Running (kwok's fast pod stage)
  local pod
  for pod in "$@"; do
    kubectl wait -n "$ns" --for=jsonpath='{.status.phase}'=Running "pod/$pod" --timeout=60s >/dev/null
  done
}

# --- the clusters (koord-descheduler also watches Koordinator's CRDs: NodeMetric, PodMigrationJob)
kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
scenarios base "$ns" > "$work/base.json"
kubectl apply -f "$work/base.json" >/dev/null
kubectl get rs,ds -n "$ns" -o json > "$work/owners.json"
scenarios pods "$ns" "$work/owners.json" > "$work/pods.json"
kubectl create -f "$work/pods.json" >/dev/null
created_at=$SECONDS
kubectl wait nodes -l "$label" --for=condition=Ready --timeout=60s >/dev/null
mapfile -t pods < <(jq -r '.items[].metadata.name' "$work/pods.json")
wait_running "${pods[@]}"
while IFS=$'\t' read -r pod patch; do
  kubectl patch pod -n "$ns" "$pod" --subresource=status --type=json -p "$patch" >/dev/null
done < <(scenarios status)

# --- the two deschedulers; each prints the chosen pods as "<namespace>/<name> <node>" lines
community_choice() { # community_choice POLICY LOG
  # v0.36's --dry-run copies the cluster into a fake client through informer events and may run
  # its first cycle before the copy is complete (it then logs "requires >=2 nodes" found=0). So it
  # runs every 2 s, and the choices of its second cycle are taken (dry-run restores the pods it
  # chose after each cycle, so every cycle starts from the same cluster).
  "$community_bin" --policy-config-file="$1" --kubeconfig="$KUBECONFIG" --dry-run \
    --descheduling-interval=2s --secure-port=0 --disable-metrics --v=1 >"$2" 2>&1 &
  local pid=$! cycles=0
  for _ in $(seq 1 300); do
    cycles="$(grep -c '"Number of evictions/requests"' "$2" || true)"
    [ "$cycles" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$cycles" -lt 2 ]; then
    echo "community descheduler did not finish two cycles:" >&2; tail -20 "$2" >&2; return 1
  fi
  # klog: "Evicted pod in dry run mode" pod="ns/name" reason="..." strategy="..." node="..."
  awk '/"Number of evictions\/requests"/ { n++; next } n == 1 && /"Evicted pod in dry run mode"/' "$2" |
    sed -E 's/.* pod="([^"]*)".* node="([^"]*)".*/\1 \2/'
}
koord_choice() { # koord_choice CONFIG LOG
  if ! timeout 90 "$koord_bin" --config "$1" --kubeconfig "$KUBECONFIG" --once --dry-run >"$2" 2>"$2.err"; then
    echo "koord-descheduler failed:" >&2; tail -20 "$2.err" >&2; return 1
  fi
  # dry-run: would evict pod <ns>/<name> from node <node> (plugin <Plugin>, reason "<reason>")
  grep '^dry-run: would evict pod ' "$2" | awk '{print $5, $8}' || true
}
keys() { # keys MODE < "ns/name node" lines: the sorted keys the scenario compares
  local mode="$1" pod node
  while read -r pod node; do
    [ -n "$pod" ] || continue
    if [ "$mode" = "owner@node" ]; then
      local name="${pod#*/}"
      echo "${name%-*}@$node"
    elif [ "${pod%%/*}" = "$ns" ]; then
      echo "${pod#*/}"
    else
      echo "$pod"
    fi
  done | sort
}
show() { echo "[$(paste -sd, "$1" | sed 's/,/, /g')]"; }

run_scenario() { # run_scenario ID STRATEGY MODE
  local id="$1" strategy="$2" mode="$3" c="$work/$1.community" k="$work/$1.koord"
  if ! community_choice "$work/$id.policy.yaml" "$c.log" > "$c.raw"; then
    echo "FAIL: $strategy: the community descheduler did not run (policy $id.policy.yaml)"
    failures=$((failures + 1)); return
  fi
  keys "$mode" < "$c.raw" > "$c.keys"
  if ! cmp -s "$c.keys" "$work/$id.expected"; then
    echo "FAIL: $strategy: community chose $(show "$c.keys"), the scenario expects $(show "$work/$id.expected")"
    failures=$((failures + 1)); return
  fi
  if [ -z "$koord_bin" ]; then
    echo "ok: $strategy: community chose $(show "$c.keys") (koord-descheduler not given)"
    return
  fi
  if ! koord_choice "$work/$id.koord.yaml" "$k.log" > "$k.raw"; then
    echo "FAIL: $strategy: koord-descheduler did not run (config $id.koord.yaml)"
    failures=$((failures + 1)); return
  fi
  keys "$mode" < "$k.raw" > "$k.keys"
  if cmp -s "$c.keys" "$k.keys"; then
    echo "ok: $strategy: both chose $(show "$c.keys")"
  else
    echo "FAIL: $strategy: community $(show "$c.keys") koord $(show "$k.keys")"
    sed 's/^/  koord: /' "$k.log"
    failures=$((failures + 1))
  fi
}

# PodLifeTime runs last: plt-old is then at least 20 s old, plt-young (created now) a few seconds,
# and maxPodLifeTimeSeconds lies between them with a margin for both runs.
max_age=0
while IFS=$'\t' read -r id strategy mode; do
  if [ "$id" = plt ]; then
    scenarios young "$ns" "$work/owners.json" | kubectl create -f - >/dev/null
    young_at=$SECONDS
    wait_running plt-young-1
    while [ $((SECONDS - created_at)) -lt 20 ]; do sleep 1; done
    max_age=$((SECONDS - created_at - 5))
    [ $((SECONDS - young_at)) -lt $((max_age - 8)) ] ||
      { echo "FAIL: PodLifeTime: the young pod is too old already"; failures=$((failures + 1)); continue; }
  fi
  scenarios configs "$work" "$max_age"
  run_scenario "$id" "$strategy" "$mode"
done < <(scenarios configs "$work" 0 && cat "$work/scenarios.tsv")

[ "$failures" -eq 0 ] || { echo "$failures strategies differ"; exit 1; }
echo "all strategies agree"
