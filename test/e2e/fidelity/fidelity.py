#!/usr/bin/env python3
"""The fidelity test's runner: real kube-scheduler + koord-extender against `koord-extender simulate`.

Driven by fidelity_test.sh, one cluster at a time (see README.md in this folder):

  fidelity.py clean    --cluster-dir D                       delete what earlier runs left
  fidelity.py setup    --cluster-dir D --work W --index I    namespace + Ready kwok nodes
  (fidelity_test.sh starts koord-extender and kube-scheduler -v=10 here)
  fidelity.py schedule --cluster-dir D --work W --index I --log L --log-offset N
        creates the pods one at a time, each waited for (bound, or Unschedulable), and reads each
        pod's per-node final scores from kube-scheduler's log L (from byte N)
  (fidelity_test.sh stops them here)
  fidelity.py teardown --cluster-dir D --work W --index I    delete the pods, nodes, namespace
  fidelity.py compare  --work W --index I --simulator BIN    run `BIN simulate`, compare, print
  fidelity.py summary  --work W                              total line; exit 1 on a disagreement

`compare` and `summary` need no cluster: rerun them on a kept work folder (KOORD_FIDELITY_WORK)
with another simulator binary to judge simulator changes against the recorded kube-scheduler runs.

A pod counts when kube-scheduler's best final score for it is unique, when it had one feasible node
(kube-scheduler then scores nothing), or when it was unschedulable (the simulator must leave it
unplaced too). Agreement: the same node, or both unplaced. The simulator is run on the whole
cluster with every pod pending (sim-00.yaml); once it places a pod elsewhere than kube-scheduler
did (a tie, or a disagreement), it is run again with the pods up to that one bound where
kube-scheduler put them, so that every pod is judged on the state kube-scheduler saw.
Standard library only.
"""

import argparse
import json
import os
import re
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request

ISOLATION_LABEL = "koord.test/fidelity-cluster"  # on the nodes, and in every pod's nodeSelector
MARK_LABEL = "koord.test/fidelity"               # on nodes and namespaces, for cleaning up
KWOK_ANNOTATION = ("kwok.x-k8s.io/node", "fake")
POD_TIMEOUT_S = 60
NODE_TIMEOUT_S = 60

# kube-scheduler (pkg/scheduler/schedule_one.go, prioritizeNodes) at -v=10, klog text format:
#   I1202 00:41:07.123456  4242 schedule_one.go:1050] "Calculated node's final score for pod" pod="koord-fid-c00/p01" node="fid-c00-n2" score=187
# and, before it, one line per score plugin (normalized and weighted) and per extender (0..10,
# before kube-scheduler multiplies it by the extender's weight and by 10):
#   ... "Plugin scored node for pod" pod="koord-fid-c00/p01" plugin="NodeResourcesFit" node="fid-c00-n2" score=87
#   ... "Extender scored node for pod" pod="koord-fid-c00/p01" extender="http://127.0.0.1:41234/scheduler" node="fid-c00-n2" score=0
FINAL_SCORE = "Calculated node's final score for pod"
PLUGIN_SCORE = "Plugin scored node for pod"
EXTENDER_SCORE = "Extender scored node for pod"
_MSG_RE = re.compile(r'\] "((?:[^"\\]|\\.)*)"(.*)$')
_KV_RE = re.compile(r'([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_score_line(line):
    """(message, {key: value}) for one of the three score lines, else None."""
    if "scored node for pod" not in line and FINAL_SCORE not in line:
        return None
    m = _MSG_RE.search(line)
    if not m or m.group(1).replace('\\"', '"') not in (FINAL_SCORE, PLUGIN_SCORE, EXTENDER_SCORE):
        return None
    fields = {}
    for key, value in _KV_RE.findall(m.group(2)):
        fields[key] = json.loads(value) if value.startswith('"') else value
    return m.group(1).replace('\\"', '"'), fields


def parse_scheduler_log(lines):
    """{pod: {"final": {node: int}, "parts": {node: {name: int}}, "attempts": n}} from log lines.

    One scoring attempt logs the plugin and extender lines, then the final lines. A pod scored
    again (a retry) starts over: only its last attempt is kept, and attempts counts them.
    """
    out = {}
    for line in lines:
        parsed = parse_score_line(line)
        if parsed is None:
            continue
        msg, f = parsed
        pod, node = f.get("pod"), f.get("node")
        if not pod or not node or "score" not in f:
            continue
        score = int(f["score"])
        entry = out.get(pod)
        final = msg == FINAL_SCORE
        new_attempt = entry is None or (entry["phase"] == "final" and
                                        (not final or node in entry["final"]))
        if new_attempt:
            entry = out[pod] = {"final": {}, "parts": {}, "phase": "parts",
                                "attempts": (entry["attempts"] if entry else 0) + 1}
        if final:
            entry["phase"] = "final"
            entry["final"][node] = score
        else:
            name = f.get("plugin") if msg == PLUGIN_SCORE else "extender"
            entry["parts"].setdefault(node, {})[name] = score
    for entry in out.values():
        entry.pop("phase")
    return out


# ---------------------------------------------------------------------------------------------
# kube-apiserver


class Api:
    def __init__(self, cluster_dir):
        env = {}
        with open(os.path.join(cluster_dir, "cluster.env"), encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    env[k] = v
        self.base = f"https://127.0.0.1:{env['APISERVER_PORT']}"
        self.token = env["TOKEN"]
        self.ctx = ssl.create_default_context(cafile=os.path.join(cluster_dir, "certs", "apiserver.crt"))

    def call(self, method, path, body=None, ok=(200, 201, 202), content_type="application/json"):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(req, context=self.ctx, timeout=30) as resp:
                status, text = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read()
        doc = json.loads(text) if text else {}
        if status not in ok:
            raise RuntimeError(f"{method} {path}: HTTP {status}: {doc.get('message', text[:300])}")
        return status, doc

    def get(self, path, ok=(200,)):
        return self.call("GET", path, ok=ok)[1]


def now():
    return time.monotonic()


# ---------------------------------------------------------------------------------------------
# the generated clusters and the work folder


def load_cluster(work, index):
    with open(os.path.join(work, "clusters.json"), encoding="utf-8") as f:
        return json.load(f)["clusters"][index]


def cluster_work(work, cluster):
    d = os.path.join(work, cluster["name"])
    os.makedirs(d, exist_ok=True)
    return d


def write_json(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def node_object(cluster, node):
    """The generated node as created: kwok manages it, the isolation label marks its cluster."""
    n = json.loads(json.dumps(node))
    n["metadata"].setdefault("labels", {})[ISOLATION_LABEL] = cluster["name"]
    n["metadata"]["labels"][MARK_LABEL] = "true"
    n["metadata"].setdefault("annotations", {})[KWOK_ANNOTATION[0]] = KWOK_ANNOTATION[1]
    return n


def pod_object(cluster, pod):
    """The generated pod as created: its nodeSelector also names its cluster's nodes, so that a
    node another test left behind is never a candidate (nodeSelector only filters: no score)."""
    p = json.loads(json.dumps(pod))
    p["spec"].setdefault("nodeSelector", {})[ISOLATION_LABEL] = cluster["name"]
    return p


# ---------------------------------------------------------------------------------------------
# clean, setup, schedule, teardown


def cmd_clean(args):
    api = Api(args.cluster_dir)
    for ns in api.get(f"/api/v1/namespaces?labelSelector={MARK_LABEL}%3Dtrue")["items"]:
        name = ns["metadata"]["name"]
        api.call("DELETE", f"/api/v1/namespaces/{name}/pods?gracePeriodSeconds=0", ok=(200, 404))
        api.call("DELETE", f"/api/v1/namespaces/{name}", ok=(200, 202, 404, 409))
    api.call("DELETE", f"/api/v1/nodes?labelSelector={MARK_LABEL}%3Dtrue", ok=(200, 404))
    return 0


def _taint_set(taints):
    return sorted((t["key"], t.get("value", ""), t["effect"]) for t in (taints or []))


def cmd_setup(args):
    api = Api(args.cluster_dir)
    cluster = load_cluster(args.work, args.index)
    cwork = cluster_work(args.work, cluster)
    ns = cluster["namespace"]
    # A namespace of an earlier run may still be terminating: wait for it to go.
    deadline = now() + NODE_TIMEOUT_S
    while True:
        status, _ = api.call("POST", "/api/v1/namespaces", {
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": ns, "labels": {MARK_LABEL: "true"}}}, ok=(201, 409))
        if status == 201:
            break
        if now() > deadline:
            print(f"fidelity {cluster['name']}: namespace {ns} still exists after "
                  f"{NODE_TIMEOUT_S}s", file=sys.stderr)
            return 1
        api.call("DELETE", f"/api/v1/namespaces/{ns}/pods?gracePeriodSeconds=0", ok=(200, 404))
        api.call("DELETE", f"/api/v1/namespaces/{ns}", ok=(200, 202, 404, 409))
        time.sleep(0.5)
    want = {}
    for node in cluster["nodes"]:
        obj = node_object(cluster, node)
        api.call("POST", "/api/v1/nodes", obj)
        want[obj["metadata"]["name"]] = _taint_set(obj["spec"].get("taints"))
    # kwok makes them Ready; kube-apiserver's admission gave each the taint
    # node.kubernetes.io/not-ready:NoSchedule, which kube-controller-manager removes once Ready.
    # kube-scheduler starts after this, so its first view of the nodes is the final one.
    deadline = now() + NODE_TIMEOUT_S
    while True:
        items = api.get(f"/api/v1/nodes?labelSelector={ISOLATION_LABEL}%3D{cluster['name']}")["items"]
        pending = []
        for n in items:
            ready = any(c["type"] == "Ready" and c["status"] == "True"
                        for c in n.get("status", {}).get("conditions", []))
            if not ready or _taint_set(n["spec"].get("taints")) != want.get(n["metadata"]["name"]):
                pending.append(n["metadata"]["name"])
        if len(items) == len(want) and not pending:
            break
        if now() > deadline:
            print(f"fidelity {cluster['name']}: nodes not Ready with their own taints after "
                  f"{NODE_TIMEOUT_S}s: {pending}", file=sys.stderr)
            return 1
        time.sleep(0.2)
    # The nodes as kube-apiserver holds them: what the simulator is given.
    nodes = []
    for n in sorted(items, key=lambda n: n["metadata"]["name"]):
        spec = {k: v for k, v in n["spec"].items() if k in ("taints", "unschedulable")}
        nodes.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": n["metadata"]["name"], "labels": n["metadata"]["labels"]},
                      "spec": spec,
                      "status": {"allocatable": n["status"]["allocatable"],
                                 "capacity": n["status"]["capacity"]}})
    write_json(os.path.join(cwork, "nodes.json"), nodes)
    return 0


def _pod_state(pod):
    """'bound', 'unschedulable', ('retry', message) or None (not decided yet).

    SchedulerError (e.g. koord-extender's bind refusing a pod its cache has not seen yet) is not
    an answer: kube-scheduler retries the pod after a back-off, and it is waited for again."""
    if pod["spec"].get("nodeName"):
        return "bound"
    for c in pod.get("status", {}).get("conditions", []):
        if c["type"] == "PodScheduled" and c["status"] == "False":
            if c.get("reason") == "Unschedulable":
                return "unschedulable"
            return ("retry", f"{c.get('reason')}: {c.get('message', '')}")
    return None


def cmd_schedule(args):
    api = Api(args.cluster_dir)
    cluster = load_cluster(args.work, args.index)
    cwork = cluster_work(args.work, cluster)
    ns = cluster["namespace"]
    results = []
    for pod in cluster["pods"]:
        name = pod["metadata"]["name"]
        _, created = api.call("POST", f"/api/v1/namespaces/{ns}/pods", pod_object(cluster, pod))
        entry = {"pod": f"{ns}/{name}", "priority": created["spec"].get("priority", 0)}
        deadline = now() + POD_TIMEOUT_S
        while True:
            cur = api.get(f"/api/v1/namespaces/{ns}/pods/{name}")
            state = _pod_state(cur)
            if isinstance(state, tuple):
                if state[1] not in entry.setdefault("schedulerErrors", []):
                    entry["schedulerErrors"].append(state[1])
                state = None
            if state == "bound":
                entry.update(state="bound", node=cur["spec"]["nodeName"])
                break
            if state == "unschedulable":
                msg = next(c.get("message", "") for c in cur["status"]["conditions"]
                           if c["type"] == "PodScheduled")
                entry.update(state="unschedulable", node=None, message=msg)
                # Gone, so that no later event has kube-scheduler retry and place it out of order
                # (the simulator never retries): an unplaced pod holds nothing either way.
                api.call("DELETE", f"/api/v1/namespaces/{ns}/pods/{name}?gracePeriodSeconds=0",
                         ok=(200, 202, 404))
                break
            if now() > deadline:
                entry.update(state="timeout", node=None,
                             message=f"neither bound nor unschedulable after {POD_TIMEOUT_S}s")
                break
            time.sleep(0.02)
        results.append(entry)
    # Every pod on this cluster's nodes must be one of ours.
    ours = {e["pod"] for e in results}
    node_names = {n["metadata"]["name"] for n in cluster["nodes"]}
    foreign = []
    for p in api.get("/api/v1/pods")["items"]:
        key = f"{p['metadata']['namespace']}/{p['metadata']['name']}"
        if p["spec"].get("nodeName") in node_names and key not in ours:
            foreign.append(f"{key} on {p['spec']['nodeName']}")
    # The scores, from kube-scheduler's log.
    with open(args.log, "rb") as f:
        f.seek(args.log_offset)
        raw = f.read().decode("utf-8", "replace").splitlines()
    score_lines = [line for line in raw if parse_score_line(line) is not None]
    # The prioritizing extender's weight, from kube-scheduler's start-up line
    #   "Creating extender" extender={"URLPrefix":"...","PrioritizeVerb":"prioritize","Weight":10,...}
    extender_weight = None
    for line in raw:
        if '"Creating extender" extender={' in line:
            ext = json.loads(line.split(" extender=", 1)[1])
            if ext.get("PrioritizeVerb"):
                extender_weight = ext.get("Weight")
    with open(os.path.join(cwork, "scores.log"), "w", encoding="utf-8") as f:
        f.write("\n".join(score_lines) + "\n")
    scores = parse_scheduler_log(score_lines)
    for entry in results:
        s = scores.get(entry["pod"])
        if s:
            entry.update(scores=s["final"], parts=s["parts"], attempts=s["attempts"])
    write_json(os.path.join(cwork, "kube.json"), {"pods": results, "foreign": foreign,
                                                  "extenderWeight": extender_weight})
    return 0


def cmd_teardown(args):
    api = Api(args.cluster_dir)
    cluster = load_cluster(args.work, args.index)
    ns = cluster["namespace"]
    api.call("DELETE", f"/api/v1/namespaces/{ns}/pods?gracePeriodSeconds=0", ok=(200, 404))
    api.call("DELETE", f"/api/v1/nodes?labelSelector={ISOLATION_LABEL}%3D{cluster['name']}",
             ok=(200, 404))
    api.call("DELETE", f"/api/v1/namespaces/{ns}", ok=(200, 202, 404, 409))
    return 0


# ---------------------------------------------------------------------------------------------
# the simulator


def to_yaml(value, indent=0):
    """Block YAML; every string double-quoted (JSON's escapes are YAML's)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for k, v in value.items():
            key = json.dumps(str(k))
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{key}:\n{to_yaml(v, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {to_yaml(v, indent + 2)}")
        return "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        lines = []
        for v in value:
            if isinstance(v, (dict, list)) and v:
                body = to_yaml(v, indent + 2)
                lines.append(f"{pad}- {body.lstrip()}")
            else:
                lines.append(f"{pad}- {to_yaml(v, indent + 2)}")
        return "\n".join(lines)
    return json.dumps(value)


def write_sim_input(path, cluster, nodes, kube, fixed):
    """Nodes, the first `fixed` pods bound where kube-scheduler put them (those it left unplaced
    are left out), the rest pending, in creation order (names p00, p01, ...: the simulator's order).
    Every pod carries the spec.priority kube-apiserver gave it."""
    docs = list(nodes)
    for i, pod in enumerate(cluster["pods"]):
        p = pod_object(cluster, pod)
        p["spec"]["priority"] = kube["pods"][i]["priority"]
        if i < fixed:
            if not kube["pods"][i]["node"]:
                continue
            p["spec"]["nodeName"] = kube["pods"][i]["node"]
        docs.append(p)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# fidelity test, cluster {cluster['name']}: "
                f"{'every pod pending' if fixed == 0 else f'the first {fixed} pods bound as kube-scheduler bound them'}\n")
        f.write("\n".join("---\n" + to_yaml(d) for d in docs) + "\n")


def run_simulator(simulator, path):
    proc = subprocess.run([simulator, "simulate", "-f", path, "-o", "json"],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"{simulator} simulate -f {path} exited {proc.returncode}: "
                           f"{proc.stderr.strip()[:2000]}")
    doc = json.loads(proc.stdout)
    return {p["pod"]: p.get("node") for p in doc["pods"]}


def score_sum_errors(entry, extender_weight):
    """Nodes whose final score is not the sum of the plugin lines and the extender line (0..10,
    times the extender's weight, times MaxNodeScore / MaxExtenderPriority = 10): a check that
    the log was read right."""
    bad = []
    for node, final in (entry.get("scores") or {}).items():
        parts = (entry.get("parts") or {}).get(node, {})
        total = sum(v for k, v in parts.items() if k != "extender")
        total += parts.get("extender", 0) * (extender_weight or 0) * 10
        if total != final:
            bad.append(f"{node}: final {final}, parts add up to {total}")
    return bad


def classify(entry, extender_weight):
    """How a kube-scheduler decision counts: 'unique', 'single', 'unschedulable', 'tie', 'error'."""
    if entry["state"] == "unschedulable":
        return "unschedulable"
    if entry["state"] != "bound":
        return "error"
    scores = entry.get("scores")
    if not scores:
        return "single"  # one feasible node: kube-scheduler scores nothing and takes it
    best = max(scores.values())
    if scores.get(entry["node"]) != best:
        entry["message"] = "bound to a node that did not have the best score"
        return "error"
    bad = score_sum_errors(entry, extender_weight)
    if bad:
        entry["message"] = "scores read from the log do not add up: " + "; ".join(bad)
        return "error"
    return "unique" if list(scores.values()).count(best) == 1 else "tie"


def describe_scores(entry):
    scores = entry.get("scores") or {}
    parts = entry.get("parts") or {}
    out = []
    for node, score in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
        detail = " ".join(f"{k}={v}" for k, v in sorted(parts.get(node, {}).items()))
        out.append(f"{node}={score}" + (f" [{detail}]" if detail else ""))
    return out


def cmd_compare(args):
    cluster = load_cluster(args.work, args.index)
    cwork = cluster_work(args.work, cluster)
    nodes = read_json(os.path.join(cwork, "nodes.json"))
    kube = read_json(os.path.join(cwork, "kube.json"))
    for old in os.listdir(cwork):
        if old.startswith("sim-") and old.endswith(".yaml"):
            os.remove(os.path.join(cwork, old))
    pods = kube["pods"]
    sim_node = {}   # pod index -> the simulator's node, from a run on kube-scheduler's state
    sim_file = {}
    fixed, runs = 0, 0
    while fixed < len(pods):
        path = os.path.join(cwork, f"sim-{fixed:02d}.yaml")
        write_sim_input(path, cluster, nodes, kube, fixed)
        runs += 1
        placed = run_simulator(args.simulator, path)
        diverged = None
        for k in range(fixed, len(pods)):
            sim_node[k] = placed.get(pods[k]["pod"], "<missing from the simulator's output>")
            sim_file[k] = path
            if sim_node[k] != pods[k]["node"]:
                diverged = k
                break
        fixed = len(pods) if diverged is None else diverged + 1
    counts = {"unique": 0, "single": 0, "unschedulable": 0, "tie": 0, "error": 0}
    counted = agree = 0
    report = []
    per_pod = []
    for k, entry in enumerate(pods):
        kind = classify(entry, kube.get("extenderWeight"))
        counts[kind] += 1
        per_pod.append({"pod": entry["pod"], "kind": kind, "kube": entry["node"],
                        "simulator": sim_node.get(k), "input": os.path.basename(sim_file.get(k, ""))})
        if kind == "error":
            where = f" on {entry['node']}" if entry.get("node") else ""
            report.append(f"  ERROR {entry['pod']}: kube-scheduler: {entry['state']}{where}"
                          + (f" ({entry['message']})" if entry.get("message") else "")
                          + (f"; scheduler errors: {entry['schedulerErrors']}" if entry.get("schedulerErrors") else "")
                          + "; scores: " + (", ".join(describe_scores(entry)) or "none"))
            continue
        if kind == "tie":
            continue
        counted += 1
        if sim_node[k] == entry["node"]:
            agree += 1
            continue
        what = {"unique": "unique best score", "single": "the only feasible node",
                "unschedulable": "unschedulable"}[kind]
        report.append(f"  DISAGREE {entry['pod']} ({what}): kube-scheduler -> {entry['node'] or '<unplaced>'}, "
                      f"simulator -> {sim_node[k] or '<unplaced>'}  (input {os.path.relpath(sim_file[k], args.work)})")
        if entry.get("message"):
            report.append(f"    kube-scheduler: {entry['message']}")
        for line in describe_scores(entry):
            report.append(f"    kube score {line}")
    for extra in kube.get("foreign", []):
        counts["error"] += 1
        report.append(f"  ERROR a pod not of this test on this cluster's nodes: {extra}")
    summary = {"cluster": cluster["name"], "pods": len(pods), "counted": counted, "agree": agree,
               "simulatorRuns": runs, **counts, "perPod": per_pod}
    write_json(os.path.join(cwork, "result.json"), summary)
    print(f"fidelity {cluster['name']}: {agree}/{counted} pods agree ({len(cluster['nodes'])} nodes, "
          f"{counts['unique']} unique best, {counts['single']} one feasible node, "
          f"{counts['unschedulable']} unschedulable, {counts['tie']} ties skipped"
          + (f", {counts['error']} errors" if counts["error"] else "")
          + f"; {runs} simulator run{'s' if runs != 1 else ''})")
    for line in report:
        print(line)
    return 0


def cmd_summary(args):
    doc = read_json(os.path.join(args.work, "clusters.json"))
    total = {"counted": 0, "agree": 0, "tie": 0, "error": 0}
    missing = []
    for cluster in doc["clusters"]:
        path = os.path.join(args.work, cluster["name"], "result.json")
        if not os.path.exists(path):
            missing.append(cluster["name"])
            continue
        r = read_json(path)
        for k in total:
            total[k] += r[k]
    n = len(doc["clusters"]) - len(missing)
    print(f"fidelity: {total['agree']}/{total['counted']} pods with a unique best score agree "
          f"({n} clusters, {total['tie']} ties skipped"
          + (f", {total['error']} harness errors" if total["error"] else "")
          + (f", clusters not run: {' '.join(missing)}" if missing else "") + ")")
    ok = total["agree"] == total["counted"] and not total["error"] and not missing
    return 0 if ok else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("clean", "setup", "schedule", "teardown", "compare", "summary"):
        p = sub.add_parser(name)
        if name in ("clean", "setup", "schedule", "teardown"):
            p.add_argument("--cluster-dir", required=True)
        if name != "clean":
            p.add_argument("--work", required=True)
        if name not in ("clean", "summary"):
            p.add_argument("--index", type=int, required=True)
        if name == "schedule":
            p.add_argument("--log", required=True)
            p.add_argument("--log-offset", type=int, default=0)
        if name == "compare":
            p.add_argument("--simulator", required=True)
    args = ap.parse_args(argv)
    try:
        return globals()["cmd_" + args.cmd](args)
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        print(f"fidelity.py {args.cmd}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
