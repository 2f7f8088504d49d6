#!/usr/bin/env python3
"""What a hostile process on the same host can send to a koord HTTP server, for the e2e tests.

Every probe goes to 127.0.0.1 only, is bounded in count and time, and stops by itself. Each command
prints `key=value` lines for the calling script to check (docs/security.md lists the limits):

  deep PORT PATH...           POSTs JSON nested 100,000 objects and 300,000 arrays deep under an
                              unknown field of the Pod and of a Node to each PATH; prints each
                              answer's status and whether it names the nesting limit.
  bodies PORT METHOD PATH --connections N --bytes B --stall S [--pid PID] [--valid-json]
                              N connections at once each declare a body of B bytes and send it
                              (as far as the server takes it), then stall S seconds without reading;
                              with --pid, prints the server's resident memory before, at its peak
                              (sampled every 50 ms) and 3 s after the connections closed, in KiB.
                              --valid-json sends filter requests whose pod carries B bytes of
                              small objects (the most memory a body can make a decoder build).
  flood PORT PATH --idle N --slow M --probes P
                              opens N connections that send nothing and M that send half a request
                              head and stall, then sends P probes (GET PATH, each on a new
                              connection) while they stay open; prints how many got 200.
"""
import argparse
import json
import socket
import sys
import threading
import time

HOST = "127.0.0.1"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def read_answer(sock, timeout=10.0):
    """The status code and body of one HTTP answer (0 when none came)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1."):
            return 0, ""
        status = int(head.split(b" ")[1])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return status, rest[:length].decode(errors="replace")
    except (OSError, ValueError, IndexError):
        return 0, ""


def post(port, path, body, timeout=30.0):
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        sock.sendall(head + body)
        return read_answer(sock, timeout)


def get(port, path, timeout=10.0):
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
            return read_answer(sock, timeout)
    except OSError:
        return 0, ""


def deep(args):
    objects = '{"a":' * 100000 + "1" + "}" * 100000
    arrays = "[" * 300000 + "]" * 300000
    bodies = {
        "pod_metadata_objects": '{"Pod":{"metadata":{"name":"p","x":' + objects +
                                '}},"NodeNames":["n1"]}',
        "pod_spec_arrays": '{"Pod":{"metadata":{"name":"p"},"spec":{"x":' + arrays +
                           '}},"NodeNames":["n1"]}',
        "node_in_items": '{"Pod":{"metadata":{"name":"p"}},"Nodes":{"items":[{"metadata":'
                         '{"name":"n1","x":' + objects + '}}]}}',
    }
    for path in args.paths:
        for name, body in bodies.items():
            status, text = post(args.port, path, body.encode())
            key = path.strip("/").replace("/", "_")
            print(f"{key}.{name}.status={status}")
            print(f"{key}.{name}.names_limit={'nesting deeper than 256 levels' in text}")


def filter_body(size):
    item = '{"a":1},'
    count = max(1, (size - 100) // len(item))
    items = (item * count)[:-1]
    return ('{"Pod":{"metadata":{"name":"p","namespace":"d","x":[' + items +
            ']}},"NodeNames":["n1"]}').encode()


def bodies(args):
    body = filter_body(args.bytes) if args.valid_json else b"0" * args.bytes
    head = (f"{args.method} {args.path} HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    before = rss_kib(args.pid) if args.pid else -1
    peak = [before]
    statuses = []
    lock = threading.Lock()
    socks = []
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            if args.pid:
                peak[0] = max(peak[0], rss_kib(args.pid))
            time.sleep(0.05)

    def one():
        try:
            sock = socket.create_connection((HOST, args.port), timeout=10)
        except OSError:
            with lock:
                statuses.append(0)
            return
        with lock:
            socks.append(sock)
        sent = 0
        try:
            sock.sendall(head)
            view = memoryview(body)
            sock.settimeout(5)
            while sent < len(body):
                sent += sock.send(view[sent:sent + 65536])
        except OSError:
            pass  # the server stopped taking the body: its answer says why
        status, _ = read_answer(sock, timeout=args.stall + 10)
        with lock:
            statuses.append(status)

    sampler = threading.Thread(target=sample)
    sampler.start()
    threads = [threading.Thread(target=one) for _ in range(args.connections)]
    for t in threads:
        t.start()
    time.sleep(args.stall)
    for t in threads:
        t.join(timeout=args.stall + 30)
    for sock in socks:
        sock.close()
    stop.set()
    sampler.join()
    time.sleep(3)
    after = rss_kib(args.pid) if args.pid else -1
    counts = {}
    for s in statuses:
        counts[s] = counts.get(s, 0) + 1
    print("statuses=" + ",".join(f"{k}:{v}" for k, v in sorted(counts.items())))
    print(f"rss_before_kib={before}")
    print(f"rss_peak_kib={peak[0]}")
    print(f"rss_after_kib={after}")


def flood(args):
    held = []
    for i in range(args.idle + args.slow):
        try:
            sock = socket.create_connection((HOST, args.port), timeout=5)
        except OSError:
            break
        if i >= args.idle:
            try:
                sock.sendall(f"GET {args.path} HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode())
            except OSError:
                pass
        held.append(sock)
    ok = 0
    for _ in range(args.probes):
        status, _ = get(args.port, args.path)
        ok += status == 200
    print(f"opened={len(held)}")
    print(f"probes_ok={ok}")
    print(f"probes={args.probes}")
    for sock in held:
        sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("deep")
    p.add_argument("port", type=int)
    p.add_argument("paths", nargs="+")
    p.set_defaults(run=deep)
    p = sub.add_parser("bodies")
    p.add_argument("port", type=int)
    p.add_argument("method")
    p.add_argument("path")
    p.add_argument("--connections", type=int, required=True)
    p.add_argument("--bytes", type=int, required=True)
    p.add_argument("--stall", type=float, default=2.0)
    p.add_argument("--pid", type=int, default=0)
    p.add_argument("--valid-json", action="store_true")
    p.set_defaults(run=bodies)
    p = sub.add_parser("flood")
    p.add_argument("port", type=int)
    p.add_argument("path")
    p.add_argument("--idle", type=int, required=True)
    p.add_argument("--slow", type=int, default=0)
    p.add_argument("--probes", type=int, default=20)
    p.set_defaults(run=flood)
    args = parser.parse_args()
    if getattr(args, "connections", 1) > 1000 or getattr(args, "idle", 0) > 2000:
        sys.exit("hostile_http: refusing more than 1,000 body connections or 2,000 idle ones")
    args.run(args)


if __name__ == "__main__":
    main()
