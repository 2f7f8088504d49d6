#!/usr/bin/env python3
"""Compares what koord's ServiceAccounts did (kube-apiserver's audit log) with what RBAC grants them.

    audit_rbac.py --audit AUDIT.log --rbac RBAC.json --namespace NS [--allowed-unused FILE]

AUDIT.log: JSON lines from kube-apiserver's audit backend (test/controlplane/cluster.sh --node-ip
records every request of NS's ServiceAccounts at level Metadata). RBAC.json: `kubectl get
clusterroles,clusterrolebindings,roles,rolebindings -A -o json`.

Prints, per ServiceAccount of NS that a binding names: the requests refused (HTTP 403), and each
right of a role the chart defines (labelled app.kubernetes.io/managed-by=Helm) that no request
used. Rights from Kubernetes' own roles (system:kube-scheduler, ...) are listed as used or not,
but not judged: they are what kube-scheduler needs. FILE lists the unused rights that are kept on
purpose, one per line: `<serviceaccount> <apiGroup or core> <resource> <verb>  # why`.
Exit status: 0 when nothing was refused and every unused right of a chart role is in FILE;
1 otherwise; 2 for bad input.
"""
import argparse
import json
import sys


def load_allowed(path):
    allowed = set()
    if not path:
        return allowed
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                parts = line.split()
                if len(parts) != 4:
                    raise ValueError(f"{path}: want '<sa> <group> <resource> <verb>', got {line!r}")
                allowed.add(tuple(parts))
    return allowed


def rights_of(rbac, namespace):
    """{sa: [(role_name, chart_role, group, resource, verb, resource_names)]} from bindings naming sa."""
    roles = {}
    for o in rbac["items"]:
        if o["kind"] in ("ClusterRole", "Role"):
            key = (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
            labels = o["metadata"].get("labels") or {}
            roles[key] = (labels.get("app.kubernetes.io/managed-by") == "Helm", o.get("rules") or [])
    out = {}
    for o in rbac["items"]:
        if o["kind"] not in ("ClusterRoleBinding", "RoleBinding"):
            continue
        ref = o["roleRef"]
        role_ns = "" if ref["kind"] == "ClusterRole" else o["metadata"].get("namespace", "")
        role = roles.get((ref["kind"], role_ns, ref["name"]))
        if role is None:
            continue
        chart_role, rules = role
        for subject in o.get("subjects") or []:
            if subject.get("kind") != "ServiceAccount" or subject.get("namespace") != namespace:
                continue
            for rule in rules:
                if rule.get("nonResourceURLs"):
                    continue
                for group in rule.get("apiGroups") or [""]:
                    for resource in rule.get("resources") or []:
                        for verb in rule.get("verbs") or []:
                            out.setdefault(subject["name"], []).append(
                                (ref["name"], chart_role, group, resource, verb,
                                 tuple(rule.get("resourceNames") or ())))
    return out


def matches(right, request):
    _, _, group, resource, verb, names = right
    r_group, r_resource, r_verb, r_name = request
    return ((group in ("*", r_group)) and (resource in ("*", r_resource)) and
            (verb in ("*", r_verb)) and (not names or r_name in names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--audit", required=True)
    parser.add_argument("--rbac", required=True)
    parser.add_argument("--namespace", required=True)
    parser.add_argument("--allowed-unused")
    args = parser.parse_args()
    try:
        with open(args.rbac, encoding="utf-8") as f:
            rights = rights_of(json.load(f), args.namespace)
        allowed = load_allowed(args.allowed_unused)
    except (OSError, ValueError, KeyError) as e:
        print(f"audit_rbac: {e}", file=sys.stderr)
        return 2

    prefix = f"system:serviceaccount:{args.namespace}:"
    used, refused = {}, {}
    with open(args.audit, encoding="utf-8") as f:
        for line in f:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            user = event.get("user", {}).get("username", "")
            ref = event.get("objectRef")
            if not user.startswith(prefix) or not ref:
                continue
            sa = user[len(prefix):]
            resource = ref.get("resource", "")
            if ref.get("subresource"):
                resource += "/" + ref["subresource"]
            request = (ref.get("apiGroup", ""), resource, event.get("verb", ""), ref.get("name", ""))
            code = event.get("responseStatus", {}).get("code", 0)
            if code == 403:
                refused.setdefault(sa, set()).add(request)
            else:
                used.setdefault(sa, set()).add(request)

    failed = False
    for sa in sorted(set(rights) | set(used) | set(refused)):
        print(f"ServiceAccount {args.namespace}/{sa}: {len(used.get(sa, ()))} distinct requests")
        for group, resource, verb, name in sorted(refused.get(sa, ())):
            failed = True
            print(f"  REFUSED (403): {verb} {group or 'core'}/{resource} {name}")
        for right in rights.get(sa, []):
            role, chart_role, group, resource, verb, names = right
            hit = any(matches(right, r) for r in used.get(sa, ()))
            if hit:
                continue
            key = (sa, group or "core", resource, verb)
            if not chart_role:
                print(f"  not used (Kubernetes role {role}, not judged): {verb} {group or 'core'}/{resource}")
            elif key in allowed:
                print(f"  not used, kept on purpose: {verb} {group or 'core'}/{resource} (role {role})")
            else:
                failed = True
                print(f"  UNUSED RIGHT: {verb} {group or 'core'}/{resource}"
                      f"{' ' + ','.join(names) if names else ''} (role {role})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
