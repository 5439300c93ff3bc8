#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where logbookd's memory and image go (docs/memory.md).

  bench/memory.py smaps PID        RSS/PSS of a running process grouped by mapping
  bench/memory.py image BINARY     defined symbol bytes grouped by the module they belong to

smaps groups: the executable itself, each shared library, [heap], [stack], thread stacks and
other anonymous memory; it prints `memory: smaps: GROUP rss KiB pss KiB` lines and a total.
image groups: Swift symbols by their mangled module name ($s<len><Module>), BoringSSL
(CCryptoBoringSSL_*), libsodium, toml++ (toml::), ICU, the Swift runtime (swift_*), and the
rest; it prints `memory: image: GROUP KiB (N symbols)` lines, largest first.
"""
import collections
import re
import subprocess
import sys


def smaps(pid):
    groups = collections.OrderedDict()
    name = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                path = parts[5] if len(parts) > 5 else ""
                if path.startswith("/"):
                    name = path.rsplit("/", 1)[-1]
                elif path:
                    name = path
                else:
                    name = "[anon: thread stacks, malloc arenas, Swift heap]"
                groups.setdefault(name, [0, 0])
            elif parts[0] == "Rss:":
                groups[name][0] += int(parts[1])
            elif parts[0] == "Pss:":
                groups[name][1] += int(parts[1])
    total = [0, 0]
    for name, (rss, pss) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
        if rss == 0:
            continue
        print(f"memory: smaps: {name:50s} rss {rss:6d} KiB  pss {pss:6d} KiB")
        total[0] += rss
        total[1] += pss
    print(f"memory: smaps: {'total':50s} rss {total[0]:6d} KiB  pss {total[1]:6d} KiB")


SWIFT_MODULE = re.compile(r"^\$s(\d+)([A-Za-z_][A-Za-z0-9_]*)")


def group_of(symbol):
    m = SWIFT_MODULE.match(symbol)
    if m:
        n = int(m.group(1))
        return "swift:" + m.group(2)[:n]
    if symbol.startswith("$s") or symbol.startswith("_$s"):
        return "swift:(other mangling)"
    if symbol.startswith("CCryptoBoringSSL") or symbol.startswith("_CCryptoBoringSSL"):
        return "BoringSSL (swift-crypto)"
    if re.match(r"^(crypto_|sodium_|randombytes_|_sodium)", symbol):
        return "libsodium"
    if symbol.startswith("_ZN4toml") or "toml" in symbol.lower():
        return "toml++ (TOMLKit)"
    if re.match(r"^(u|ucol|ucal|udat|ures|ubrk|unum|uloc|icu)_?[A-Za-z]*_\d+$", symbol) or symbol.startswith("_ZN6icu_"):
        return "ICU"
    if symbol.startswith("swift_") or symbol.startswith("_swift_"):
        return "swift runtime (C++)"
    if symbol.startswith("_Z"):
        return "other C++"
    return "other C"


def image(binary):
    out = subprocess.run(["nm", "--defined-only", "--size-sort", "-S", binary], capture_output=True, text=True,
                         check=True).stdout
    groups = collections.defaultdict(lambda: [0, 0])
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        size = int(parts[1], 16)
        g = groups[group_of(parts[3])]
        g[0] += size
        g[1] += 1
    total = sum(v[0] for v in groups.values())
    for name, (size, count) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:25]:
        print(f"memory: image: {name:45s} {size // 1024:7d} KiB ({count} symbols)")
    print(f"memory: image: {'total (sized symbols)':45s} {total // 1024:7d} KiB")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("smaps", "image"):
        sys.exit(__doc__)
    (smaps if sys.argv[1] == "smaps" else image)(sys.argv[2])
