#!/usr/bin/env python3
"""Follows a running koord-manager until it has written batch-cpu to every node (run.sh's step 2).

  watch_manager.py --server URL --token T --pid PID --health URL --nodes N
                   [--timeout S] [--settle S] [--interval S]

From the moment it starts (just after koord-manager was started), every --interval seconds
(default 2): reads the process's /proc/PID/status (VmRSS, VmHWM) and /proc/PID/stat (utime +
stime), GETs --health/readyz, and once that answers 200 counts the Nodes whose
status.allocatable has kubernetes.io/batch-cpu (a list served from kube-apiserver's watch cache,
resourceVersion=0). When the count reaches N it prints the figures at that point, then waits
--settle seconds (default 30) and prints the steady ones. Output, one "key: value" a line:
  ready_s                 seconds from start to /readyz 200
  all_batch_s             seconds from start to batch-cpu on N nodes
  cpu_s_at_all_batch      the process's CPU seconds (user + system) then
  rss_mib_at_all_batch    VmRSS then;  peak_rss_mib_at_all_batch   VmHWM then
  rss_mib_steady          VmRSS after --settle more seconds;  peak_rss_mib  VmHWM then
  cpu_s_settle            CPU seconds used during those --settle seconds
Exits 1 when the process dies or --timeout (default 1800) passes first (with the last count).
"""
import argparse
import json
import os
import ssl
import sys
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")


def proc_status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024.0  # kB -> MiB
    return out


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def ready(health):
    try:
        with urllib.request.urlopen(health.rstrip("/") + "/readyz", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def batch_nodes(server, token):
    request = urllib.request.Request(
        server.rstrip("/") + "/api/v1/nodes?resourceVersion=0",
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    context = ssl._create_unverified_context()  # the throw-away control plane's own CA
    with urllib.request.urlopen(request, context=context, timeout=60) as response:
        items = json.load(response)["items"]
    return sum(1 for n in items
               if "kubernetes.io/batch-cpu" in n.get("status", {}).get("allocatable", {}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--health", required=True)
    parser.add_argument("--nodes", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--settle", type=float, default=30)
    parser.add_argument("--interval", type=float, default=2)
    args = parser.parse_args()
    start = time.monotonic()
    ready_at = None
    count = 0
    try:
        while True:
            elapsed = time.monotonic() - start
            if elapsed > args.timeout:
                print(f"watch_manager.py: {count} of {args.nodes} nodes have batch-cpu after "
                      f"{args.timeout:.0f} s", file=sys.stderr)
                return 1
            if ready_at is None and ready(args.health):
                ready_at = elapsed
                print(f"ready_s: {ready_at:.1f}", flush=True)
            if ready_at is not None:
                count = batch_nodes(args.server, args.token)
                print(f"progress: {elapsed:.0f} s: {count} nodes with batch-cpu, "
                      f"rss {proc_status(args.pid)['VmRSS']:.0f} MiB", file=sys.stderr,
                      flush=True)
                if count >= args.nodes:
                    break
            time.sleep(args.interval)
        done = time.monotonic() - start
        cpu = cpu_seconds(args.pid)
        mem = proc_status(args.pid)
        print(f"all_batch_s: {done:.1f}")
        print(f"cpu_s_at_all_batch: {cpu:.1f}")
        print(f"rss_mib_at_all_batch: {mem['VmRSS']:.1f}")
        print(f"peak_rss_mib_at_all_batch: {mem['VmHWM']:.1f}", flush=True)
        time.sleep(args.settle)
        mem = proc_status(args.pid)
        print(f"rss_mib_steady: {mem['VmRSS']:.1f}")
        print(f"peak_rss_mib: {mem['VmHWM']:.1f}")
        print(f"cpu_s_settle: {cpu_seconds(args.pid) - cpu:.1f}")
        return 0
    except FileNotFoundError:
        print("watch_manager.py: koord-manager exited", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
