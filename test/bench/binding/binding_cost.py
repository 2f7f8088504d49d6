#!/usr/bin/env python3
"""What one pod binding costs kube-apiserver (and etcd) in CPU, with the Binding's body in JSON
and in protobuf, measured in the same run (docs/extender-throughput-log.md, "The binding in protobuf: measured, not shipped").

Starts its own control plane (test/controlplane/cluster.sh: etcd, kube-apiserver,
kube-controller-manager), creates one Node and --pods pending pods, then binds them in blocks of
--block, the encodings in the order JSON, protobuf, protobuf, JSON (ABBA, repeated), over --connections kept-alive HTTPS connections as koord-extender does. For each block it reads
kube-apiserver's and etcd's CPU seconds from /proc. Prints the median CPU per binding of each
encoding and their ratio; the client's own CPU is not counted.

  python3 test/bench/binding/binding_cost.py [--pods 3000] [--block 250] [--connections 8]

The JSON body is the one koord-extender sends; the protobuf body is what kube-scheduler's own
binder (client-go) sends. On this project's two-core machines the two measured alike (noise of
about 20% between blocks), so koord-extender keeps JSON.
"""
import argparse
import http.client
import json
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CLUSTER = os.path.join(ROOT, "test", "controlplane", "cluster.sh")


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field(number, data):
    return bytes([(number << 3) | 2]) + varint(len(data)) + data


def binding_protobuf(ns, pod, uid, node):
    metadata = field(1, pod.encode()) + field(3, ns.encode()) + field(5, uid.encode())
    target = field(1, b"Node") + field(3, node.encode())
    binding = field(1, metadata) + field(2, target)
    return b"k8s\0" + field(1, field(1, b"v1") + field(2, b"Binding")) + field(2, binding)


def binding_json(ns, pod, uid, node):
    return json.dumps({"apiVersion": "v1", "kind": "Binding",
                       "metadata": {"name": pod, "namespace": ns, "uid": uid},
                       "target": {"kind": "Node", "name": node}}).encode()


ENCODINGS = {"json": ("application/json", binding_json),
             "protobuf": ("application/vnd.kubernetes.protobuf", binding_protobuf)}


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Api:
    def __init__(self, env):
        url = urllib.parse.urlparse(f"https://127.0.0.1:{env['APISERVER_PORT']}")
        self.host, self.port, self.token = url.hostname, url.port, env["TOKEN"]
        self.context = ssl._create_unverified_context()  # the throw-away control plane's own CA

    def connect(self):
        return http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=60)

    def call(self, conn, method, path, body=None, content_type="application/json"):
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = content_type
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: HTTP {response.status}: {data[:300]!r}")
        return json.loads(data) if data else None


def bind_block(api, pods, encoding, connections):
    content_type, encode = ENCODINGS[encoding]
    chunks = [pods[i::connections] for i in range(connections)]
    errors = []

    def worker(chunk):
        conn = api.connect()
        try:
            for name, uid in chunk:
                body = encode("default", name, uid, "bench-node")
                api.call(conn, "POST", f"/api/v1/namespaces/default/pods/{name}/binding", body,
                         content_type)
        except Exception as e:  # reported after the block
            errors.append(e)
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(c,)) for c in chunks if c]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pods", type=int, default=3000)
    parser.add_argument("--block", type=int, default=250)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    if args.block < 1 or args.pods < 2 * args.block:
        sys.exit("binding_cost: --block must be at least 1 and --pods hold at least two blocks")
    if args.connections < 1:
        sys.exit("binding_cost: --connections must be at least 1")
    workdir = tempfile.mkdtemp(prefix="koord-binding-bench.")
    try:
        if subprocess.run(["bash", CLUSTER, "start", workdir], stdout=subprocess.DEVNULL).returncode:
            sys.exit("binding_cost: the control plane did not start (cluster.sh printed why)")
        env = dict(line.strip().split("=", 1) for line in open(os.path.join(workdir, "cluster.env"))
                   if "=" in line)
        api = Api(env)
        conn = api.connect()
        api.call(conn, "POST", "/api/v1/nodes", json.dumps(
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "bench-node"}}).encode())
        pods = []
        for i in range(args.pods):
            created = api.call(conn, "POST", "/api/v1/namespaces/default/pods", json.dumps(
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"b-{i}"},
                 "spec": {"schedulerName": "none",
                          "containers": [{"name": "c", "image": "fake"}]}}).encode())
            pods.append((created["metadata"]["name"], created["metadata"]["uid"]))
        conn.close()
        per_binding = {"json": [], "protobuf": []}
        blocks = [pods[i:i + args.block] for i in range(0, len(pods) - args.block + 1, args.block)]
        for n, block in enumerate(blocks):
            # ABBA: json, protobuf, protobuf, json, ... so neither always follows the other.
            encoding = ("json", "protobuf", "protobuf", "json")[n % 4]
            before = cpu_seconds(env["APISERVER_PID"]) + cpu_seconds(env["ETCD_PID"])
            bind_block(api, block, encoding, args.connections)
            after = cpu_seconds(env["APISERVER_PID"]) + cpu_seconds(env["ETCD_PID"])
            per_binding[encoding].append((after - before) / len(block) * 1000)
        json_ms = statistics.median(per_binding["json"])
        proto_ms = statistics.median(per_binding["protobuf"])
        print(f"bindings_per_encoding: {sum(len(b) for b in blocks) // 2}")
        for encoding, values in per_binding.items():
            print(f"{encoding}_cpu_ms_per_binding: {statistics.median(values):.3f} "
                  f"(blocks: {', '.join(f'{v:.3f}' for v in values)})")
        print(f"ratio_protobuf_over_json: {proto_ms / json_ms:.3f}")
    finally:
        subprocess.run(["bash", CLUSTER, "stop", workdir], stdout=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", workdir])


if __name__ == "__main__":
    main()
