#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the package's layers (docs/architecture.md) against what the sources import.

Each target lives in Sources/<Layer>/<Target>; the layers, lowest first, are listed in LAYERS.
It fails when
  - a module imports a module of a higher layer (an upward import);
  - a C module (a .systemLibrary target) is imported by any module but its adapter, the one
    target that declares it as a dependency (and exactly one must);
  - an executable other than logbookd depends, directly or not, on LogbookDaemon;
  - a target declares a dependency on a package module that none of its files imports, or
    imports a package module that its declared dependencies do not bring.
Prints "house: layers ok, N modules, 0 upward imports, 0 C imports outside adapters" or one
line per problem and exits 1.

Usage: scripts/check-layers.py [--manifest dump.json]   (default: runs `swift package dump-package`)
"""
import json
import os
import re
import subprocess
import sys

LAYERS = ["Core", "Platform", "Ingest", "Journal", "Projections", "Apps", "Dev"]
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?"
                    r"import (?:(?:struct|class|enum|protocol|func|var|let|typealias) )?(\w+)")


def manifest(argv):
    if len(argv) > 2 and argv[1] == "--manifest":
        with open(argv[2]) as f:
            return json.load(f)
    out = subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def dependency_names(target):
    names = []
    for d in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in d:
                names.append(d[kind][0])
    return names


def imports_of(path):
    found = set()
    for root, _, files in os.walk(path):
        for name in files:
            if name.endswith((".swift", ".h", ".c")):
                with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                    for line in f:
                        m = IMPORT.match(line)
                        if m:
                            found.add(m.group(1))
    return found


def main(argv):
    pkg = manifest(argv)
    targets = {t["name"]: t for t in pkg["targets"]}
    problems = []
    layer_of = {}
    for name, t in targets.items():
        if t["type"] == "test":
            continue
        path = t.get("path") or ""
        parts = path.split("/")
        if len(parts) != 3 or parts[0] != "Sources" or parts[1] not in LAYERS or parts[2] != name:
            problems.append(f"{name}: not in Sources/<Layer>/{name} (path {path!r}; layers {', '.join(LAYERS)})")
            continue
        layer_of[name] = LAYERS.index(parts[1])

    system = {n for n, t in targets.items() if t["type"] == "system"}
    adapters = {c: [n for n, t in targets.items() if c in dependency_names(t)] for c in system}
    upward = c_outside = 0
    for c, users in sorted(adapters.items()):
        if len(users) != 1:
            problems.append(f"{c}: a C module needs exactly one adapter; declared by {users or 'none'}")
    modules = 0
    for name, t in sorted(targets.items()):
        if t["type"] in ("system", "test") or name not in layer_of:
            continue
        modules += 1
        imported = imports_of(t["path"])
        for m in sorted(imported & set(layer_of)):
            if m == name:
                continue
            if m in system:
                if name not in adapters.get(m, []):
                    c_outside += 1
                    problems.append(f"{name} imports the C module {m}, whose adapter is {adapters.get(m)}")
            elif layer_of[m] > layer_of[name]:
                upward += 1
                problems.append(f"{name} ({LAYERS[layer_of[name]]}) imports {m} ({LAYERS[layer_of[m]]}): an upward import")
        for d in dependency_names(t):
            if d in targets and d not in imported:
                problems.append(f"{name} declares a dependency on {d} but no file imports it")
        reachable = closure(name, targets)
        for m in sorted(imported & set(targets)):
            if m != name and m not in reachable:
                problems.append(f"{name} imports {m}, which its declared dependencies do not bring")
    for name, t in targets.items():
        if t["type"] == "executable" and name != "logbookd" and reaches(name, "LogbookDaemon", targets):
            problems.append(f"{name}: an executable other than logbookd depends on LogbookDaemon")
    if problems:
        for p in problems:
            print(f"house: FAIL {p}")
        print(f"house: {modules} modules, {upward} upward imports, {c_outside} C imports outside adapters")
        return 1
    print(f"house: layers ok, {modules} modules, 0 upward imports, 0 C imports outside adapters")
    return 0


def closure(start, targets):
    seen, queue = set(), list(dependency_names(targets[start]))
    while queue:
        n = queue.pop()
        if n in seen or n not in targets:
            continue
        seen.add(n)
        queue.extend(dependency_names(targets[n]))
    return seen


def reaches(start, goal, targets):
    seen, queue = set(), [start]
    while queue:
        n = queue.pop()
        if n in seen or n not in targets:
            continue
        seen.add(n)
        if n == goal and n != start:
            return True
        queue.extend(dependency_names(targets[n]))
    return False


if __name__ == "__main__":
    sys.exit(main(sys.argv))
