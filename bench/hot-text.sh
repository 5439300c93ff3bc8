#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates Sources/Apps/logbookd/hot-text.ld: the input sections holding the code logbookd runs
# while it records a drive, which the link gathers into .text.hot at the front of its text
# (Package.swift). Why: the kernel maps a binary's text 64 KiB around every page executed
# (fault-around), so code run from all over a 13 MiB .text kept ~9 MiB of it resident,
# although the daemon runs ~1.2 MiB of functions (docs/memory.md).
#
# How: the release logbookd (linked with a map) runs under valgrind's callgrind while gpsd
# replays the 3-hour Swiss drive at full speed (as bench/gps-bench.sh), a client asks for
# `status`, and the daemon gets SIGHUP (a reload) and SIGTERM (shutdown). Every executed
# instruction address is mapped through the link map to its input section (object file or
# archive member, and section), written as a linker-script pattern. Patterns name files by
# their last two path parts, so the list holds across checkouts; code renamed or added since
# is only not gathered (scripts/tests.d/25-daemon-image.sh fails when too little of it is).
# Sections, not symbols: Swift's private thunks have no symbol, and a symbol ordering file
# cannot move them.
# Usage: bench/hot-text.sh          (rewrites the list; commit it with the change)
#        KEEP=1 bench/hot-text.sh   keeps the work directory (profile, link map) for a look
set -euo pipefail
cd "$(dirname "$0")/.."
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt
list=Sources/Apps/logbookd/hot-text.ld

scripts/install-deps.sh valgrind
work="$(mktemp -d /tmp/logbook-hot.XXXXXX)"
daemon="" replay=""
trap 'kill $daemon $replay 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
swift build -c release --static-swift-stdlib -Xswiftc -warnings-as-errors --product logbookd \
    -Xlinker -Map="$work/logbookd.map" >/dev/null
bin="$(swift build -c release --show-bin-path)/logbookd"

# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$bin" "$work/logbookd"
strip --strip-debug "$work/logbookd"
printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n' >"$work/logbookd.toml"

TMPDIR="$work" /usr/bin/python3 scripts/gpsreplay.py --tcp "$log" >"$work/replay.out" 2>"$work/replay.err" &
replay=$!
for _ in $(seq 100); do grep -q '^PORT=' "$work/replay.out" 2>/dev/null && break; sleep 0.05; done
port="$(sed -n 's/^PORT=//p' "$work/replay.out")"

valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --callgrind-out-file="$work/callgrind.out" \
    "$work/logbookd" --config "$work/logbookd.toml" --gpsd "127.0.0.1:$port" \
    --state-dir "$work/state" --runtime-dir "$work/run" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 600); do [ -S "$work/run/control.sock" ] && break; sleep 0.1; done
/usr/bin/python3 - "$work/run/control.sock" <<'PY'
import socket, sys, time
for attempt in range(300):  # the socket file appears before the daemon, slowed by valgrind, listens
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); break
    except OSError:
        s.close(); time.sleep(0.1)
s.settimeout(60); s.sendall(b'{"cmd":"status"}\n'); s.recv(65536); s.close()
PY
kill -HUP "$daemon"
wait "$replay" || true
sleep 3
kill -TERM "$daemon"
wait "$daemon" || true

/usr/bin/python3 - "$work/callgrind.out" "$work/logbookd" "$work/logbookd.map" "$list" <<'PY'
import bisect, re, sys
trace, binary, linkmap, out = sys.argv[1:]
objects, current, addresses, unattributed = {}, None, set(), []
for line in open(trace, errors="replace"):
    if line.startswith(("ob=", "cob=")):
        m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
        if m.group(2):
            objects[m.group(1)] = m.group(2)
        if line.startswith("ob="):
            current = objects.get(m.group(1))
    elif line.startswith("0x") and current == binary:
        addresses.add(int(line.split()[0], 16))
    elif line.startswith("0x") and current == "???":
        # Code valgrind did not attribute to the binary (it misreads part of a text segment that
        # does not start on a page): runtime addresses, the PIE loaded at valgrind's 0x108000.
        unattributed.append(int(line.split()[0], 16) - 0x108000)
# lld's map: "VMA LMA Size Align", then an output section (no indent), an input section
# (8 spaces: "file:(section)" or "archive(member):(section)"), a symbol (16 spaces).
sections, output = [], None
for line in open(linkmap):
    m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (\s*)(.*)$", line)
    if not m:
        continue
    vma, size, indent, what = m.groups()
    if not indent:
        output = what.strip()
    elif len(indent) == 8 and output in (".text", ".text.hot"):
        sections.append((int(vma, 16), int(size, 16), what.strip()))
sections.sort()
starts = [s[0] for s in sections]
text_start, text_end = sections[0][0], sections[-1][0] + sections[-1][1]
inside = [a for a in unattributed if text_start <= a < text_end]
if unattributed and len(inside) < 0.5 * len(unattributed):
    sys.exit(f"hot-text: valgrind's load address is not 0x108000 ({len(inside)} of {len(unattributed)} fit)")
addresses.update(inside)
hot = {}
for a in addresses:
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and a < sections[i][0] + sections[i][1]:
        hot[sections[i][2]] = sections[i]

def pattern(described):
    path, member, section = re.match(r"(.*?)(?:\((.*?)\))?:\((.*)\)$", described).groups()
    # Unquoted file globs (a quoted one is literal in lld); odd characters matched by "?".
    file = f"*{path.rsplit('/', 1)[-1]}:{member}" if member else "*/" + "/".join(path.rsplit("/", 2)[-2:])
    return re.sub(r"[^A-Za-z0-9_./*:-]", "?", file) + f'("{section}")'

hot_bytes = sum(s[1] for s in hot.values())
with open(out, "w") as f:
    f.write("/* The input sections logbookd runs while recording a drive, gathered at the front of\n"
            "   its text (Package.swift). Generated by bench/hot-text.sh; do not edit.\n"
            f"   hot-bytes: {hot_bytes} (scripts/tests.d/25-daemon-image.sh checks .text.hot against it) */\n"
            "SECTIONS {\n  .text.hot : {\n")
    f.writelines(f"    {pattern(name)}\n" for name, _ in sorted(hot.items(), key=lambda kv: kv[1][0]))
    f.write("  }\n}\nINSERT BEFORE .text;\n")
total = sum(s[1] for s in sections)
print(f"hot-text: {len(hot)} input sections, {hot_bytes // 1024} KiB of "
      f"{total // 1024} KiB of text; {len(addresses)} instructions executed -> {out}")
PY
