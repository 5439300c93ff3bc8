#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generates logbookd's order file: the input sections holding the code logbookd runs while it
# records a drive, which the release link gathers into .text.hot at the front of its text when
# LOGBOOK_HOT_TEXT names the file (Package.swift). Why: the kernel maps a binary's text 64 KiB
# around every page executed (fault-around), so code run from all over a 13 MiB .text kept
# ~9 MiB of it resident, although the daemon runs ~1.2 MiB of functions (docs/memory.md).
#
# The file is a build product of the machine that builds the daemon, never committed: it is
# profiled from this checkout's code on this machine's architecture (scripts/build-deb.sh runs
# this first, so a .deb built on a Pi is ordered by an arm64 profile). Stale or missing, the
# daemon still links and runs, only with more of its text resident: the guard is the memory
# target itself (scripts/tests.d/25-daemon-image.sh: peak RSS on the Swiss replay <= 12 MiB).
#
# How: the release logbookd (linked with a map) runs under valgrind's callgrind while gpsd
# replays the 3-hour Swiss drive at full speed (as bench/gps-bench.sh), a client asks for
# `status`, and the daemon gets SIGHUP (a reload) and SIGTERM (shutdown). Every executed
# instruction address is mapped through the link map to its input section (object file or
# archive member, and section), written as a linker-script pattern. Patterns name files by
# their last two path parts, so the list holds across checkouts. Sections, not symbols: Swift's
# private thunks have no symbol, and a symbol ordering file cannot move them.
# Usage: bench/hot-text.sh [OUT]     (default .build/hot-text/logbookd.ld; prints its path last)
#        KEEP=1 bench/hot-text.sh    keeps the work directory (profile, link map) for a look
# Then:  scripts/build-release.sh (it links with the list)
set -euo pipefail
cd "$(dirname "$0")/.."
log=fixtures/gpslogs/20100403_Z205_Switzerland.txt
list="${1:-.build/hot-text/logbookd.ld}"
mkdir -p "$(dirname "$list")"

scripts/install-deps.sh valgrind >&2
work="$(mktemp -d /tmp/logbook-hot.XXXXXX)"
daemon="" replay="" elm_pid=""
trap 'kill $daemon $replay 2>/dev/null || true; [ -z "${elm_pid:-}" ] || kill -KILL "$elm_pid" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# Profiled without an order file (the layout it is about to replace); the map makes the link
# run again even when nothing else changed.
bin="$(swift build -c release --show-bin-path)/logbookd"
rm -f "$bin"
# shellcheck source=scripts/release-flags.sh
. scripts/release-flags.sh
env -u LOGBOOK_HOT_TEXT swift build "${RELEASE_BUILD[@]}" --product logbookd \
    -Xlinker -Map="$work/logbookd.map" >/dev/null

# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$bin" "$work/logbookd"
strip --strip-debug "$work/logbookd"
# A `logbook` beside it, as installed, so the daemon runs its dashboard refresh (a child process
# after each trip end): a stand-in, as valgrind does not follow children.
printf '#!/bin/sh\nexit 0\n' >"$work/logbook"
chmod +x "$work/logbook"
# profile NAME [CAR-PORT]: one profiled drive, its trace in $work/NAME.callgrind. With a port, the
# daemon also reads a car there (an `obd` source).
profile() {
    local dir="$work/$1"
    mkdir -p "$dir"
    printf '[[vehicle]]\nid = "z205"\n[[source]]\ntype = "service"\nvehicle = "z205"\n' >"$dir/logbookd.toml"
    [ -z "${2:-}" ] || printf '[[source]]\ntype = "obd"\nname = "elm"\naddress = "127.0.0.1:%s"\nvehicle = "z205"\n' "$2" >>"$dir/logbookd.toml"
    TMPDIR="$dir" /usr/bin/python3 scripts/gpsreplay.py --tcp "$log" >"$dir/replay.out" 2>"$dir/replay.err" &
    replay=$!
    for _ in $(seq 100); do grep -q '^PORT=' "$dir/replay.out" 2>/dev/null && break; sleep 0.05; done
    local port
    port="$(sed -n 's/^PORT=//p' "$dir/replay.out")"
    valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --callgrind-out-file="$work/$1.callgrind" \
        "$work/logbookd" --config "$dir/logbookd.toml" --gpsd "127.0.0.1:$port" \
        --state-dir "$dir/state" --runtime-dir "$dir/run" 2>"$dir/daemon.log" &
    daemon=$!
    for _ in $(seq 600); do [ -S "$dir/run/control.sock" ] && break; sleep 0.1; done
    /usr/bin/python3 - "$dir/run/control.sock" <<'PY'
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
    # The adapter's first answers come slowly under valgrind: the car's code ran once they did.
    if [ -n "${2:-}" ]; then
        for _ in $(seq 1200); do grep -q 'OBD: the car answers\|OBD: a car with a VIN' "$dir/daemon.log" && break; sleep 0.1; done
        grep -q 'OBD: the car answers\|OBD: a car with a VIN' "$dir/daemon.log" || echo "hot-text: the obd source never reached the car" >&2
    fi
    kill -TERM "$daemon"
    wait "$daemon" || true
    daemon=""
}

profile drive
traces=("$work/drive.callgrind")
# The drive again with a car, when the test tools are at hand: an `obd` source against
# ELM327-emulator (PyPI, the test venv) on loopback. What only the car runs goes after the
# rest: a daemon without one touches none of it, one with a car finds it together (without it
# in the list, an `obd` source cost 1.8 MiB more text resident: docs/memory.md).
if python="$(scripts/python-venv.sh 2>/dev/null)" && [ -x "$(dirname "$python")/elm" ]; then
    elm_port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # The emulator reads console commands from stdin: a FIFO held open keeps it running.
    mkfifo "$work/elm.in"
    exec 8<>"$work/elm.in"
    (cd "$work" && exec "$(dirname "$python")/elm" -n "$elm_port" -s car -b "$work/elm.out" <&8 >/dev/null 2>&1) &
    elm_pid=$!
    for _ in $(seq 200); do grep -q 'batch mode STARTED' "$work/elm.out" 2>/dev/null && break; sleep 0.05; done
    profile car "$elm_port"
    traces+=("$work/car.callgrind")
else
    echo "hot-text: no ELM327-emulator (scripts/python-venv.sh): profiled without a car" >&2
fi

/usr/bin/python3 - "$work/logbookd" "$work/logbookd.map" "$list" \
    "$(uname -m)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "${traces[@]}" <<'PY'
import bisect, re, sys
binary, linkmap, out, arch, commit, *traces = sys.argv[1:]
def executed(trace):
    """The binary's instruction addresses a callgrind trace saw, and those it left unattributed."""
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
    return addresses, unattributed

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

def hot_sections(trace):
    addresses, unattributed = executed(trace)
    inside = [a for a in unattributed if text_start <= a < text_end]
    # Only when valgrind left much of the binary's code unattributed must the assumed load address
    # hold; a few hundred addresses of its own (vdso, trampolines) fit nowhere and do not matter.
    if len(unattributed) > len(addresses) and len(inside) < 0.5 * len(unattributed):
        sys.exit(f"hot-text: valgrind's load address is not 0x108000 ({len(inside)} of {len(unattributed)} fit)")
    addresses.update(inside)
    hot = {}
    for a in addresses:
        i = bisect.bisect_right(starts, a) - 1
        if i >= 0 and a < sections[i][0] + sections[i][1]:
            hot[sections[i][2]] = sections[i]
    return hot, len(addresses)

# Tiers: what the plain drive runs, then what each further profile (the car) adds; in link order
# within a tier.
tiers, hot, executed_count = [], {}, 0
for trace in traces:
    found, n = hot_sections(trace)
    tiers.append(sorted((v for k, v in found.items() if k not in hot), key=lambda s: s[0]))
    hot.update(found)
    executed_count = max(executed_count, n)

def pattern(described):
    path, member, section = re.match(r"(.*?)(?:\((.*?)\))?:\((.*)\)$", described).groups()
    # Unquoted file globs (a quoted one is literal in lld); odd characters matched by "?".
    file = f"*{path.rsplit('/', 1)[-1]}:{member}" if member else "*/" + "/".join(path.rsplit("/", 2)[-2:])
    return re.sub(r"[^A-Za-z0-9_./*:-]", "?", file) + f'("{section}")'

hot_bytes = sum(s[1] for s in hot.values())
with open(out, "w") as f:
    f.write("/* The input sections logbookd runs while recording a drive, gathered at the front of\n"
            "   its text (Package.swift, LOGBOOK_HOT_TEXT). Generated by bench/hot-text.sh; do not edit.\n"
            f"   arch: {arch}, commit: {commit}, hot-bytes: {hot_bytes} */\n"
            "SECTIONS {\n  .text.hot : {\n")
    f.writelines(f"    {pattern(name)}\n" for tier in tiers for _, _, name in tier)
    f.write("  }\n}\nINSERT BEFORE .text;\n")
total = sum(s[1] for s in sections)
print(f"hot-text: {arch}: {len(hot)} input sections ({' + '.join(str(len(t)) for t in tiers)}), {hot_bytes // 1024} KiB of "
      f"{total // 1024} KiB of text; {executed_count} instructions executed", file=sys.stderr)
PY
echo "$list"
