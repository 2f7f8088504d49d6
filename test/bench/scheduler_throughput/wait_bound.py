#!/usr/bin/env python3
"""Waits until N pods of a namespace are bound, by watching them (metadata only) rather than
polling: a watch costs the apiserver one small event per binding, whatever the run's length, so
it weighs the same on a fast and a slow run. Prints "watching" once the first watch is open, then
exits 0 when N distinct pods have a node, 1 on an HTTP error or when --timeout passes. A watch the
apiserver closes (it drops watchers that fall behind) is resumed after a list of the bound pods.

  wait_bound.py --server https://127.0.0.1:PORT --token TOKEN --namespace default --count N
"""
import argparse
import http.client
import json
import ssl
import sys
import time
import urllib.parse

ACCEPT = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
ACCEPT_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"


class Client:
    def __init__(self, server, token, timeout):
        url = urllib.parse.urlparse(server)
        self.host, self.port, self.token, self.timeout = url.hostname, url.port, token, timeout
        self.context = ssl._create_unverified_context()  # the throw-away control plane's own CA

    def get(self, path, params, accept):
        conn = http.client.HTTPSConnection(self.host, self.port, context=self.context,
                                           timeout=self.timeout)
        conn.request("GET", f"{path}?{urllib.parse.urlencode(params)}",
                     headers={"Authorization": f"Bearer {self.token}", "Accept": accept})
        response = conn.getresponse()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: HTTP {response.status}")
        return response


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--namespace", default="default")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()

    client = Client(args.server, args.token, args.timeout)
    path = f"/api/v1/namespaces/{args.namespace}/pods"
    selector = {"fieldSelector": "spec.nodeName!="}
    deadline = time.monotonic() + args.timeout
    bound = set()
    version = None
    announced = False
    while time.monotonic() < deadline:
        if version is None:
            listed = json.load(client.get(path, selector, ACCEPT_LIST))
            bound.update(item["metadata"]["name"] for item in listed.get("items") or [])
            version = listed["metadata"]["resourceVersion"]
        if len(bound) >= args.count:
            return 0
        params = dict(selector, watch="1", resourceVersion=version,
                      timeoutSeconds=str(max(1, int(deadline - time.monotonic()))))
        response = client.get(path, params, ACCEPT)
        if not announced:
            print("watching", flush=True)
            announced = True
        while len(bound) < args.count:
            line = response.readline()
            if not line:
                version = None  # closed by the apiserver: list again, then watch again
                break
            event = json.loads(line)
            if event.get("type") in ("ADDED", "MODIFIED"):
                bound.add(event["object"]["metadata"]["name"])
                version = event["object"]["metadata"].get("resourceVersion", version)
            elif event.get("type") == "ERROR":
                version = None  # e.g. 410 Gone
                break
        if len(bound) >= args.count:
            return 0
    print(f"only {len(bound)} of {args.count} pods bound before the timeout", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, RuntimeError, ValueError, KeyError) as e:
        print(f"wait_bound.py: {e}", file=sys.stderr)
        sys.exit(1)
