#!/usr/bin/env python3
"""Checks that what users read about koord is true of the build (ctest lint.claims).

docs/features.tsv lists each feature as built or not-yet. This script fails, naming the row, when:

1. a built row has a test regex that matches no ctest name (`ctest -N` in the build directory);
2. a not-yet row is missing from docs/compatibility.md's "Not built yet" table, or its issue
   numbers differ there, or that table has a row no not-yet line accounts for;
3. a plugin registered in extender/plugins/builtin.cpp (builtinPlugins()) is missing from
   docs/extender-plugins.md's plugin table, README.md's koord-extender row, or (when the binaries
   are given) `koord-extender --help` and `koord-extender simulate --help`; or one of those names
   a plugin that is not registered;
4. (when the binaries are given) a program's --help does not point to docs/compatibility.md, or
   koord-manager's --help does not say "not built yet" while features.tsv lists "koord-manager
   itself" as not-yet.

Usage: check_claims.py --source DIR --build DIR --ctest CTEST
           [--extender BIN] [--agent BIN] [--manager BIN] [--descheduler BIN]
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

COLUMNS = ["feature", "program", "status", "tests", "issue"]


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, message):
        self.items.append(f"{where}: {message}")


def read_features(path, problems):
    rows = []
    header_seen = False
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        where = f"docs/{path.name}:{number}"
        if not header_seen:
            header_seen = True
            if cells != COLUMNS:
                problems.add(where, f"the header must be {' | '.join(COLUMNS)} (tab-separated)")
            continue
        if len(cells) != len(COLUMNS):
            problems.add(where,
                         f"want {len(COLUMNS)} tab-separated cells, got {len(cells)}: {line!r}")
            continue
        row = dict(zip(COLUMNS, cells))
        row["where"] = where
        if row["status"] not in ("built", "not-yet"):
            problems.add(where, f"status '{row['status']}' is neither built nor not-yet")
            continue
        rows.append(row)
    return rows


def ctest_names(ctest, build):
    result = subprocess.run([ctest, "--test-dir", str(build), "-N"], capture_output=True,
                            text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"check_claims: `{ctest} --test-dir {build} -N` failed:\n{result.stderr}")
    names = re.findall(r"^\s*Test\s+#\d+:\s+(\S+)\s*$", result.stdout, flags=re.M)
    if not names:
        raise SystemExit(f"check_claims: `ctest -N` in {build} lists no tests")
    return names


def check_built_rows(rows, names, problems):
    for row in rows:
        if row["status"] != "built":
            continue
        regexes = [r for r in row["tests"].split(";") if r.strip()]
        if not regexes or row["tests"] == "-":
            problems.add(row["where"], f"built feature '{row['feature']}' names no test")
            continue
        for regex in regexes:
            try:
                pattern = re.compile(regex)
            except re.error as error:
                problems.add(row["where"], f"'{row['feature']}': bad regex '{regex}': {error}")
                continue
            if not any(pattern.search(name) for name in names):
                problems.add(row["where"],
                             f"built feature '{row['feature']}' ({row['program']}): no ctest "
                             f"name matches '{regex}' (was its test renamed or removed?)")


def markdown_table_after(text, heading):
    """The rows (lists of cells) of the first table under `## heading`, with their line numbers."""
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == f"## {heading}")
    except StopIteration:
        return None
    rows = []
    in_table = False
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if line.startswith("## "):
            break
        if line.startswith("|"):
            in_table = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells):
                continue
            rows.append((i + 1, cells))
        elif in_table:
            break
    return rows[1:]  # without the header row


def issues_in(cell):
    return set(re.findall(r"#\d+", cell))


def check_not_yet_rows(rows, compatibility, problems):
    table = markdown_table_after(compatibility.read_text(), "Not built yet")
    name = f"docs/{compatibility.name}"
    if table is None:
        problems.add(name, 'has no "## Not built yet" section')
        return
    if not table:
        problems.add(name, '"Not built yet" has no table rows')
        return
    claimed = set()
    for row in rows:
        if row["status"] != "not-yet":
            continue
        matches = [(n, cells) for n, cells in table if cells[0].startswith(row["feature"])]
        if not matches:
            problems.add(row["where"],
                         f"not-yet feature '{row['feature']}' starts no row of {name}'s "
                         f'"Not built yet" table')
            continue
        if len(matches) > 1:
            problems.add(row["where"],
                         f"not-yet feature '{row['feature']}' starts {len(matches)} rows of "
                         f"{name} (lines {', '.join(str(n) for n, _ in matches)}); make it unique")
        number, cells = matches[0]
        claimed.add(number)
        want = set() if row["issue"] == "-" else {i.strip() for i in row["issue"].split(",")}
        have = issues_in(cells[-1])
        if want != have:
            problems.add(row["where"],
                         f"'{row['feature']}': issue {', '.join(sorted(want)) or '-'} here, "
                         f"{', '.join(sorted(have)) or '-'} in {name}:{number}")
    for number, cells in table:
        if number not in claimed:
            problems.add(f"{name}:{number}",
                         f"'{cells[0]}' is listed as not built yet, but no not-yet row of "
                         f"docs/features.tsv starts it (did the feature land? then drop the row)")


def builtin_plugins(source, problems):
    builtin = source / "extender/plugins/builtin.cpp"
    namespaces = re.findall(r"\{(\w+)::kName,\s*\1::create[,}]", builtin.read_text())
    if not namespaces:
        problems.add("extender/plugins/builtin.cpp",
                     "no {<ns>::kName, <ns>::create, ...} entry found in builtinPluginList()")
    plugins = []
    for ns in namespaces:
        found = None
        for header in sorted((source / "extender/plugins" / ns).glob("*.hpp")):
            m = re.search(r'kName\s*=\s*"([^"]+)"', header.read_text())
            if m:
                found = m.group(1)
                break
        if found is None:
            problems.add("extender/plugins/builtin.cpp",
                         f"cannot find kName of '{ns}' in extender/plugins/{ns}/*.hpp")
        else:
            plugins.append(found)
    return plugins


def run_help(binary, *args):
    result = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, check=False)
    return result.stdout + result.stderr


def check_plugins(source, plugins, extender, problems):
    docs = source / "docs/extender-plugins.md"
    # The table whose header's first cell is "plugin".
    doc_rows = []
    in_table = False
    for line in docs.read_text().splitlines():
        if re.match(r"\|\s*plugin\s*\|", line):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        m = re.match(r"\|\s*`(\w+)`\s*\|", line) if in_table else None
        if m:
            doc_rows.append(m.group(1))
    if not doc_rows:
        problems.add("docs/extender-plugins.md", "no plugin table (header: | plugin | ...)")
    readme_row = next((l for l in (source / "README.md").read_text().splitlines()
                       if l.startswith("| `koord-extender`")), None)
    if readme_row is None:
        problems.add("README.md", "no `koord-extender` row in the programs table")
    places = {"docs/extender-plugins.md (plugin table)": set(doc_rows)}
    texts = {}
    if readme_row is not None:
        texts["README.md (koord-extender row)"] = readme_row
    if extender:
        texts["koord-extender --help"] = run_help(extender)
        texts["koord-extender simulate --help"] = run_help(extender, "simulate")
    for plugin in plugins:
        if plugin not in places["docs/extender-plugins.md (plugin table)"]:
            problems.add("docs/extender-plugins.md",
                         f"plugin '{plugin}' (builtinPlugins()) is not in the plugin table")
        for where, text in texts.items():
            if not re.search(rf"\b{re.escape(plugin)}\b", text):
                problems.add(where, f"plugin '{plugin}' (builtinPlugins()) is not named")
    if set(doc_rows) == set(plugins) and doc_rows != plugins:
        problems.add("docs/extender-plugins.md",
                     "the plugin table's order " + ", ".join(doc_rows) + " is not the registry's "
                     "(builtinPluginList()): " + ", ".join(plugins))
    for name in doc_rows:
        if name not in plugins:
            problems.add("docs/extender-plugins.md",
                         f"the plugin table names '{name}', which builtinPlugins() does not "
                         "register")


def check_help(rows, binaries, problems):
    manager_not_built = any(r["status"] == "not-yet" and r["feature"] == "koord-manager itself"
                            for r in rows)
    for program, binary in binaries.items():
        if not binary:
            continue
        text = run_help(binary)
        if "docs/compatibility.md" not in text:
            problems.add(f"{program} --help",
                         "does not point to docs/compatibility.md for what is not built yet")
        if program == "koord-manager" and manager_not_built and "not built yet" not in text:
            problems.add("koord-manager --help",
                         "docs/features.tsv lists 'koord-manager itself' as not-yet, but "
                         "koord-manager --help does not say 'not built yet'")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True, type=Path)
    parser.add_argument("--build", required=True, type=Path)
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--extender")
    parser.add_argument("--agent")
    parser.add_argument("--manager")
    parser.add_argument("--descheduler")
    args = parser.parse_args()
    for program in ("extender", "agent", "manager", "descheduler"):
        binary = getattr(args, program)
        if binary and not Path(binary).is_file():
            print(f"check_claims: koord-{program} is not built ({binary}); "
                  "its --help is not checked")
            setattr(args, program, None)

    problems = Problems()
    rows = read_features(args.source / "docs/features.tsv", problems)
    check_built_rows(rows, ctest_names(args.ctest, args.build), problems)
    check_not_yet_rows(rows, args.source / "docs/compatibility.md", problems)
    check_plugins(args.source, builtin_plugins(args.source, problems), args.extender, problems)
    check_help(rows, {"koord-extender": args.extender, "koord-agent": args.agent,
                      "koord-manager": args.manager, "koord-descheduler": args.descheduler},
               problems)

    if problems.items:
        print(f"check_claims: {len(problems.items)} problem(s):")
        for item in problems.items:
            print(f"  {item}")
        return 1
    built = sum(r["status"] == "built" for r in rows)
    print(f"check_claims: ok ({built} built features with tests, {len(rows) - built} not built yet "
          f"as in docs/compatibility.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
