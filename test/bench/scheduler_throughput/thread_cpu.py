#!/usr/bin/env python3
"""CPU seconds of one process by thread name (koord's threads are named: koord-http, watch-pods...).

  thread_cpu.py snapshot PID > FILE    writes each live thread's id, name and CPU ticks so far
  thread_cpu.py since PID FILE         prints "name=seconds ..." used since the snapshot by every
                                       name of a live thread, largest first; `exited=` is what
                                       threads gone since then used (the process's total less its
                                       live threads'), left out when 0

A thread started after the snapshot counts in full. A process that is gone prints "gone".
"""
import os
import sys

TICKS = os.sysconf("SC_CLK_TCK")


def parse_stat(text):
    """(name, user + system ticks) from a /proc stat line; the name may hold spaces and ')'."""
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return name, int(fields[11]) + int(fields[12])


def threads(pid):
    """{tid: (name, ticks)} of the live threads of pid; {} when the process is gone."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                out[tid] = parse_stat(f.read())
        except (OSError, ValueError):
            continue  # ended while being read
    return out


def process_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return parse_stat(f.read())[1]
    except (OSError, ValueError):
        return None


def main(argv):
    if len(argv) == 3 and argv[1] == "snapshot":
        pid = argv[2]
        print(f"process {process_ticks(pid) or 0}")
        for tid, (name, ticks) in threads(pid).items():
            print(f"{tid} {ticks} {name}")
        return 0
    if len(argv) == 4 and argv[1] == "since":
        pid, path = argv[2], argv[3]
        before, process_before = {}, 0
        try:
            f = open(path)
        except OSError as e:
            print(f"thread_cpu.py: cannot read the snapshot {path}: {e.strerror}", file=sys.stderr)
            return 2
        with f:
            for line in f:
                parts = line.rstrip("\n").split(" ", 2)
                if parts[0] == "process":
                    process_before = int(parts[1])
                elif len(parts) == 3:
                    before[parts[0]] = int(parts[1])
        process_now = process_ticks(pid)
        now = threads(pid)
        if process_now is None or not now:
            print("gone")
            return 0
        by_name = {}
        for tid, (name, ticks) in now.items():
            by_name[name] = by_name.get(name, 0) + ticks - before.get(tid, 0)
        exited = (process_now - process_before) - sum(by_name.values())
        if exited > 0:
            by_name["exited"] = exited
        items = sorted(by_name.items(), key=lambda kv: -kv[1])
        print(" ".join(f"{name}={ticks / TICKS:.1f}" for name, ticks in items))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
