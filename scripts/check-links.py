#!/usr/bin/env python3
"""Checks every relative link and #anchor in README.md and docs/**/*.md.

A link must point to a file or directory that exists; an anchor must name a heading of
the target Markdown file (GitHub-style slugs, with -1, -2 … for repeated headings).
Prints `docs: links ok, N links in M files`, or one `FAIL file:line: link` per broken
link and exits 1. Python 3 standard library only.
"""
import os
import re
import sys
from urllib.parse import unquote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target); target up to whitespace or ')'; optional "title".
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def slug(text):
    """GitHub's anchor for a heading text."""
    text = re.sub(r"<[^>]+>", "", text)                       # inline HTML
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)    # links keep their text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)                      # punctuation (keeps _ and -)
    return text.replace(" ", "-")


def markdown_lines(path):
    """(line number, text) outside fenced code blocks."""
    with open(path, encoding="utf-8") as f:
        fence = None
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                if fence is None:
                    fence = m.group(1)
                elif line.strip().startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield number, line.rstrip("\n")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen = {}
        result = set()
        for _, line in markdown_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
        _anchors[path] = result
    return _anchors[path]


def files():
    out = [os.path.join(ROOT, "README.md")]
    for directory, dirs, names in os.walk(os.path.join(ROOT, "docs")):
        dirs.sort()
        out += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".md")]
    return [p for p in out if os.path.isfile(p)]


def main():
    failures = []
    count = 0
    checked = files()
    for path in checked:
        rel = os.path.relpath(path, ROOT)
        for number, line in markdown_lines(path):
            text = CODE_SPAN.sub("", line)
            targets = [m.group(1) for m in INLINE.finditer(text)]
            m = REFDEF.match(text)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if not target or SCHEME.match(target) or target.startswith("//"):
                    continue
                count += 1
                file_part, _, anchor = target.partition("#")
                file_part = unquote(file_part)
                if file_part:
                    if file_part.startswith("/"):
                        dest = os.path.join(ROOT, file_part.lstrip("/"))
                    else:
                        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                else:
                    dest = path
                ok = os.path.exists(dest)
                if ok and anchor:
                    ok = dest.endswith(".md") and os.path.isfile(dest) and unquote(anchor).lower() in anchors(dest)
                if not ok:
                    failures.append(f"FAIL {rel}:{number}: {target}")
    if failures:
        print("\n".join(failures))
        return 1
    print(f"docs: links ok, {count} links in {len(checked)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
