#!/usr/bin/env python3
"""The clusters and policies of run.sh: one small scenario per descheduling strategy.

Each scenario owns its nodes (labelled koord.test/desched-scn=<id>); both descheduler runs are
restricted to those nodes by their nodeSelector, so scenarios do not see each other. Pods that
must look controller-owned have a controller ownerReference to a ReplicaSet (or DaemonSet) of
this test whose pod template names a PriorityClass that does not exist: the controller counts
the test's pods as its replicas and every pod it would create itself is refused at admission,
so it neither adds nor removes pods.

  scenarios.py base NS                 nodes, PriorityClasses, namespace, ReplicaSets, DaemonSet
  scenarios.py pods NS OWNERS.json     the pods (OWNERS: kubectl get rs,ds -o json, for the UIDs)
  scenarios.py young NS OWNERS.json    the PodLifeTime scenario's young pod (created just before it)
  scenarios.py configs DIR MAXAGE      per scenario: DIR/<id>.policy.yaml (community
                                       DeschedulerPolicy), DIR/<id>.koord.yaml (koord's
                                       DeschedulerConfiguration), DIR/<id>.expected; and
                                       DIR/scenarios.tsv (id, label, key mode) in run order.
                                       MAXAGE is PodLifeTime's maxPodLifeTimeSeconds.
  scenarios.py status                  the status patches (pod name, JSON patch) run.sh applies
                                       once the pods are Running.
"""
import json
import os
import sys

LABEL = "koord.test/desched-upstream"
SCN = "koord.test/desched-scn"
MISSING_CLASS = "koord-desched-upstream-absent"  # never created: controllers cannot add pods
IMAGE = "registry.k8s.io/pause:3.10"

# name: value. Pods choose among them by the suffix (low/mid/high).
PRIORITY = {"low": 100, "mid": 200, "high": 300}


def pclass(level):
    return "koord-desched-upstream-" + level


# Nodes: id -> [(name, extra labels, taints)]
NODES = {
    "dup": [("dsu-dup-1", {}, []), ("dsu-dup-2", {}, []), ("dsu-dup-3", {}, [])],
    "lnu": [("dsu-lnu-1", {}, []), ("dsu-lnu-2", {}, [])],
    "hnu": [("dsu-hnu-1", {}, []), ("dsu-hnu-2", {}, [])],
    "ipa": [("dsu-ipa-1", {}, []), ("dsu-ipa-2", {}, [])],
    "na": [("dsu-na-1", {"koord.test/zone": "a"}, []), ("dsu-na-2", {"koord.test/zone": "b"}, [])],
    "nt": [("dsu-nt-1", {}, [{"key": "koord.test/dedicated", "value": "x", "effect": "NoSchedule"}]),
           ("dsu-nt-2", {}, [])],
    "tsc": [("dsu-tsc-1", {"koord.test/zone": "a"}, []), ("dsu-tsc-2", {"koord.test/zone": "b"}, [])],
    "rst": [("dsu-rst-1", {}, []), ("dsu-rst-2", {}, [])],
    "plt": [("dsu-plt-1", {}, []), ("dsu-plt-2", {}, [])],
    "fail": [("dsu-fail-1", {}, []), ("dsu-fail-2", {}, [])],
    "ev": [("dsu-ev-1", {}, []), ("dsu-ev-2", {}, [])],
}

# ReplicaSets: name -> (scenario, replicas it will own). Pods named <rs>-<n> belong to <rs>.
REPLICASETS = {
    "dup-a": 4, "dup-b": 2, "lnu": 3, "hnu": 2, "ipa": 3, "na": 2, "nt": 2, "tsc": 3, "rst": 2,
    "plt-old": 1, "plt-young": 1, "fail": 2, "ev-ok": 4,
}

ANTI_B = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
    "labelSelector": {"matchLabels": {"koord.test/role": "ipa-b"}},
    "topologyKey": "kubernetes.io/hostname"}]}}
ZONE_B = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{
    "matchExpressions": [{"key": "koord.test/zone", "operator": "In", "values": ["b"]}]}]}}}
TSC = [{"maxSkew": 1, "topologyKey": "koord.test/zone", "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"koord.test/role": "tsc"}}}]

# Pods: (name, node, owner "rs:<name>" / "ds:<name>" / None, cpu request, spec extras, labels)
PODS = [
    # RemoveDuplicates: dup-a has 3 identical pods on dup-1 and one on dup-2; dup-b is spread.
    ("dup-a-1", "dsu-dup-1", "rs:dup-a", "100m", {}, {}),
    ("dup-a-2", "dsu-dup-1", "rs:dup-a", "100m", {}, {}),
    ("dup-a-3", "dsu-dup-1", "rs:dup-a", "100m", {}, {}),
    ("dup-a-4", "dsu-dup-2", "rs:dup-a", "100m", {}, {}),
    ("dup-b-1", "dsu-dup-1", "rs:dup-b", "100m", {}, {}),
    ("dup-b-2", "dsu-dup-3", "rs:dup-b", "100m", {}, {}),
    # LowNodeUtilization: lnu-1 at 75% CPU (target 50%), lnu-2 empty.
    ("lnu-low", "dsu-lnu-1", "rs:lnu", "1", {"priorityClassName": pclass("low")}, {}),
    ("lnu-mid", "dsu-lnu-1", "rs:lnu", "1", {"priorityClassName": pclass("mid")}, {}),
    ("lnu-high", "dsu-lnu-1", "rs:lnu", "1", {"priorityClassName": pclass("high")}, {}),
    # HighNodeUtilization: hnu-1 at 15% CPU (threshold 20%), hnu-2 at 50%.
    ("hnu-small", "dsu-hnu-1", "rs:hnu", "400m", {}, {}),
    ("hnu-bare", "dsu-hnu-1", None, "200m", {}, {}),
    ("hnu-big", "dsu-hnu-2", "rs:hnu", "2", {}, {}),
    # InterPodAntiAffinity: ipa-a refuses ipa-b's node; ipa-c has the same term but is alone.
    ("ipa-a", "dsu-ipa-1", "rs:ipa", "100m", {"affinity": ANTI_B}, {"koord.test/role": "ipa-a"}),
    ("ipa-b", "dsu-ipa-1", "rs:ipa", "100m", {}, {"koord.test/role": "ipa-b"}),
    ("ipa-c", "dsu-ipa-2", "rs:ipa", "100m", {"affinity": ANTI_B}, {"koord.test/role": "ipa-a"}),
    # NodeAffinity: both pods require zone b; na-bad runs in zone a.
    ("na-bad", "dsu-na-1", "rs:na", "100m", {"affinity": ZONE_B}, {}),
    ("na-good", "dsu-na-2", "rs:na", "100m", {"affinity": ZONE_B}, {}),
    # NodeTaints: nt-1 is tainted koord.test/dedicated=x:NoSchedule.
    ("nt-intolerant", "dsu-nt-1", "rs:nt", "100m", {}, {}),
    ("nt-tolerant", "dsu-nt-1", "rs:nt", "100m", {"tolerations": [{
        "key": "koord.test/dedicated", "operator": "Equal", "value": "x", "effect": "NoSchedule"}]}, {}),
    # TopologySpreadConstraint: 3 pods in zone a, none in zone b, maxSkew 1; one moves, and the
    # community takes the highest priority first (its sortDomains puts it last).
    ("tsc-low", "dsu-tsc-1", "rs:tsc", "100m",
     {"priorityClassName": pclass("low"), "topologySpreadConstraints": TSC}, {"koord.test/role": "tsc"}),
    ("tsc-mid", "dsu-tsc-1", "rs:tsc", "100m",
     {"priorityClassName": pclass("mid"), "topologySpreadConstraints": TSC}, {"koord.test/role": "tsc"}),
    ("tsc-high", "dsu-tsc-1", "rs:tsc", "100m",
     {"priorityClassName": pclass("high"), "topologySpreadConstraints": TSC}, {"koord.test/role": "tsc"}),
    # TooManyRestarts: restart counts 5 and 1 are patched in (threshold 3).
    ("rst-many", "dsu-rst-1", "rs:rst", "100m", {}, {}),
    ("rst-few", "dsu-rst-1", "rs:rst", "100m", {}, {}),
    # PodLifeTime: plt-old is created with the rest, plt-young just before the strategy runs.
    ("plt-old-1", "dsu-plt-1", "rs:plt-old", "100m", {}, {}),
    # RemoveFailedPods: fail-failed is patched to phase Failed.
    ("fail-failed", "dsu-fail-1", "rs:fail", "100m", {}, {}),
    ("fail-running", "dsu-fail-1", "rs:fail", "100m", {}, {}),
    # DefaultEvictor (through PodLifeTime, every pod is old enough): only ev-ok-1 is evictable.
    ("ev-ok-1", "dsu-ev-1", "rs:ev-ok", "100m", {}, {}),
    ("ev-bare", "dsu-ev-1", None, "100m", {}, {}),
    ("ev-daemon", "dsu-ev-1", "ds:ev-ds", "100m", {}, {"koord.test/role": "ev-ds"}),
    ("ev-critical", "dsu-ev-1", "rs:ev-ok", "100m", {"priorityClassName": "system-cluster-critical"}, {}),
    ("ev-local", "dsu-ev-1", "rs:ev-ok", "100m",
     {"volumes": [{"name": "scratch", "emptyDir": {}}]}, {}),
    ("ev-priority", "dsu-ev-1", "rs:ev-ok", "100m", {"priorityClassName": pclass("high")}, {}),
]
YOUNG = [("plt-young-1", "dsu-plt-1", "rs:plt-young", "100m", {}, {})]

STATUS_PATCHES = [
    ("rst-many", [{"op": "replace", "path": "/status/containerStatuses/0/restartCount", "value": 5}]),
    ("rst-few", [{"op": "replace", "path": "/status/containerStatuses/0/restartCount", "value": 1}]),
    ("fail-failed", [
        {"op": "replace", "path": "/status/phase", "value": "Failed"},
        {"op": "replace", "path": "/status/containerStatuses/0/ready", "value": False},
        {"op": "replace", "path": "/status/containerStatuses/0/state", "value": {"terminated": {
            "exitCode": 1, "reason": "Error", "startedAt": "2024-01-01T00:00:00Z",
            "finishedAt": "2024-01-01T00:00:01Z"}}}]),
]


def base_labels(extra=None):
    labels = {LABEL: "true"}
    labels.update(extra or {})
    return labels


def base(ns):
    items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": base_labels()}}]
    for level, value in PRIORITY.items():
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": pclass(level), "labels": base_labels()}, "value": value})
    for scn, nodes in NODES.items():
        for name, labels, taints in nodes:
            items.append({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": name, "annotations": {"kwok.x-k8s.io/node": "fake"},
                             "labels": base_labels({SCN: scn, "kubernetes.io/hostname": name,
                                                    "type": "kwok", **labels})},
                "spec": {"taints": taints},
                "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                           "capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})
    template_spec = {"priorityClassName": MISSING_CLASS,
                     "containers": [{"name": "c", "image": IMAGE}]}
    for name, replicas in REPLICASETS.items():
        sel = {"koord.test/rs": name}
        items.append({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                      "metadata": {"name": name, "namespace": ns, "labels": base_labels()},
                      "spec": {"replicas": replicas, "selector": {"matchLabels": sel},
                               "template": {"metadata": {"labels": sel}, "spec": template_spec}}})
    sel = {"koord.test/role": "ev-ds"}
    items.append({"apiVersion": "apps/v1", "kind": "DaemonSet",
                  "metadata": {"name": "ev-ds", "namespace": ns, "labels": base_labels()},
                  "spec": {"selector": {"matchLabels": sel}, "updateStrategy": {"type": "OnDelete"},
                           "template": {"metadata": {"labels": sel}, "spec": {
                               **template_spec, "nodeSelector": {"kubernetes.io/hostname": "dsu-ev-1"}}}}})
    return items


def pod(ns, owners, name, node, owner, cpu, extra, labels):
    meta = {"name": name, "namespace": ns, "labels": base_labels(labels)}
    if owner:
        kind, oname = owner.split(":")
        kind = {"rs": "ReplicaSet", "ds": "DaemonSet"}[kind]
        if kind == "ReplicaSet":
            meta["labels"]["koord.test/rs"] = oname
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": kind, "name": oname,
                                    "uid": owners[(kind, oname)], "controller": True,
                                    "blockOwnerDeletion": True}]
    spec = {"nodeName": node, "terminationGracePeriodSeconds": 0,
            "containers": [{"name": "c", "image": IMAGE, "resources": {"requests": {"cpu": cpu}}}]}
    spec.update(extra)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def owners_from(path):
    with open(path) as f:
        listing = json.load(f)
    return {(o["kind"], o["metadata"]["name"]): o["metadata"]["uid"] for o in listing["items"]}


def dump(items):
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, sys.stdout, indent=1)


# Scenarios in run order: (id, strategy, extension point, node scenario, plugin args,
# DefaultEvictor args, koord MigrationController args (evictor part), expected, key mode).
# Key mode "name" compares namespace/name; "owner@node" compares <ReplicaSet>@<node> with
# multiplicity (RemoveDuplicates keeps an arbitrary one of identical pods, in both).
def scenarios(max_age):
    return [
        ("dup", "RemoveDuplicates", "balance", "dup", {}, {}, {},
         ["dup-a@dsu-dup-1"], "owner@node"),
        ("lnu", "LowNodeUtilization", "balance", "lnu",
         {"thresholds": {"cpu": 20}, "targetThresholds": {"cpu": 50}}, {}, {}, ["lnu-low"], "name"),
        ("hnu", "HighNodeUtilization", "balance", "hnu", {"thresholds": {"cpu": 20}}, {}, {},
         ["hnu-small"], "name"),
        ("ipa", "RemovePodsViolatingInterPodAntiAffinity", "deschedule", "ipa", {}, {}, {},
         ["ipa-a"], "name"),
        ("na", "RemovePodsViolatingNodeAffinity", "deschedule", "na",
         {"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution"]}, {}, {},
         ["na-bad"], "name"),
        ("nt", "RemovePodsViolatingNodeTaints", "deschedule", "nt", {}, {}, {},
         ["nt-intolerant"], "name"),
        ("tsc", "RemovePodsViolatingTopologySpreadConstraint", "balance", "tsc",
         {"constraints": ["DoNotSchedule"]}, {}, {}, ["tsc-high"], "name"),
        ("rst", "RemovePodsHavingTooManyRestarts", "deschedule", "rst", {"podRestartThreshold": 3},
         {}, {}, ["rst-many"], "name"),
        ("fail", "RemoveFailedPods", "deschedule", "fail", {"minPodLifetimeSeconds": 0}, {}, {},
         ["fail-failed"], "name"),
        # The same cluster with the default minPodLifetimeSeconds (3600): the failed pod is too
        # young, nothing is chosen.
        ("fail-young", "RemoveFailedPods", "deschedule", "fail", {}, {}, {}, [], "name"),
        ("ev", "DefaultEvictor", "deschedule", "ev", {"maxPodLifeTimeSeconds": 1},
         {"priorityThreshold": {"value": 250}}, {"priorityThreshold": {"value": 250}},
         ["ev-ok-1"], "name"),
        ("plt", "PodLifeTime", "deschedule", "plt", {"maxPodLifeTimeSeconds": max_age}, {}, {},
         ["plt-old-1"], "name"),
    ]


# How run.sh names a scenario that is not the only one of its strategy.
LABEL_SUFFIX = {"fail-young": " (default minPodLifetimeSeconds)"}


def plugin_of(strategy):
    return "PodLifeTime" if strategy == "DefaultEvictor" else strategy


def policy(strategy, point, scn, args, evictor):
    plugin = plugin_of(strategy)
    return {"apiVersion": "descheduler/v1alpha2", "kind": "DeschedulerPolicy",
            "nodeSelector": f"{SCN}={scn}",
            "profiles": [{"name": "koord-upstream",
                          "pluginConfig": [{"name": "DefaultEvictor", "args": evictor},
                                           {"name": plugin, "args": args}],
                          "plugins": {point: {"enabled": [plugin]}}}]}


def koord_config(strategy, point, scn, args, migration):
    plugin = plugin_of(strategy)
    # No limits of koord's own that the community does not have: every chosen pod is reported.
    mc = {"maxMigratingPerNode": 1000, "maxMigratingPerNamespace": 1000,
          "maxMigratingPerWorkload": 1000, "maxUnavailablePerWorkload": 1000,
          "skipCheckExpectedReplicas": True, "objectLimiters": {}}
    mc.update(migration)
    return {"apiVersion": "descheduler/v1alpha2", "kind": "DeschedulerConfiguration",
            "leaderElection": {"leaderElect": False},
            "nodeSelector": {"matchLabels": {SCN: scn}},
            "profiles": [{"name": "koord-descheduler",
                          "plugins": {point: {"enabled": [{"name": plugin}]}},
                          "pluginConfig": [{"name": plugin, "args": args},
                                           {"name": "MigrationController", "args": mc}]}]}


def configs(out, max_age):
    with open(os.path.join(out, "scenarios.tsv"), "w") as tsv:
        for sid, strategy, point, scn, args, evictor, migration, expected, mode in scenarios(max_age):
            for suffix, doc in ((".policy.yaml", policy(strategy, point, scn, args, evictor)),
                                (".koord.yaml", koord_config(strategy, point, scn, args, migration))):
                with open(os.path.join(out, sid + suffix), "w") as f:
                    json.dump(doc, f, indent=1)  # JSON is YAML
            with open(os.path.join(out, sid + ".expected"), "w") as f:
                f.write("".join(e + "\n" for e in sorted(expected)))
            label = strategy + LABEL_SUFFIX.get(sid, "")
            tsv.write(f"{sid}\t{label}\t{mode}\n")


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "base":
        dump(base(argv[2]))
    elif cmd in ("pods", "young"):
        owners = owners_from(argv[3])
        dump([pod(argv[2], owners, *p) for p in (PODS if cmd == "pods" else YOUNG)])
    elif cmd == "configs":
        configs(argv[2], int(argv[3]))
    elif cmd == "status":
        for name, patch in STATUS_PATCHES:
            print(name + "\t" + json.dumps(patch))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
