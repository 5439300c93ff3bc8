#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the path of a Python that has Home Assistant VERSION from PyPI (default 2024.3.3), for
# checking the uplink's discovery payloads and state messages against HA's own code
# (scripts/ha-discovery-check.py): a venv with system site packages in .venv-ha-VERSION, made once.
#
# Only what HA's MQTT platforms import is installed: homeassistant itself without its
# dependencies, then the exact versions its wheel pins (from its METADATA) less the Bluetooth
# and cloud stacks (their unpinned dependencies send pip's resolver building sdists for an
# hour), then the MQTT integration's requirement (its manifest.json). Python 3.11 (Debian 12)
# runs HA up to 2024.3; later releases need 3.12.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-2024.3.3}
venv=.venv-ha-$version
pip=(--disable-pip-version-check -q)
mkdir -p .venv-ha-lock
exec 9>.venv-ha-lock/"$version"
flock 9
if [ ! -f $venv/.complete ]; then
    rm -rf $venv
    /usr/bin/python3 -m venv --system-site-packages $venv >&2
    wheels=$(mktemp -d)
    trap 'rm -rf "$wheels"' EXIT
    $venv/bin/pip download "${pip[@]}" --no-deps -d "$wheels" "homeassistant==$version" >&2
    wheel=$(ls "$wheels"/homeassistant-*.whl)
    $venv/bin/pip install "${pip[@]}" --no-deps "$wheel" >&2
    $venv/bin/python - "$wheel" >"$wheels/requirements.txt" <<'EOF'
import json, sys, zipfile
skip = ("home-assistant-bluetooth", "hass-nabucasa")
with zipfile.ZipFile(sys.argv[1]) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    for line in z.read(meta).decode().splitlines():
        if line.startswith("Requires-Dist: "):
            req = line[len("Requires-Dist: "):].split(";")[0].replace(" (", "").replace(")", "").strip()
            if not req.lower().startswith(skip):
                print(req)
    for req in json.loads(z.read("homeassistant/components/mqtt/manifest.json"))["requirements"]:
        print(req)
EOF
    $venv/bin/pip install "${pip[@]}" -r "$wheels/requirements.txt" >&2
    touch $venv/.complete
fi
echo "$PWD/$venv/bin/python"
