# SPDX-License-Identifier: MIT
# Sourced, not run: the `swift build` arguments of the release build as the .deb ships it, in
# one place, so every script that builds it (scripts/build-release.sh, bench/hot-text.sh, the
# VM and import steps, the benchmarks) compiles each module once and the order file matches.
#   - static Swift runtime, warnings as errors;
#   - every function in a section of its own, in the packages we depend on too (Package.swift
#     gives our own modules the flag; only -Xswiftc reaches other packages): logbookd's order
#     file can then gather the functions it runs without the rest of their files
#     (swift-async-algorithms alone put 500 KiB of unrun code into the daemon's hot text).
# shellcheck disable=SC2034
RELEASE_BUILD=(-c release --static-swift-stdlib -Xswiftc -warnings-as-errors -Xswiftc -Xfrontend -Xswiftc -function-sections)
