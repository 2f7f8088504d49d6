#!/usr/bin/env python3
"""Requests kube-apiserver served, by verb and resource, from its own metrics
(apiserver_request_total), so two runs can be compared by what they asked of the control plane.

  api_requests.py snapshot --server URL --token T > FILE   writes the counters as they are now
  api_requests.py since --server URL --token T FILE        prints "VERB:resource[/subresource]=N ..."
                                                           for what changed since the snapshot,
                                                           largest first (WATCH requests and those
                                                           of under 10 left out), "none", or
                                                           "unavailable (why)" when the metrics or
                                                           the snapshot cannot be read

Exits 0 either way, so that a benchmark run never fails for want of these figures; a snapshot that
could not be taken is written as null, and the `since` after it says unavailable rather than
counting from kube-apiserver's start.

Counts are per request, whoever sent it (the metric has no client label). The reads of these
metrics themselves are GETs of no resource and are not listed.
"""
import argparse
import json
import re
import ssl
import sys
import urllib.request

SAMPLE = re.compile(r'^apiserver_request_total\{([^}]*)\} ([0-9.eE+]+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def counters(server, token):
    """{"VERB:resource/sub": count} from /metrics; raises OSError when it cannot be read."""
    request = urllib.request.Request(server.rstrip("/") + "/metrics",
                                     headers={"Authorization": f"Bearer {token}"})
    context = ssl._create_unverified_context()  # the throw-away control plane's own CA
    with urllib.request.urlopen(request, context=context, timeout=10) as response:
        text = response.read().decode()
    out = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if not match:
            continue
        labels = dict(LABEL.findall(match.group(1)))
        resource = labels.get("resource", "")
        if not resource or labels.get("verb") == "WATCH":
            continue
        if labels.get("subresource"):
            resource += "/" + labels["subresource"]
        key = f'{labels.get("verb", "?")}:{resource}'
        out[key] = out.get(key, 0) + float(match.group(2))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["snapshot", "since"])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_intermixed_args()
    if args.mode == "since" and not args.file:
        parser.error("since needs the FILE a snapshot was written to")
    try:
        now = counters(args.server, args.token)
    except OSError as error:
        print("null" if args.mode == "snapshot" else f"unavailable ({error})")
        return 0
    if args.mode == "snapshot":
        print(json.dumps(now))
        return 0
    try:
        with open(args.file) as f:
            before = json.load(f)
    except (OSError, ValueError) as error:
        print(f"unavailable (snapshot {args.file}: {error})")
        return 0
    if not isinstance(before, dict):
        print(f"unavailable (no snapshot was taken: {args.file} holds {json.dumps(before)})")
        return 0
    changed = {key: round(count - before.get(key, 0)) for key, count in now.items()}
    listed = sorted(((n, key) for key, n in changed.items() if n >= 10), reverse=True)
    print(" ".join(f"{key}={n}" for n, key in listed) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
