#!/usr/bin/env python3
"""Seeded generator of small clusters for the fidelity test (test/e2e/fidelity/README.md).

Writes one JSON document: {"seed": S, "clusters": [{"name": "c00", "namespace": "koord-fid-c00",
"nodes": [Node...], "pods": [Pod...]}, ...]}. Nodes (fid-c00-n0, ...) and Pods are plain Kubernetes
objects (apiVersion v1); the runner adds the kwok annotation and the per-cluster isolation label
and nodeSelector. Pods are listed in creation order and named p00, p01, ... so that the
simulator's queue order (priority, creationTimestamp, namespace/name) is that order too.

Every pod has the same priority (no priorityClassName) and schedulerName koord-scheduler. Pod
topology spread and inter-pod affinity are off by default; --topology-spread and
--inter-pod-affinity add them (each pod carries an `app` label they select on).

The same seed and flags always give the same clusters (random.Random(seed), no other input).
Standard library only.
"""

import argparse
import json
import random
import sys

SCHEDULER_NAME = "koord-scheduler"
ZONES = ["zone-a", "zone-b", "zone-c"]
APPS = ["web", "db", "cache"]

NODE_CPUS = ["2", "3", "4", "6", "8", "16"]
NODE_MEMORIES = ["4Gi", "6Gi", "8Gi", "12Gi", "16Gi", "32Gi"]
NODE_PODS = ["110", "110", "110", "16", "8", "4"]
POD_CPUS = ["100m", "200m", "250m", "300m", "500m", "750m", "1", "1500m", "2", "3"]
POD_MEMORIES = ["64Mi", "128Mi", "256Mi", "500Mi", "512Mi", "1Gi", "1536Mi", "2Gi", "3Gi", "5Gi"]


def _node(rng, name):
    labels = {
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": rng.choice(ZONES),
        "disk": rng.choice(["ssd", "hdd"]),
    }
    if rng.random() < 0.3:
        labels["node-pool"] = rng.choice(["general", "batch"])
    taints = []
    roll = rng.random()
    if roll < 0.15:
        taints.append({"key": "dedicated", "value": "infra", "effect": "NoSchedule"})
    elif roll < 0.45:
        taints.append({"key": "spot", "value": "true", "effect": "PreferNoSchedule"})
        if rng.random() < 0.35:
            taints.append({"key": "maintenance", "value": "soon", "effect": "PreferNoSchedule"})
    cpu, memory, pods = rng.choice(NODE_CPUS), rng.choice(NODE_MEMORIES), rng.choice(NODE_PODS)
    resources = {"cpu": cpu, "memory": memory, "pods": pods}
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": {},
        "status": {"allocatable": dict(resources), "capacity": dict(resources)},
    }
    if taints:
        node["spec"]["taints"] = taints
    return node


def _requests(rng):
    """A container's requests: both (most), cpu only, memory only, or none."""
    roll = rng.random()
    req = {}
    if roll < 0.12:
        return req
    if roll < 0.94 or roll >= 0.97:
        req["cpu"] = rng.choice(POD_CPUS)
    if roll < 0.97:
        req["memory"] = rng.choice(POD_MEMORIES)
    return req


def _container(name, requests):
    c = {"name": name, "image": "fake"}
    if requests:
        c["resources"] = {"requests": requests}
    return c


def _tolerations(rng):
    tolerations = []
    if rng.random() < 0.25:
        tolerations.append({"key": "dedicated", "operator": "Equal", "value": "infra",
                            "effect": "NoSchedule"})
    if rng.random() < 0.25:
        tolerations.append({"key": "spot", "operator": "Exists", "effect": "PreferNoSchedule"})
    if rng.random() < 0.04:
        tolerations.append({"operator": "Exists"})  # tolerates every taint
    return tolerations


def _node_affinity(rng, zones_in_use):
    affinity = {}
    if rng.random() < 0.15:
        if rng.random() < 0.5:
            expr = {"key": "topology.kubernetes.io/zone", "operator": "In",
                    "values": sorted(rng.sample(zones_in_use, min(2, len(zones_in_use))))}
        else:
            expr = {"key": "disk", "operator": "NotIn", "values": ["hdd"]}
        affinity["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": [expr]}]}
    if rng.random() < 0.45:
        terms = []
        for _ in range(rng.randint(1, 2)):
            if rng.random() < 0.5:
                expr = {"key": "topology.kubernetes.io/zone", "operator": "In",
                        "values": [rng.choice(ZONES)]}
            elif rng.random() < 0.5:
                expr = {"key": "disk", "operator": "In", "values": [rng.choice(["ssd", "hdd"])]}
            else:
                expr = {"key": "node-pool", "operator": "Exists"}
            terms.append({"weight": rng.randint(1, 100), "preference": {"matchExpressions": [expr]}})
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = terms
    return affinity


def _pod(rng, name, zones_in_use, topology_spread, inter_pod_affinity):
    app = rng.choice(APPS)
    containers = [_container("c0", _requests(rng))]
    if rng.random() < 0.15:
        containers.append(_container("c1", _requests(rng)))
    spec = {"schedulerName": SCHEDULER_NAME, "containers": containers}
    if rng.random() < 0.08:
        spec["initContainers"] = [_container("init", _requests(rng))]
    if rng.random() < 0.15:
        spec["nodeSelector"] = {"disk": "ssd"} if rng.random() < 0.6 else {
            "topology.kubernetes.io/zone": rng.choice(zones_in_use)}
    tolerations = _tolerations(rng)
    if tolerations:
        spec["tolerations"] = tolerations
    affinity = {}
    node_affinity = _node_affinity(rng, zones_in_use)
    if node_affinity:
        affinity["nodeAffinity"] = node_affinity
    if inter_pod_affinity and rng.random() < 0.4:
        kind = "podAffinity" if rng.random() < 0.5 else "podAntiAffinity"
        affinity[kind] = {"preferredDuringSchedulingIgnoredDuringExecution": [{
            "weight": rng.randint(1, 100),
            "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": rng.choice(APPS)}},
                                "topologyKey": rng.choice(["topology.kubernetes.io/zone",
                                                           "kubernetes.io/hostname"])}}]}
    if affinity:
        spec["affinity"] = affinity
    if topology_spread and rng.random() < 0.4:
        spec["topologySpreadConstraints"] = [{
            "maxSkew": rng.randint(1, 2),
            "topologyKey": rng.choice(["topology.kubernetes.io/zone", "kubernetes.io/hostname"]),
            "whenUnsatisfiable": "ScheduleAnyway" if rng.random() < 0.7 else "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": app}}}]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "labels": {"app": app}}, "spec": spec}


def generate(seed, clusters, topology_spread=False, inter_pod_affinity=False):
    rng = random.Random(seed)
    out = []
    for c in range(clusters):
        cname = f"c{c:02d}"
        nodes = [_node(rng, f"fid-{cname}-n{i}") for i in range(rng.randint(3, 6))]
        zones_in_use = sorted({n["metadata"]["labels"]["topology.kubernetes.io/zone"] for n in nodes})
        pods = [_pod(rng, f"p{i:02d}", zones_in_use, topology_spread, inter_pod_affinity)
                for i in range(rng.randint(6, 15))]
        for pod in pods:
            pod["metadata"]["namespace"] = f"koord-fid-{cname}"
        out.append({"name": cname, "namespace": f"koord-fid-{cname}", "nodes": nodes, "pods": pods})
    return {"seed": seed, "topologySpread": topology_spread,
            "interPodAffinity": inter_pod_affinity, "clusters": out}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clusters", type=int, default=20)
    ap.add_argument("--topology-spread", action="store_true",
                    help="give some pods topologySpreadConstraints")
    ap.add_argument("--inter-pod-affinity", action="store_true",
                    help="give some pods preferred pod (anti-)affinity")
    ap.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    args = ap.parse_args(argv)
    doc = generate(args.seed, args.clusters, args.topology_spread, args.inter_pod_affinity)
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
