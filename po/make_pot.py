#!/usr/bin/env python3
"""Writes po/gpuscout.pot: the messages xgettext finds in src/ (tr, trf, N_) and the prose cells of data/ that the
tool shows through tr() (check_data.TRANSLATED names them). Run through `cmake --build --preset dev --target pot`,
then `msgmerge --update po/zh_CN.po po/gpuscout.pot` and translate what is new."""
import argparse
import os
import subprocess
import sys
import tempfile


def po_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def data_entries(root):
    sys.path.insert(0, os.path.join(root, "tests", "data"))
    import check_data  # noqa: E402  (the one list of translated columns)

    seen = {}
    for name, cols in check_data.TRANSLATED.items():
        problems = []
        rows = check_data.load(os.path.join(root, "data"), name, problems)
        if rows is None:
            raise SystemExit(f"make_pot: {problems}")
        for row in rows:
            for col in cols:
                text = row[col].strip()
                if text:
                    seen.setdefault(text, []).append(f"data/{name}:{row['_line']}")
    out = []
    for text, refs in sorted(seen.items()):
        out.append(f"#: {' '.join(refs)}\nmsgid {po_quote(text)}\nmsgstr \"\"\n")
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    return header + "\n" + "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xgettext", default="xgettext")
    ap.add_argument("--msgcat", default="msgcat")
    ap.add_argument("--output", help="where to write the template (default: ROOT/po/gpuscout.pot)")
    ap.add_argument("root")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    sources = []
    for folder, _, files in os.walk(os.path.join(root, "src")):
        sources += [os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith((".cpp", ".hpp"))]
    sources.sort()
    with tempfile.TemporaryDirectory() as tmp:
        code_pot = os.path.join(tmp, "code.pot")
        subprocess.run([args.xgettext, "--language=C++", "--from-code=UTF-8", "--keyword=tr", "--keyword=trf",
                        "--keyword=N_", "--keyword=trc:1c,2",
                        # fmt's {} syntax: a "%" in a message ("90% of") is not a printf directive
                        "--flag=tr:1:no-c-format", "--flag=trf:1:no-c-format", "--flag=N_:1:no-c-format", "--flag=trc:2:no-c-format",
                        "--add-comments=TRANSLATORS:", "--package-name=gpuscout", "--no-wrap",
                        "--sort-by-file", "-o", code_pot, *sources], cwd=root, check=True)
        data_pot = os.path.join(tmp, "data.pot")
        with open(data_pot, "w", encoding="utf-8") as f:
            f.write(data_entries(root))
        parts = [p for p in (code_pot, data_pot) if os.path.exists(p)]  # xgettext writes nothing when it finds none
        output = args.output or os.path.join(root, "po", "gpuscout.pot")
        subprocess.run([args.msgcat, "--no-wrap", "-o", output, *parts], check=True)


if __name__ == "__main__":
    main()
