#!/usr/bin/env python3
"""Fills a control plane with what koord-manager reads at scale, fast (run.sh's step 1).

  populate.py --server URL --token T --nodes N --pods-per-node M [--workers W] [--no-running]

Creates, over W keep-alive HTTPS connections in parallel (default 8):
  - N Nodes scale-node-<i> (status capacity and allocatable cpu 32, memory 128Gi, pods 110; no
    kwok annotation, so nothing runs them and no kubelet touches them);
  - M pods a node, already bound (spec.nodeName), in namespace default: 70% koord-prod LS pods
    (cpu 500m-2, memory 1-4Gi requests and limits), 20% koord-batch BE pods (batch-cpu and
    batch-memory), 10% without a priority class (the PriorityClasses koord-prod and koord-batch
    must exist: run.sh creates the chart's); then each pod's status phase Running (PATCH
    /status; --no-running leaves them Pending, which koord-manager counts alike);
  - N NodeMetrics named after the nodes, with a status updated at their creation (node usage, system usage and
    one podsMetric entry per pod of the node, as koord-agent reports them).
Prints one line per kind: how many, seconds, objects/s. Exits 1 on the first refused request.
"""
import argparse
import concurrent.futures
import datetime
import http.client
import json
import ssl
import sys
import threading
import time
import urllib.parse

LOCAL = threading.local()


class Api:
    def __init__(self, server, token):
        url = urllib.parse.urlparse(server)
        self.host, self.port = url.hostname, url.port or 443
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        self.context = ssl._create_unverified_context()  # the throw-away control plane's own CA

    def _connection(self):
        conn = getattr(LOCAL, "conn", None)
        if conn is None:
            conn = http.client.HTTPSConnection(self.host, self.port, context=self.context,
                                               timeout=60)
            LOCAL.conn = conn
        return conn

    def call(self, method, path, body, content_type="application/json"):
        data = json.dumps(body, separators=(",", ":")).encode()
        headers = dict(self.headers, **{"Content-Type": content_type})
        for attempt in range(5):
            conn = self._connection()
            try:
                conn.request(method, path, body=data, headers=headers)
                response = conn.getresponse()
                text = response.read()
            except (OSError, http.client.HTTPException):
                LOCAL.conn = None
                conn.close()
                time.sleep(0.2 * (attempt + 1))
                continue
            if response.status == 429 or response.status >= 500:
                time.sleep(0.2 * (attempt + 1))
                continue
            if response.status >= 300:
                raise RuntimeError(f"{method} {path}: HTTP {response.status}: {text[:300]!r}")
            return
        raise RuntimeError(f"{method} {path}: no answer after 5 tries")


def node(i):
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": f"scale-node-{i}",
                         "labels": {"kubernetes.io/hostname": f"scale-node-{i}",
                                    "topology.kubernetes.io/zone": f"zone-{i % 3}",
                                    "node.kubernetes.io/instance-type": "ecs.g7.8xlarge"}},
            "status": {"capacity": {"cpu": "32", "memory": "128Gi", "pods": "110",
                                    "ephemeral-storage": "200Gi"},
                       "allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110",
                                       "ephemeral-storage": "180Gi"}}}


def pod(i, j):
    name = f"scale-pod-{i}-{j}"
    kind = j % 10
    labels = {"app": f"app-{(i + j) % 97}", "pod-template-hash": f"{i % 1000:04d}"}
    if kind < 7:
        cpu = ["500m", "1", "2"][j % 3]
        memory = ["1Gi", "2Gi", "4Gi"][j % 3]
        labels["koordinator.sh/priority-class"] = "koord-prod"
        labels["koordinator.sh/qosClass"] = "LS"
        resources = {"requests": {"cpu": cpu, "memory": memory},
                     "limits": {"cpu": cpu, "memory": memory}}
        priority_class = "koord-prod"
    elif kind < 9:
        labels["koordinator.sh/priority-class"] = "koord-batch"
        labels["koordinator.sh/qosClass"] = "BE"
        resources = {"requests": {"kubernetes.io/batch-cpu": "1000",
                                  "kubernetes.io/batch-memory": "2Gi"},
                     "limits": {"kubernetes.io/batch-cpu": "1000",
                                "kubernetes.io/batch-memory": "2Gi"}}
        priority_class = "koord-batch"
    else:
        resources = {"requests": {"cpu": "100m", "memory": "128Mi"}}
        priority_class = None
    out = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": name, "namespace": "default", "labels": labels,
                        "annotations": {"prometheus.io/scrape": "true"}},
           "spec": {"nodeName": f"scale-node-{i}",
                    "containers": [{"name": "main",
                                    "image": "registry.example.com/app/main:1.0",
                                    "resources": resources,
                                    "ports": [{"containerPort": 8080, "protocol": "TCP"}]}],
                    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                                     "effect": "NoExecute"}]}}
    if priority_class:
        out["spec"]["priorityClassName"] = priority_class
    return out


def running_status(now):
    return {"status": {"phase": "Running", "startTime": now,
                       "conditions": [{"type": "Ready", "status": "True",
                                       "lastTransitionTime": now}]}}


def node_metric(i, pods_per_node, now):
    pods = []
    for j in range(pods_per_node):
        entry = {"namespace": "default", "name": f"scale-pod-{i}-{j}",
                 "podUsage": {"resources": {"cpu": "300m", "memory": "800Mi"}}}
        if j % 10 < 7:
            entry["priority"] = "koord-prod"
        elif j % 10 < 9:
            entry["priority"] = "koord-batch"
        pods.append(entry)
    return {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
            "metadata": {"name": f"scale-node-{i}"},
            "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300,
                                             "reportIntervalSeconds": 60}},
            "status": {"updateTime": now,
                       "nodeMetric": {"nodeUsage": {"resources": {"cpu": "12", "memory": "40Gi"}},
                                      "systemUsage": {"resources": {"cpu": "1",
                                                                    "memory": "4Gi"}}},
                       "podsMetric": pods}}


def run(api, label, count, work, workers):
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in concurrent.futures.as_completed([pool.submit(work, k)
                                                       for k in range(count)]):
            future.result()
    seconds = time.monotonic() - start
    print(f"created {label}: {count} in {seconds:.1f} s ({count / seconds:.0f}/s)", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--pods-per-node", type=int, required=True)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--no-running", action="store_true")
    args = parser.parse_args()
    api = Api(args.server, args.token)
    n, m = args.nodes, args.pods_per_node
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    run(api, "nodes", n, lambda i: api.call("POST", "/api/v1/nodes", node(i)), args.workers)

    def create_pod(k):
        i, j = divmod(k, m)
        api.call("POST", "/api/v1/namespaces/default/pods", pod(i, j))
        if not args.no_running:
            api.call("PATCH", f"/api/v1/namespaces/default/pods/scale-pod-{i}-{j}/status",
                     running_status(now), "application/merge-patch+json")
    run(api, "pods" if args.no_running else "pods (Running)", n * m, create_pod, args.workers)

    base = "/apis/slo.koordinator.sh/v1alpha1/nodemetrics"

    def create_metric(i):
        updated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        metric = node_metric(i, m, updated)
        api.call("POST", base, metric)
        api.call("PATCH", f"{base}/scale-node-{i}/status", {"status": metric["status"]},
                 "application/merge-patch+json")
    run(api, "nodemetrics (with status)", n, create_metric, args.workers)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        print(f"populate.py: {e}", file=sys.stderr)
        sys.exit(1)
