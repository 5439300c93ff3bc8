#!/bin/bash
# SPDX-License-Identifier: MIT
# build-manuals.sh - man pages and shell completions for the .deb, generated from the built
# programs' own argument definitions, so they cannot drift from the code.
#
#   scripts/build-manuals.sh BIN_DIR OUT_DIR VERSION
#
# Writes, under OUT_DIR, the paths they have in the package:
#   usr/share/man/man1/logbook.1.gz       swift-argument-parser's generate-manual tool over
#                                         `logbook --experimental-dump-help` (every subcommand)
#   usr/share/man/man8/logbook-web.8.gz   the same tool over the web app
#   usr/share/man/man8/logbookd.8.gz, usr/share/man/man8/logbook-uplink.8.gz
#                                         help2man over `logbookd --help` and `logbook-uplink
#                                         --help` (both parse their few flags by hand, without
#                                         ArgumentParser: the usage texts sit beside the parsers,
#                                         DaemonArguments and UplinkArguments) plus
#                                         packaging/debian/PROGRAM.h2m
#   usr/share/bash-completion/completions/logbook, usr/share/zsh/vendor-completions/_logbook,
#   usr/share/fish/vendor_completions.d/logbook.fish
#                                         `logbook --generate-completion-script bash|zsh|fish`
#                                         (bash's without its #! line: the file is sourced)
# The generate-manual tool is built once from the resolved swift-argument-parser checkout
# into .build/generate-manual. Dates come from the commit (SOURCE_DATE_EPOCH when set), so
# the same commit gives the same pages.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
[ $# -eq 3 ] || { sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
BIN_DIR=$1; OUT=$2; VERSION=$3
die() { echo "build-manuals: $*" >&2; exit 1; }
command -v help2man >/dev/null || die "help2man missing (scripts/install-deps.sh)"

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)}
DAY=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)

# The tool is a target of swift-argument-parser, not a product it exports: build it with the
# checkout as the root package (its scratch directory is ours, the checkout stays untouched).
PARSER=$ROOT/.build/checkouts/swift-argument-parser
[ -f "$PARSER/Package.swift" ] || (cd "$ROOT" && swift package resolve >&2)
TOOLS=$ROOT/.build/generate-manual
swift build --package-path "$PARSER" --scratch-path "$TOOLS" --product generate-manual >&2 \
  || die "building generate-manual failed"
GENERATE=$(swift build --package-path "$PARSER" --scratch-path "$TOOLS" --show-bin-path)/generate-manual

M1=$OUT/usr/share/man/man1; M8=$OUT/usr/share/man/man8
mkdir -p "$M1" "$M8"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/build-manuals.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for page in logbook:1 logbook-web:8; do
  program=${page%:*}; section=${page#*:}
  "$GENERATE" "$BIN_DIR/$program" --section "$section" --date "$DAY" --output-directory "$WORK" >&2
  [ -s "$WORK/$program.$section" ] || die "generate-manual wrote no $program.$section"
  gzip -9n <"$WORK/$program.$section" >"$OUT/usr/share/man/man$section/$program.$section.gz"
done

for page in "logbookd:record car trips from gpsd into a tamper-evident journal" \
    "logbook-uplink:stream the trip journal to MQTT, PostgreSQL and location servers"; do
  program=${page%%:*}
  help2man --no-info --no-discard-stderr --section 8 --version-string "$VERSION" --name "${page#*:}" \
    --include "$ROOT/packaging/debian/$program.h2m" --output "$WORK/$program.8" "$BIN_DIR/$program" \
    || die "help2man over $program --help failed"
  gzip -9n <"$WORK/$program.8" >"$M8/$program.8.gz"
done

for shell in bash zsh fish; do
  case $shell in
    bash) f=$OUT/usr/share/bash-completion/completions/logbook ;;
    zsh)  f=$OUT/usr/share/zsh/vendor-completions/_logbook ;;
    fish) f=$OUT/usr/share/fish/vendor_completions.d/logbook.fish ;;
  esac
  mkdir -p "$(dirname "$f")"
  "$BIN_DIR/logbook" --generate-completion-script "$shell" | sed '1{/^#!/d}' >"$f"
  [ -s "$f" ] || die "logbook --generate-completion-script $shell printed nothing"
done
