#!/usr/bin/env python3
"""ctest lint.layering: every #include of a product source names a header of its own library or of
a library its CMake target depends on, directly or not.

Each library has its own include root (koord_include_root in cmake/KoordTargets.cmake), so the
compiler already refuses an include outside a target's libraries; this check states the rule from
the CMake graph and names the missing dependency, also for headers no source compiles: it configures the tree
into a scratch folder with `cmake --graphviz`, reads which library depends on which, assigns every
product file to its library by folder, and reports each include that reaches a library outside its
file's dependencies (a layering break, e.g. koord_api including koord/k8s/, or a plugin including
extender/server/).

Usage: check_layering.py <source dir> [<cmake binary>]
Exit status: 0 when clean, 1 with one line per problem.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
NODE = re.compile(r'^\s*"(node\d+)"\s*\[\s*label\s*=\s*"([^"]+)"', re.M)
EDGE = re.compile(r'^\s*"(node\d+)"\s*->\s*"(node\d+)"', re.M)

# Sub-folders of a program that form a library of their own (the rest of the program's folder
# belongs to koord_<program>_app).
PROGRAM_PARTS = {
    "extender": ["framework", "objects", "plugins", "config", "server/wire", "server", "simulator",
                 "reservation", "app"],
    "agent": ["system", "devices", "metriccache", "metricsadvisor", "resourceexecutor",
              "statesinformer", "reporters", "runtimehooks", "qosmanager", "app"],
    "manager": ["descheduler/config", "descheduler/framework", "descheduler/migration",
                "descheduler/plugins/pod_lifecycle", "descheduler/plugins/node_rules",
                "descheduler/plugins/spreading", "descheduler/plugins/utilization",
                "descheduler/plugins/lownodeload", "descheduler/app", "controller", "sloconfig", "noderesource", "nodeslo",
                "nodedevice", "webhook", "cert", "app"],
}
SPECIAL = {
    "manager/descheduler/config": "koord_descheduler_config",
    "manager/descheduler/framework": "koord_descheduler_framework",
    "manager/descheduler/migration": "koord_descheduler_migration",
    "manager/descheduler/plugins/pod_lifecycle": "koord_descheduler_pod_lifecycle",
    "manager/descheduler/plugins/node_rules": "koord_descheduler_node_rules",
    "manager/descheduler/plugins/spreading": "koord_descheduler_spreading",
    "manager/descheduler/plugins/utilization": "koord_descheduler_utilization",
    "manager/descheduler/plugins/lownodeload": "koord_descheduler_lownodeload",
    "manager/descheduler/app": "koord_descheduler_app",
}


def owner(rel):
    """The library that owns the source or header at `rel` (a path relative to the source root,
    or an include path); None when it belongs to no library (tests, tools, generated)."""
    parts = rel.split("/")
    if parts[0] == "include" and len(parts) > 2 and parts[1] == "koord":
        return "koord_" + parts[2]
    if parts[0] == "koord" and len(parts) > 1:
        return "koord_" + parts[1]
    if parts[0] == "src" and len(parts) > 2:
        return "koord_" + parts[1]
    if parts[0] in PROGRAM_PARTS:
        program = parts[0]
        for part in PROGRAM_PARTS[program]:
            if rel.startswith(f"{program}/{part}/"):
                key = f"{program}/{part}"
                if key in SPECIAL:
                    return SPECIAL[key]
                return f"koord_{program}_{part.replace('server/wire', 'wire')}"
        if len(parts) == 2:
            return f"koord-{program}"  # main.cpp: the executable
    return None


def graph(source, cmake):
    with tempfile.TemporaryDirectory(prefix="koord-layering-") as build:
        dot = os.path.join(build, "deps.dot")
        result = subprocess.run(
            [cmake, "-S", source, "-B", build, f"--graphviz={dot}", "-DKOORD_BUILD_TESTS=OFF"],
            capture_output=True, text=True, check=False)
        if result.returncode != 0 or not os.path.exists(dot):
            sys.exit("check_layering: cmake --graphviz failed:\n" + result.stdout + result.stderr)
        text = Path(dot).read_text()
    names = dict(NODE.findall(text))
    deps = {}
    for a, b in EDGE.findall(text):
        if a in names and b in names:
            deps.setdefault(names[a], set()).add(names[b])
    return deps


def reachable(deps, start):
    seen = {start}
    stack = [start]
    while stack:
        for nxt in deps.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    source = Path(sys.argv[1]).resolve()
    cmake = sys.argv[2] if len(sys.argv) > 2 else "cmake"
    deps = graph(str(source), cmake)
    known = set(deps) | {d for ds in deps.values() for d in ds}
    problems = []
    files = []
    for top in ("include", "src", "extender", "agent", "manager"):
        files += [p for p in (source / top).rglob("*") if p.suffix in (".cpp", ".hpp", ".in")]
    for path in sorted(files):
        rel = path.relative_to(source).as_posix()
        mine = owner(rel)
        if mine is None or mine not in known:
            continue
        allowed = reachable(deps, mine)
        for included in INCLUDE.findall(path.read_text(errors="replace")):
            theirs = owner(included)
            if theirs is None or theirs == mine or theirs not in known:
                continue
            if theirs not in allowed:
                problems.append(f"{rel}: includes \"{included}\" ({theirs}), which {mine} does "
                                "not depend on")
    if problems:
        print(f"check_layering: {len(problems)} include(s) against the CMake graph:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"check_layering: {len(files)} files, every include within its library's dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
