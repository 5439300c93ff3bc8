#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the path of a Python that has the test tools from PyPI (scripts/test-requirements.txt)
# and still sees Debian's modules (gps, geographiclib, PIL): a venv with system site packages,
# made once in .venv-test and refreshed when the requirements change. Debian's own pip refuses
# to install into /usr (PEP 668), hence the venv.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-test
req=scripts/test-requirements.txt
stamp=$venv/.requirements
# Test suites run side by side: one builds the venv, the others wait for it (a lock on $req).
exec 9<"$req"
flock 9
if [ ! -x $venv/bin/python ] || ! cmp -s $req $stamp; then
    /usr/bin/python3 -m venv --system-site-packages $venv >&2
    $venv/bin/pip install -q --disable-pip-version-check -r $req >&2
    cp $req $stamp
fi
echo "$PWD/$venv/bin/python"
