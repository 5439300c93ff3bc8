#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes sure the D-Bus fakes the LogbookSystemd tests use are installed: dbus-daemon and
# python-dbusmock for /usr/bin/python3 (Debian: dbus, python3-dbusmock). Installs them with
# apt-get when missing (root, or sudo without a password).
# Exit 0: available. Exit 77: missing and could not be installed (tests then skip).
set -uo pipefail

have() { command -v dbus-daemon >/dev/null && command -v busctl >/dev/null \
    && /usr/bin/python3 -c 'import dbusmock' 2>/dev/null; }
have && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo -n"; else
        echo "ensure-dbusmock: dbus/python3-dbusmock missing and not root (no sudo)" >&2; exit 77
    fi
fi
# One installer at a time: parallel test processes may all get here.
exec 9>/tmp/logbook-ensure-dbusmock.lock
flock 9
have && exit 0
echo "ensure-dbusmock: installing dbus python3-dbusmock" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 || true
$sudo apt-get install -y -qq --no-install-recommends dbus python3-dbusmock systemd >&2 || true
have && exit 0
echo "ensure-dbusmock: installation failed" >&2
exit 77
