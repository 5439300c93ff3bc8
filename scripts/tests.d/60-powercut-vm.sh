#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whole-machine power cuts (scripts/powercut-vm.sh): a qemu guest runs the release logbookd on
# an ext4 disk image and has its plug pulled 20 times at random moments; each next boot checks
# verify, every record reported durable, the open trip closed `recovered`. Then the cranking
# reboot (a cut while the car stands: one trip, reopened) and 60 s of the disk's write counters
# at real time. About 6 minutes under software emulation on the 2-core CI machine.
# Prints "powercut-vm: …" lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/powercut-vm.sh --cuts "${LOGBOOK_POWERCUT_CUTS:-20}" --reopen --writes "${LOGBOOK_POWERCUT_WRITES_S:-60}"
