#!/usr/bin/env python3
"""Checks that every block of #include lines in the C++ and CUDA sources is
sorted: system headers (<...>) before the project's ("..."), each group by
path. A block is a run of consecutive #include lines; a blank line, a
comment line or a preprocessor condition ends it, so an include that must
come first stands in a block of its own.

  include_order.py ROOT          lists each unsorted block, exits 1 if any
  include_order.py ROOT --fix    sorts them in place
"""
import pathlib
import re
import sys

FOLDERS = ("bench", "common", "host", "kernels", "tests")
SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc"}
INCLUDE = re.compile(r'^#include\s*([<"])([^>"]+)[>"]')


def key(line):
    m = INCLUDE.match(line)
    return (m.group(1) == '"', m.group(2))


def blocks(lines):
    """(start, end) of each run of two or more #include lines."""
    start = None
    for i, line in enumerate(lines + [""]):
        if INCLUDE.match(line):
            if start is None:
                start = i
        else:
            if start is not None and i - start > 1:
                yield start, i
            start = None


def sources(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                yield path


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    fix = "--fix" in sys.argv[2:]
    unsorted = 0
    for path in sources(root):
        lines = path.read_text().split("\n")
        changed = False
        for start, end in blocks(lines):
            block = lines[start:end]
            ordered = sorted(block, key=key)
            if block != ordered:
                unsorted += 1
                changed = True
                if not fix:
                    print(f"{path.relative_to(root)}:{start + 1}: includes not sorted; expected:")
                    print("\n".join("    " + line for line in ordered))
                lines[start:end] = ordered
        if fix and changed:
            path.write_text("\n".join(lines))
    if unsorted and not fix:
        print(f"{unsorted} include block(s) not sorted: run {sys.argv[0]} {root} --fix", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
