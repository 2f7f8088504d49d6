#!/usr/bin/env bash
# The Helm chart against the real kube-apiserver: `helm lint` passes; `helm template` renders the
# CRDs, the namespace, the four koord PriorityClasses with Koordinator's values and kube-scheduler's
# configuration verbatim from deploy/scheduler-config/; the whole output is accepted by
# `kubectl apply --dry-run=server`; and the ServiceAccount's RBAC, applied for real, allows what
# kube-scheduler and koord-extender do and refuses what they do not need. koord-agent's DaemonSet
# follows its values (agent.*), its RBAC allows what the agent does and no more, and it rolls out
# one Running pod on every selected (kwok) node, tainted ones included.
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
cluster_sh="$KOORD_SOURCE_DIR/test/controlplane/cluster.sh"
agent_nodes=(chart-agent-0 chart-agent-1)
scheduler_started=0
upgrade_release=""
cleanup() {
  [ -z "$upgrade_release" ] || helm uninstall "$upgrade_release" -n koordinator-system --wait --timeout 60s >/dev/null 2>&1 || true
  kubectl delete daemonset koord-agent -n koordinator-system --ignore-not-found --wait=false >/dev/null 2>&1 || true
  kubectl delete node "${agent_nodes[@]}" --ignore-not-found >/dev/null 2>&1 || true
  [ "$scheduler_started" -eq 0 ] || bash "$cluster_sh" stop-scheduler "$KOORD_TEST_CLUSTER_DIR" >/dev/null 2>&1 || true
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
import json, sys, yaml
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
byname = {(d["kind"], d["metadata"]["name"]): d for d in docs}
cm = byname[("ConfigMap", "koord-scheduler-config")]["data"]
check(yaml.safe_load(cm["scheduler-config.yaml"]) == yaml.safe_load(open(f"{src}/deploy/scheduler-config/scheduler-config.yaml")), "scheduler config verbatim")
ext = yaml.safe_load(cm["koord-extender-config.yaml"])
check(ext["kind"] == "KoordExtenderConfiguration" and ext["server"]["address"] == "127.0.0.1:10262", "extender config")
# Binds must answer before kube-scheduler's httpTimeout gives up on them.
check(ext.get("bindTimeout") == "4s" and yaml.safe_load(cm["scheduler-config.yaml"])["extenders"][0]["httpTimeout"] == "5s",
      "bindTimeout 4s under the extender's httpTimeout 5s")
dep = byname[("Deployment", "koord-scheduler")]["spec"]["template"]["spec"]
check([c["name"] for c in dep["containers"]] == ["kube-scheduler", "koord-extender"], "two containers")
check(dep["serviceAccountName"] == "koord-scheduler", "service account")
# koord-manager: two replicas spread over nodes, a PDB, probes on the metrics port, the webhooks
# behind a Service, failurePolicy Ignore with a short timeout, and never for koord's or
# kube-system's own pods; the default slo-controller-config is Koordinator's shipped one.
mgr = byname.get(("Deployment", "koord-manager"))
check(mgr is not None and mgr["spec"]["replicas"] == 2, "koord-manager Deployment with 2 replicas")
if mgr:
    mspec = mgr["spec"]["template"]["spec"]
    (mc,) = mspec["containers"]
    check(mspec["serviceAccountName"] == "koord-manager", "koord-manager service account")
    check(mc["image"] == "ghcr.io/koord/koord-manager:0.1.0", f"manager image {mc['image']}")
    check("--leader-elect=true" in mc["command"] and "--webhook-port=9876" in mc["command"], f"manager command {mc['command']}")
    check(mc["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": 8000}, "manager readiness probe")
    check(mspec["affinity"]["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"][0]["podAffinityTerm"]["topologyKey"]
          == "kubernetes.io/hostname", "replicas spread over nodes")
pdb = byname.get(("PodDisruptionBudget", "koord-manager"))
check(pdb is not None and pdb["spec"]["minAvailable"] == 1, "PodDisruptionBudget minAvailable 1")
slo = byname.get(("ConfigMap", "slo-controller-config"))
check(slo is not None and json.loads(slo["data"]["colocation-config"]) == {"enable": True}
      and json.loads(slo["data"]["resource-threshold-config"]) == {"clusterStrategy": {"enable": True}},
      "default slo-controller-config")
svc = byname.get(("Service", "koordinator-webhook-service"))
check(svc is not None and svc["spec"]["ports"][0]["targetPort"] == 9876, "webhook Service")
hooks = []
for kind in ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
    for d in kinds.get(kind, []):
        hooks += d["webhooks"]
paths = sorted(h["clientConfig"]["service"]["path"] for h in hooks)
check(paths == ["/mutate-node", "/mutate-pod", "/validate-configmap", "/validate-pod", "/validate-reservation"], f"webhook paths {paths}")
for h in hooks:
    check(h["failurePolicy"] == "Ignore" and h["timeoutSeconds"] <= 5 and "caBundle" not in h["clientConfig"],
          f"{h['name']}: Ignore, <= 5 s, no caBundle")
    sel = h.get("namespaceSelector", {}).get("matchExpressions", [{}])[0]
    if h["rules"][0]["resources"] == ["pods"]:
        check(sel == {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["koordinator-system", "kube-system"]},
              f"{h['name']} leaves koordinator-system and kube-system alone")
# koord-descheduler: two replicas on the config's Lease, probes on 10251, no plugin that evicts
# enabled by default (as Koordinator's chart), MigrationController in EvictDirectly mode.
des = byname.get(("Deployment", "koord-descheduler"))
check(des is not None and des["spec"]["replicas"] == 2, "koord-descheduler Deployment with 2 replicas")
if des:
    dspec = des["spec"]["template"]["spec"]
    (dc,) = dspec["containers"]
    check(dspec["serviceAccountName"] == "koord-descheduler", "koord-descheduler service account")
    check(dc["image"] == "ghcr.io/koord/koord-descheduler:0.1.0", f"descheduler image {dc['image']}")
    check(dc["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": 10251}, "descheduler readiness probe")
    dcfg = yaml.safe_load(byname[("ConfigMap", "koord-descheduler-config")]["data"]["koord-descheduler-config.yaml"])
    check(dcfg["kind"] == "DeschedulerConfiguration" and dcfg["leaderElection"]["resourceNamespace"] == "koordinator-system"
          and dcfg["healthzBindAddress"] == "0.0.0.0:10251", "descheduler config")
    plugins = dcfg["profiles"][0]["plugins"]
    check(plugins["deschedule"] == {"disabled": [{"name": "*"}]} and plugins["balance"] == {"disabled": [{"name": "*"}]},
          "no deschedule or balance plugin enabled by default")
    with open(f"{work}/descheduler-config.yaml", "w") as f:
        f.write(byname[("ConfigMap", "koord-descheduler-config")]["data"]["koord-descheduler-config.yaml"])
with open(f"{work}/rbac.yaml", "w") as f:
    yaml.safe_dump_all([d for d in docs if d["kind"] in ("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")], f)
with open(f"{work}/extender-config.yaml", "w") as f:
    f.write(cm["koord-extender-config.yaml"])
sys.exit(0 if ok else 1)
PY

# koord-agent with the default values (in all.yaml) and with every agent value changed.
helm template koord "$chart" --set agent.privileged=false --set agent.cgroupDriver=systemd \
  --set agent.listenPort=9400 --set agent.logLevel=debug --set agent.image.repository=example.test/agent \
  --set agent.image.tag=v9 --set agent.image.pullPolicy=Always \
  --set agent.featureGates='BEMemoryEvict=true\,CPUBurst=false' \
  --set-json 'agent.resources={"requests":{"cpu":"50m","memory":"16Mi"},"limits":{"memory":"64Mi"}}' \
  --set-json 'agent.nodeSelector={"koord.test/chart-agent":"true"}' \
  --set-json 'agent.tolerations=[{"key":"dedicated","operator":"Equal","value":"x","effect":"NoSchedule"}]' \
  > "$work/agent-custom.yaml" 2>/dev/null
helm template koord "$chart" --set agent.enabled=false > "$work/agent-disabled.yaml" 2>/dev/null
"$py" - "$work" <<'PY' && pass "koord-agent objects follow agent.* values" || fail "koord-agent objects"
import sys, yaml
work = sys.argv[1]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("  not so:", what); ok = False
def load(name):
    return [d for d in yaml.safe_load_all(open(f"{work}/{name}")) if d]
def agent_ds(docs):
    ds = [d for d in docs if d["kind"] == "DaemonSet" and d["metadata"]["name"] == "koord-agent"]
    return ds[0] if len(ds) == 1 else None

docs = load("all.yaml")
ds = agent_ds(docs)
check(ds is not None, "one DaemonSet koord-agent")
if ds:
    check(ds["metadata"]["namespace"] == "koordinator-system", "namespace")
    check(ds["spec"]["updateStrategy"] == {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "20%"}},
          f"update strategy {ds['spec']['updateStrategy']}")
    spec = ds["spec"]["template"]["spec"]
    check(spec["serviceAccountName"] == "koord-agent", "service account koord-agent")
    check(spec.get("hostPID") is True and spec.get("hostNetwork") is True, "hostPID and hostNetwork")
    check(spec["priorityClassName"] == "system-node-critical", "priority class")
    check(spec.get("tolerations") == [{"operator": "Exists"}], f"tolerates every taint: {spec.get('tolerations')}")
    check("nodeSelector" not in spec, "no node selector")
    (c,) = spec["containers"]
    check(c["image"] == "ghcr.io/koord/koord-agent:0.1.0", f"image {c['image']} (the chart's appVersion)")
    check(c["command"] == ["koord-agent", "--node-name=$(NODE_NAME)", "--host-root=/host",
                           "--kubelet-root-dir=/host/var/lib/kubelet", "--cgroup-driver=",
                           "--listen-address=127.0.0.1:9316", "--log-level=info"], f"command {c['command']}")
    check(c["env"] == [{"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}], "NODE_NAME env")
    check(c["livenessProbe"]["httpGet"] == {"host": "127.0.0.1", "path": "/healthz", "port": 9316}, "liveness probe")
    check(c["resources"] == {"requests": {"cpu": "100m", "memory": "32Mi"}, "limits": {"memory": "128Mi"}},
          f"resources {c['resources']}")
    check(c["securityContext"].get("privileged") is True, "privileged")
    vols = {v["name"]: v["hostPath"]["path"] for v in spec["volumes"]}
    mounts = {m["mountPath"]: (vols[m["name"]], m.get("readOnly", False)) for m in c["volumeMounts"]}
    check(mounts == {"/host/proc": ("/proc", True), "/host/sys": ("/sys", False),
                     "/host/var/lib/kubelet": ("/var/lib/kubelet", True)}, f"host mounts {mounts}")

ds = agent_ds(load("agent-custom.yaml"))
check(ds is not None, "DaemonSet with custom values")
if ds:
    spec = ds["spec"]["template"]["spec"]
    (c,) = spec["containers"]
    check(c["image"] == "example.test/agent:v9" and c["imagePullPolicy"] == "Always", f"image {c['image']}")
    check("--cgroup-driver=systemd" in c["command"] and "--listen-address=127.0.0.1:9400" in c["command"]
          and "--log-level=debug" in c["command"]
          and "--feature-gates=BEMemoryEvict=true,CPUBurst=false" in c["command"], f"command {c['command']}")
    check(c["livenessProbe"]["httpGet"]["port"] == 9400 and c["ports"][0]["containerPort"] == 9400, "port 9400")
    sc = c["securityContext"]
    check(sc.get("privileged") is False and sc.get("capabilities") == {"drop": ["ALL"], "add": ["SYS_ADMIN"]},
          f"unprivileged security context {sc}")
    check(c["resources"]["limits"] == {"memory": "64Mi"}, "resources")
    check(spec["nodeSelector"] == {"koord.test/chart-agent": "true"}, "node selector")
    check(spec["tolerations"][0]["key"] == "dedicated" and len(spec["tolerations"]) == 1, "tolerations")
with open(f"{work}/agent-unprivileged.yaml", "w") as f:
    yaml.safe_dump(ds, f)

off = [(d["kind"], d["metadata"]["name"]) for d in load("agent-disabled.yaml") if "koord-agent" in d["metadata"]["name"]]
check(off == [], f"agent.enabled=false renders no agent objects: {off}")
sys.exit(0 if ok else 1)
PY
if helm template koord "$chart" --set agent.cgroupDriver=cgroup > /dev/null 2> "$work/bad-driver.txt"; then
  fail "agent.cgroupDriver=cgroup should not render"
else
  grep -q 'agent.cgroupDriver must be' "$work/bad-driver.txt" && pass "agent.cgroupDriver=cgroup refused" ||
    { cat "$work/bad-driver.txt"; fail "agent.cgroupDriver=cgroup: message"; }
fi

kubectl get namespace koordinator-system >/dev/null 2>&1 || kubectl create namespace koordinator-system >/dev/null
if kubectl apply --dry-run=server -f "$work/all.yaml" > "$work/dry-run.txt" 2>&1; then
  pass "kubectl apply --dry-run=server accepts all $(grep -c 'server dry run' "$work/dry-run.txt") objects"
else
  cat "$work/dry-run.txt"; fail "kubectl apply --dry-run=server"
fi
# The unprivileged variant (SYS_ADMIN only) passes the apiserver's pod validation too.
if kubectl apply --dry-run=server -f "$work/agent-unprivileged.yaml" > "$work/dry-run-agent.txt" 2>&1; then
  pass "kubectl apply --dry-run=server accepts the unprivileged koord-agent DaemonSet"
else
  cat "$work/dry-run-agent.txt"; fail "kubectl apply --dry-run=server: unprivileged koord-agent"
fi

kubectl apply -f "$work/rbac.yaml" >/dev/null
# can-i answers "no" for a resource the server does not know: install koord's CRDs first.
kubectl apply -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
kubectl wait --for condition=established --timeout=60s -f "$KOORD_SOURCE_DIR/deploy/crds/" >/dev/null
sa=system:serviceaccount:koordinator-system:koord-scheduler
can() { kubectl auth can-i "$@" --as="$sa" 2>/dev/null || true; }
for allowed in "list nodes" "watch pods" "patch pods" "create pods --subresource=binding" "create events" \
               "list reservations.scheduling.koordinator.sh" "watch reservations.scheduling.koordinator.sh" \
               "update reservations.scheduling.koordinator.sh --subresource=status" \
               "delete reservations.scheduling.koordinator.sh" \
               "list nodemetrics.slo.koordinator.sh" "watch nodemetrics.slo.koordinator.sh" \
               "update leases.coordination.k8s.io/koord-scheduler -n koordinator-system" \
               "update leases.coordination.k8s.io/koord-extender -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $allowed)" = yes ] && pass "allowed: $allowed" || fail "should be allowed: $allowed"
done
# The reservation loop writes status and deletes expired reservations; it never writes their spec.
for refused in "delete nodes" "update deployments.apps" "create pods" "update nodes" \
               "update reservations.scheduling.koordinator.sh" "create reservations.scheduling.koordinator.sh" \
               "list secrets" "update leases.coordination.k8s.io/other -n koordinator-system" \
               "list devices.scheduling.koordinator.sh" "update nodemetrics.slo.koordinator.sh" \
               "update nodemetrics.slo.koordinator.sh --subresource=status"; do
  # shellcheck disable=SC2086
  [ "$(can $refused)" = no ] && pass "refused: $refused" || fail "should be refused: $refused"
done

# koord-manager: its controllers' objects, node status patches, its Lease and certificate Secret, the
# caBundle of its own webhook configurations; nothing else.
sa=system:serviceaccount:koordinator-system:koord-manager
for allowed in "list nodes" "patch nodes" "patch nodes --subresource=status" "watch pods" "list namespaces" \
               "create nodeslos.slo.koordinator.sh" "patch nodeslos.slo.koordinator.sh" \
               "delete nodeslos.slo.koordinator.sh" "patch nodemetrics.slo.koordinator.sh" \
               "watch devices.scheduling.koordinator.sh" "update noderesourcetopologies.topology.node.k8s.io" \
               "list clustercolocationprofiles.config.koordinator.sh" "create events" \
               "watch configmaps -n koordinator-system" "update leases.coordination.k8s.io/koord-manager -n koordinator-system" \
               "get secrets/koordinator-webhook-certs -n koordinator-system" "create secrets -n koordinator-system" \
               "update mutatingwebhookconfigurations.admissionregistration.k8s.io/koordinator-mutating-webhook-configuration" \
               "update validatingwebhookconfigurations.admissionregistration.k8s.io/koordinator-validating-webhook-configuration"; do
  # shellcheck disable=SC2086
  [ "$(can $allowed)" = yes ] && pass "manager allowed: $allowed" || fail "manager should be allowed: $allowed"
done
for refused in "delete nodes" "update pods" "patch pods" "create pods" "delete pods" "list secrets" \
               "get secrets/other -n koordinator-system" "list configmaps -n default" \
               "update devices.scheduling.koordinator.sh" "update reservations.scheduling.koordinator.sh" \
               "update mutatingwebhookconfigurations.admissionregistration.k8s.io/other" \
               "list mutatingwebhookconfigurations.admissionregistration.k8s.io" "update nodeslos.slo.koordinator.sh" \
               "update leases.coordination.k8s.io/koord-scheduler -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $refused)" = no ] && pass "manager refused: $refused" || fail "manager should be refused: $refused"
done

# koord-descheduler: reads the cluster, creates and carries out PodMigrationJobs (their
# Reservations, evictions), writes events and its own Lease; never writes nodes or pod specs.
sa=system:serviceaccount:koordinator-system:koord-descheduler
for allowed in "list nodes" "watch pods" "list nodemetrics.slo.koordinator.sh" "list priorityclasses.scheduling.k8s.io" \
               "list replicasets.apps" "watch statefulsets.apps" "create pods --subresource=eviction" "delete pods" \
               "create podmigrationjobs.scheduling.koordinator.sh" "patch podmigrationjobs.scheduling.koordinator.sh" \
               "update podmigrationjobs.scheduling.koordinator.sh --subresource=status" \
               "delete podmigrationjobs.scheduling.koordinator.sh" "create reservations.scheduling.koordinator.sh" \
               "get reservations.scheduling.koordinator.sh" "delete reservations.scheduling.koordinator.sh" \
               "create events" "update leases.coordination.k8s.io/koord-descheduler -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $allowed)" = yes ] && pass "descheduler allowed: $allowed" || fail "descheduler should be allowed: $allowed"
done
for refused in "update nodes" "patch nodes" "update pods" "create pods" "create pods --subresource=binding" \
               "update reservations.scheduling.koordinator.sh" "update reservations.scheduling.koordinator.sh --subresource=status" \
               "update nodemetrics.slo.koordinator.sh" "list secrets" "update deployments.apps" \
               "update leases.coordination.k8s.io/koord-manager -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $refused)" = no ] && pass "descheduler refused: $refused" || fail "descheduler should be refused: $refused"
done

# koord-agent: watches nodes, pods and NodeSLOs; reports NodeMetric (its status),
# NodeResourceTopology and Device; writes core Events; evicts pods through pods/eviction only.
sa=system:serviceaccount:koordinator-system:koord-agent
for allowed in "list nodes" "watch nodes" "list pods" "watch pods" \
               "create events" "patch events -n default" "create pods --subresource=eviction" \
               "list nodeslos.slo.koordinator.sh" "watch nodeslos.slo.koordinator.sh" \
               "get nodemetrics.slo.koordinator.sh" "watch nodemetrics.slo.koordinator.sh" \
               "create nodemetrics.slo.koordinator.sh" \
               "update nodemetrics.slo.koordinator.sh --subresource=status" \
               "get noderesourcetopologies.topology.node.k8s.io" \
               "create noderesourcetopologies.topology.node.k8s.io" \
               "update noderesourcetopologies.topology.node.k8s.io" \
               "get devices.scheduling.koordinator.sh" "create devices.scheduling.koordinator.sh" \
               "update devices.scheduling.koordinator.sh"; do
  # shellcheck disable=SC2086
  [ "$(can $allowed)" = yes ] && pass "agent allowed: $allowed" || fail "agent should be allowed: $allowed"
done
for refused in "delete pods" "update pods" "patch pods" "create pods" "create pods --subresource=binding" \
               "update nodemetrics.slo.koordinator.sh" \
               "update nodes" "patch nodes" "update nodes --subresource=status" "delete nodes" \
               "delete nodemetrics.slo.koordinator.sh" "update nodeslos.slo.koordinator.sh" \
               "delete noderesourcetopologies.topology.node.k8s.io" "delete devices.scheduling.koordinator.sh" \
               "list reservations.scheduling.koordinator.sh" "delete events" "list secrets" \
               "list configmaps" "update leases.coordination.k8s.io/koord-scheduler -n koordinator-system"; do
  # shellcheck disable=SC2086
  [ "$(can $refused)" = no ] && pass "agent refused: $refused" || fail "agent should be refused: $refused"
done

# The DaemonSet for real, on two kwok nodes (one with an extra NoExecute taint) picked by
# agent.nodeSelector: kube-controller-manager makes a pod for each, kube-scheduler places them
# (system-node-critical, the host port) and kwok runs them.
for node in "${agent_nodes[@]}"; do
  taints='{"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}'
  [ "$node" = chart-agent-1 ] && taints="$taints, {\"key\": \"dedicated\", \"value\": \"gpu\", \"effect\": \"NoExecute\"}"
  cat <<YAML | kubectl apply -f - >/dev/null
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$node", "labels": {"koord.test/chart-agent": "true"},
   "annotations": {"kwok.x-k8s.io/node": "fake"}},
 "spec": {"taints": [$taints]},
 "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
            "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
YAML
done
printf '%s\n' "apiVersion: kubescheduler.config.k8s.io/v1" "kind: KubeSchedulerConfiguration" \
  "clientConnection:" "  kubeconfig: @KUBECONFIG@" "leaderElection:" "  leaderElect: false" > "$work/scheduler.yaml"
scheduler_started=1
bash "$cluster_sh" start-scheduler "$KOORD_TEST_CLUSTER_DIR" "$work/scheduler.yaml" >/dev/null
helm template koord "$chart" --show-only templates/agent-daemonset.yaml \
  --set-json 'agent.nodeSelector={"koord.test/chart-agent":"true"}' 2>/dev/null | kubectl apply -f - >/dev/null
if kubectl rollout status daemonset/koord-agent -n koordinator-system --timeout=90s >/dev/null 2>&1; then
  on="$(kubectl get pods -n koordinator-system -l app.kubernetes.io/name=koord-agent \
        -o jsonpath='{range .items[*]}{.spec.nodeName}={.status.phase}{"\n"}{end}' | sort | tr '\n' ' ')"
  [ "$on" = "chart-agent-0=Running chart-agent-1=Running " ] && pass "koord-agent runs on both nodes: $on" ||
    fail "koord-agent pods: $on"
else
  kubectl get daemonset,pods -n koordinator-system -o wide
  fail "koord-agent DaemonSet did not roll out"
fi

# helm upgrade from the previous chart (the one before koord-manager was added, commit 4e3cc18) to
# this one, for real: install the old chart, upgrade, and every object of the new chart exists.
# --take-ownership adopts the objects the checks above applied with kubectl.
if git -C "$KOORD_SOURCE_DIR" cat-file -e 4e3cc18 2>/dev/null; then
  mkdir -p "$work/old"
  git -C "$KOORD_SOURCE_DIR" archive 4e3cc18 charts/koordinator deploy/crds deploy/scheduler-config | tar -x -C "$work/old"
  upgrade_release=koord-upgrade
  common=(--namespace koordinator-system --set namespace.create=false --set priorityClasses.create=false
          --set agent.admissionPolicy=false --set scheduler.admissionPolicy=false --take-ownership)
  if helm install "$upgrade_release" "$work/old/charts/koordinator" "${common[@]}" > "$work/helm.txt" 2>&1 &&
     helm upgrade "$upgrade_release" "$chart" "${common[@]}" >> "$work/helm.txt" 2>&1; then
    status="$(helm status "$upgrade_release" -n koordinator-system -o json | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(d["info"]["status"], d["version"])')"
    [ "$status" = "deployed 2" ] && pass "helm upgrade from the previous chart: $status" || fail "helm upgrade: $status"
    kubectl get deployment/koord-manager deployment/koord-scheduler configmap/slo-controller-config \
      service/koordinator-webhook-service poddisruptionbudget/koord-manager -n koordinator-system >/dev/null 2>&1 &&
      kubectl get mutatingwebhookconfiguration/koordinator-mutating-webhook-configuration \
        validatingwebhookconfiguration/koordinator-validating-webhook-configuration >/dev/null 2>&1 &&
      pass "after the upgrade the manager's Deployment, ConfigMap, Service, PDB and webhooks exist" ||
      fail "objects missing after helm upgrade"
  else
    cat "$work/helm.txt"; fail "helm install of the previous chart, then helm upgrade"
  fi
  helm uninstall "$upgrade_release" -n koordinator-system --wait --timeout 60s >/dev/null 2>&1 && upgrade_release="" ||
    fail "helm uninstall"
else
  fail "helm upgrade: the previous chart (commit 4e3cc18) is not in $KOORD_SOURCE_DIR's git history"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "chart: all checks passed"
