#!/usr/bin/env python3
"""Fails when a function in src/ is longer than the project's limit (CONTRIBUTING.md: about 80 lines).

Usage: python3 tests/lint/function_length.py SRC_DIR [LIMIT]

A function here is a definition that starts at column 0 (a signature of up to six lines ending in `{`) and ends at
the next `}` at column 0, as the project's clang-format style writes them; lambdas and class members inside are
counted with their enclosing function. Prints one line per long function and exits 1 if there is any.
"""
import pathlib
import re
import sys

NOT_A_FUNCTION = re.compile(r"^(namespace|struct|class|enum|union|extern|using|#|static_assert|template\s*<[^>]*>\s*$)")
SIGNATURE_START = re.compile(r"^[A-Za-z_~].*\(")
CONTROL = re.compile(r"\b(if|for|while|switch|return)\b")


def long_functions(path, limit):
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    start = signature = None
    for i, line in enumerate(lines):
        if start is None:
            if SIGNATURE_START.match(line) and not NOT_A_FUNCTION.match(line):
                signature = i
            if signature is not None and line.rstrip().endswith("{") and i - signature < 6 and not (
                    line.startswith(" ") and CONTROL.search(line)):
                start = signature
            if line.startswith("}"):
                signature = None
        elif line.startswith("}"):
            length = i - start + 1
            if length > limit:
                yield start + 1, length, lines[start].strip()
            start = signature = None


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    limit = int(argv[2]) if len(argv) == 3 else 80
    found = 0
    for path in sorted(pathlib.Path(argv[1]).rglob("*")):
        if path.suffix not in (".cpp", ".cu", ".hpp") or not path.is_file():
            continue
        for line, length, signature in long_functions(path, limit):
            print(f"{path}:{line}: {length} lines (limit {limit}): {signature[:100]}")
            found += 1
    print(f"function length: {found} function(s) over {limit} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
