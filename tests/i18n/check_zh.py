#!/usr/bin/env python3
"""Checks that gpuscout speaks Chinese everywhere (issue 13), in two parts.

1. Rendering: runs every command (doctor, info, device, fit with and without --model, advise, platforms,
   report --markdown and --html, explain where it exists, bench on this machine's CPU, `--help` of every command)
   over every recorded machine (tests/fakes/sysroots/*, and each fake driver scenario of tests/fakes/scenarios) with
   --lang zh, and fails on any English word (one alone too) that is not a command (`...`, or a command of the
   plan), a finding's code, a machine fact (a string of that machine's `info --json`), a name from the data
   tables, or a word or phrase of allowed_english.txt (beside this script): product names and units.
   Each finding is traced to the message of the template that holds it, and so to its source file.
2. Catalogue: every msgid of a freshly generated template (po/make_pot.py into a temporary file) has a non-empty,
   non-fuzzy msgstr in the merged catalogue, and every msgstr has the msgid's {} placeholders (a translation may
   number them, {0} {1}, to reorder).

Prints a summary (problems per source file, the first few of each) and exits 1 when anything is left.

Usage: check_zh.py --bin BUILD/src/gpuscout --po BUILD/po/zh_CN.po --fake-lib BUILD/fakes/lib [--jobs N]
"""
import argparse
import atexit
import collections
import concurrent.futures
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAKES = os.path.join(ROOT, "tests", "fakes")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# An English word: a letter, then lower-case letters (with ' or - inside). All-capital tokens (GPU, CUDA, RTX),
# numbers, options (--vram), commands with punctuation (torch==2.7) and CJK-joined text are not words.
WORD = re.compile(r"^[(\"'\[]*[A-Za-z][a-z]+(?:['-][a-z]+)*[,.;:!?)\"'\]]*$")
# The name columns of data/*.csv: what they hold is a name (a card, a platform, an offer, a model), not a message.
NAME_COLUMNS = {"name", "aliases", "architecture", "products", "provider", "offer", "gpu", "hf_id", "model_type",
                "vendor", "vendor_family", "command"}
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([0-9]*)(:[^{}]*)?\}")
SHOW = 5  # messages shown per source file


# ---- part 1: the rendered output --------------------------------------------------------------------------------

def machines(fake_lib):
    """(label, environment) of every recorded machine: the sysroots, then the fake driver scenarios."""
    base = {"GPUSCOUT_NVML_LIBRARY": "/nonexistent/libnvidia-ml.so.1", "GPUSCOUT_CUDA_LIBRARY": "/nonexistent/libcuda.so.1",
            "PYTHONPATH": os.path.join(FAKES, "python"), "NO_COLOR": "1"}
    torches = sorted(f[:-5] for f in os.listdir(os.path.join(FAKES, "scenarios", "torch"))
                     if f.endswith(".json") and f != "hang.json")
    out = []
    sysroots = os.path.join(FAKES, "sysroots")
    for i, name in enumerate(sorted(d for d in os.listdir(sysroots) if os.path.isdir(os.path.join(sysroots, d)))):
        env = dict(base, GPUSCOUT_SYSROOT=os.path.join(sysroots, name),
                   GPUSCOUT_FAKE_TORCH=os.path.join(FAKES, "scenarios", "torch", torches[i % len(torches)] + ".json"))
        out.append((f"sysroot/{name}", env))
    scenarios = os.path.join(FAKES, "scenarios")
    for i, f in enumerate(sorted(f for f in os.listdir(scenarios) if f.endswith(".json") and f != "hang.json")):
        env = dict(base, LD_LIBRARY_PATH=fake_lib, GPUSCOUT_FAKE_SCENARIO=os.path.join(scenarios, f),
                   GPUSCOUT_FAKE_TORCH=os.path.join(scenarios, "torch", torches[i % len(torches)] + ".json"))
        del env["GPUSCOUT_NVML_LIBRARY"], env["GPUSCOUT_CUDA_LIBRARY"]
        out.append((f"scenario/{f[:-5]}", env))
    return out


# Every run keeps its saved state (the last bench, which report shows) in a folder of this check, never the user's:
# a bench saved there by another test or by hand, in another language, would show up in report's output.
STATE_HOME = tempfile.mkdtemp(prefix="gpuscout-check-state-")
atexit.register(shutil.rmtree, STATE_HOME, True)


def run(binary, args, env, timeout=60):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GPUSCOUT_", "LC_", "LANG"))}
    full["XDG_STATE_HOME"] = STATE_HOME
    full.pop("VIRTUAL_ENV", None)
    full.pop("CONDA_PREFIX", None)
    full.update(env)
    try:
        p = subprocess.run([binary, *args], env=full, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def strings_of(value, out):
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            strings_of(v, out)
    elif isinstance(value, list):
        for v in value:
            strings_of(v, out)


def data_names():
    sys.path.insert(0, os.path.join(ROOT, "tests", "data"))
    import csv
    names = set()
    data = os.path.join(ROOT, "data")
    for f in os.listdir(data):
        if not f.endswith(".csv"):
            continue
        with open(os.path.join(data, f), encoding="utf-8") as fh:
            rows = csv.DictReader(line for line in fh if not line.startswith("#"))
            for row in rows:
                for col, cell in row.items():
                    if col in NAME_COLUMNS and cell:
                        names.update(c.strip() for c in re.split(r"[;|]", cell) if c.strip())
    return names


def commands(binary, env):
    """Every command line to render, `--help` of each command included (the commands as --help lists them)."""
    _, top, _ = run(binary, ["--lang", "en", "--help"], env)
    subs = []
    in_subs = False
    for line in top.splitlines():
        if line.strip().endswith(":"):
            in_subs = line.strip().lower().startswith("subcommand")
            continue
        m = re.match(r"^  ([a-z][a-z-]*)\s", line)
        if in_subs and m:
            subs.append(m.group(1))
    out = [["--help"], [], ["doctor"], ["info"], ["device"], ["fit"], ["fit", "--model", "llama-3.1-8b"],
           ["fit", "--model", "llama-3.1-8b", "--mode", "qlora"], ["fit", "--list-models"], ["advise"],
           ["platforms"], ["report", "--markdown"], ["report", "--html", "{html}"]]
    if "explain" in subs:
        out.append(["explain"])
    out += [[s, "--help"] for s in subs]
    return out, subs


# Identifiers that stay as they are in every language: a finding's code ("[torch-cpu-only]", the JSON's contract),
# a glossary term or option value in kebab case (compute-capability, all-reduce), a quoted value ('learn', "bus
# error": the user's or the system's own words).
IDENTIFIER = re.compile(r"\[?\b[a-z0-9]+(?:-[a-z0-9]+)+\b\]?|'[^'\s]*'|\"[^\"\n]*\"")
# A usage line (CLI11's syntax: positional names such as [files...]) and a fenced code block are commands.
USAGE = re.compile(r"^\s*(用法|Usage):.*$", re.M)
# The first column of a --help or explain table: a subcommand, an option's or argument's name, a glossary term.
TABLE_NAME = re.compile(r"^(\s*)[a-z][a-z0-9-]*(?= {2,}| [A-Z]+\b)", re.M)
CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
FENCED = re.compile(r"^(`{3,})[^\n]*\n.*?^\1\s*$", re.M | re.S)


def english_runs(text, min_words=1):
    """Runs of English words, per line (a finding quotes its whole line): every word counts, one alone too."""
    for line in text.splitlines():
        tokens = IDENTIFIER.sub(" ", line).split()
        run_words = []
        for tok in tokens + [""]:
            if tok and WORD.match(tok):
                run_words.append(tok)
                continue
            if len(run_words) >= min_words:
                yield " ".join(w.strip("()\"'[],.;:!?") for w in run_words), line.strip()
            run_words = []


def visible_text(page):
    """What a reader sees of an HTML page: no <script>, <style> or tags, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<code\b[^>]*>.*?</code>", " … ", page, flags=re.S)  # a command, as `...` is in text
    page = re.sub(r"<br\s*/?>|</(p|li|tr|h[1-6]|div|figcaption|summary|pre|th|td)>", "\n", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def without_facts(text, facts):
    """The text with each fact taken out (a CPU model, a library's own error, a path, a card's name), even where a
    wrapped line splits it, and with the commands it quotes (`...`)."""
    for fact in facts:
        words = fact.split()
        if len(words) < 2 or words[0] not in text:
            continue
        text = re.sub(r"\s+".join(re.escape(w) for w in words), " … ", text)
    return re.sub(r"`[^`\n]*`", " … ", text)


def allowed_phrase(phrase, allowed):
    return any(p.fullmatch(phrase) for p in allowed)


def trigrams(words):
    words = [w.strip("()\"'[],.;:!?…") for w in words]
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def quotes_a_fact(phrase, fact_trigrams):
    """A run whose every three words come from the machine's own data: a torch warning or a library error quoted
    in part (shortened with "…" or wrapped), which is the machine's text, not ours."""
    words = phrase.split()
    grams = trigrams(words)
    if not grams:
        return False
    if grams <= fact_trigrams:
        return True
    # The quote cut short inside its last word ("... check the instructio").
    *head, last = [tuple(w.strip("()\"'[],.;:!?…") for w in words[i:i + 3]) for i in range(len(words) - 2)]
    return set(head) <= fact_trigrams and any(g[:2] == last[:2] and g[2].startswith(last[2]) for g in fact_trigrams)


# A line that is a command by itself (the plan's steps print each command alone on its line).
COMMAND_LINE = re.compile(r"^\s*(gpuscout|sudo|uv|%pip|\S*python\S*)\s")


def unexplained(text, facts, single, fact_words, fact_trigrams, allowed):
    """(phrase, line) of each English run in `text` that no rule explains."""
    for phrase, line in english_runs(without_facts(text, facts)):
        if COMMAND_LINE.match(line):
            continue
        # A line beside a fact, or one with no Chinese at all (a library's or PyTorch's own message).
        known = single | fact_words if "…" in line or not CJK.search(line) else single
        words = [w for w in phrase.split() if w not in known and not allowed_phrase(w, allowed)]
        if not words:
            continue
        if not allowed_phrase(phrase, allowed) and not quotes_a_fact(phrase, fact_trigrams):
            yield phrase, line


def render_machine(binary, label, env, cmds, names, allowed, tmp):
    _, info_json, _ = run(binary, ["--lang", "en", "info", "--json"], env)
    _, doctor_json, _ = run(binary, ["--lang", "en", "doctor", "--json"], env)
    facts = set(names)
    try:
        strings_of(json.loads(info_json), facts)
    except json.JSONDecodeError:
        pass
    try:  # the plan's commands: the same in every language
        facts.update(s["command"] for s in json.loads(doctor_json)["verdict"]["plan"]["steps"] if s.get("command"))
    except (json.JSONDecodeError, KeyError, TypeError):
        pass
    single = {f.strip("()\"'[],.;:!?") for f in facts if f.strip() and " " not in f.strip()}
    # A word of a longer fact counts as the fact's only beside one (a PyTorch warning quoted in part and wrapped).
    fact_words = {w.strip("()\"'[],.;:!?") for f in facts for w in f.split()}
    facts = sorted((f for f in facts if " " in f.strip()), key=len, reverse=True)
    fact_trigrams = set().union(*(trigrams(f.split()) for f in facts)) if facts else set()
    found = []
    for args in cmds:
        page = os.path.join(tmp, re.sub(r"\W", "_", label) + ".html")
        argv = ["--lang", "zh"] + [page if a == "{html}" else a for a in args]
        code, out, err = run(binary, argv, env)
        # Markdown's escapes (\_ \` \*) undone, so that a fact reads as it does in info --json.
        text = re.sub(r"\\([\\`*_\[\]<>#|~&$])", r"\1", ANSI.sub("", out + "\n" + err))
        text = TABLE_NAME.sub(r"\1… ", USAGE.sub(" ", FENCED.sub(" ", text)))
        if "{html}" in args and os.path.exists(page):
            with open(page, encoding="utf-8") as f:
                text += "\n" + visible_text(f.read())
        if code not in (0, 2, 3, 4):
            found.append((label, " ".join(args), f"exit {code}", err.strip()[:200]))
        for phrase, line in unexplained(text, facts, single, fact_words, fact_trigrams, allowed):
            found.append((label, " ".join(args), phrase, line))
    return found


def bench_cpu(binary, allowed):
    """bench measures this machine: one small CPU run (no recorded machine can be benchmarked). Its facts (the CPU's
    model, the BLAS's own words) are this machine's `info --json` and what bench --json reports."""
    with tempfile.TemporaryDirectory() as state:
        env = {"GPUSCOUT_STATE_DIR": state}
        code, out, err = run(binary, ["--lang", "zh", "bench", "--device", "cpu", "--size", "256", "--dtype", "fp32"],
                             env, timeout=120)
        _, info_json, _ = run(binary, ["--lang", "en", "info", "--json", "--no-python"], env)
        _, bench_json, _ = run(binary, ["--lang", "en", "bench", "--device", "cpu", "--size", "256", "--dtype", "fp32",
                                        "--json"], env, timeout=120)
    facts = set()
    for doc in (info_json, bench_json):
        try:
            strings_of(json.loads(doc), facts)
        except json.JSONDecodeError:
            pass
    single = {f.strip("()\"'[],.;:!?") for f in facts if f.strip() and " " not in f.strip()}
    fact_words = {w.strip("()\"'[],.;:!?") for f in facts for w in f.split()}
    facts = sorted((f for f in facts if " " in f.strip()), key=len, reverse=True)
    return [("this machine", "bench --device cpu", phrase, line)
            for phrase, line in unexplained(ANSI.sub("", out + "\n" + err), facts, single, fact_words, set(), allowed)]


# ---- part 2: the catalogue ------------------------------------------------------------------------------------

def parse_po(path):
    """{msgid: (msgstr, fuzzy, references)} of a PO file (msgctxt and plurals are not used by gpuscout)."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        blocks = f.read().split("\n\n")
    for block in blocks:
        fields = {"msgid": None, "msgstr": None}
        refs, fuzzy, key = [], False, None
        for line in block.splitlines():
            if line.startswith("#:"):
                refs += line[2:].split()
            elif line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("#"):
                continue
            elif line.startswith(("msgid ", "msgstr ")):
                key, rest = line.split(" ", 1)
                fields[key] = json.loads(rest)
            elif line.startswith('"') and key:
                fields[key] += json.loads(line)
        if fields["msgid"]:
            entries[fields["msgid"]] = (fields["msgstr"] or "", fuzzy, refs)
    return entries


def placeholders(text):
    """The {} fields of a fmt string as (argument index, format spec); automatic numbering resolved."""
    out, auto = set(), 0
    for m in PLACEHOLDER.finditer(text):
        if m.group(0) in ("{{", "}}"):
            continue
        if m.group(1):
            index = int(m.group(1))
        else:
            index, auto = auto, auto + 1
        out.add((index, m.group(2) or ""))
    return out


def check_catalogue(po_path):
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "gpuscout.pot")
        subprocess.run([sys.executable, os.path.join(ROOT, "po", "make_pot.py"), "--output", pot, ROOT], check=True)
        template = parse_po(pot)
    merged = parse_po(po_path) if os.path.exists(po_path) else {}
    problems = []
    for msgid, (_, _, refs) in template.items():
        where = refs[0].split(":")[0] if refs else "?"
        msgstr, fuzzy, _ = merged.get(msgid, ("", False, []))
        if not msgstr or fuzzy:
            problems.append((where, "no translation", msgid))
        elif "{" in msgid and placeholders(msgid) != placeholders(msgstr):
            problems.append((where, "placeholders differ", f"{msgid}  ->  {msgstr}"))
    return template, problems


# ---- the summary ------------------------------------------------------------------------------------------------

_LITERALS = {}


def literals():
    """The text of every string literal in src/, per file (adjacent literals joined), read once."""
    if not _LITERALS:
        lit = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
        for folder, _, files in os.walk(os.path.join(ROOT, "src")):
            for f in sorted(files):
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    _LITERALS[os.path.relpath(path, ROOT)] = " ".join(m.group(1) for m in lit.finditer(fh.read()))
    return _LITERALS


def source_of(phrase, template):
    """The source file of the template message holding `phrase`, else of the string literal in src/ that holds it
    (not marked), else of the literal holding its first three words."""
    words = phrase.split()
    for n in (len(words), 3):
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words[:n]))
        for msgid, (_, _, refs) in template.items():
            if refs and pattern.search(msgid):
                return refs[0].split(":")[0]
        for path, text in literals().items():
            if pattern.search(text):
                return path + " (not marked)"
    return "(no source found: outside text?)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--po", required=True, help="the merged catalogue, build/<preset>/po/zh_CN.po")
    ap.add_argument("--fake-lib", required=True, help="the fake libnvidia-ml/libcuda folder of the build")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("--no-bench", action="store_true")
    args = ap.parse_args()
    allowed = []
    with open(os.path.join(HERE, "allowed_english.txt"), encoding="utf-8") as f:
        allowed = [re.compile(line.strip()) for line in f if line.strip() and not line.startswith("#")]

    template, catalogue_problems = check_catalogue(args.po)
    names = data_names()
    all_machines = machines(args.fake_lib)
    cmds, subs = commands(args.bin, all_machines[0][1])
    findings = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(render_machine, args.bin, label, env, cmds, names, allowed, tmp)
                for label, env in all_machines]
        if not args.no_bench and "bench" in subs:
            jobs.append(pool.submit(bench_cpu, args.bin, allowed))
        for j in jobs:
            findings += j.result()

    # One finding per distinct English phrase, with the machines and commands that showed it.
    by_phrase = collections.OrderedDict()
    for label, cmd, phrase, line in findings:
        by_phrase.setdefault(phrase, []).append((label, cmd, line))
    per_file = collections.defaultdict(list)
    for phrase, seen in by_phrase.items():
        per_file[source_of(phrase, template)].append((phrase, seen))

    print(f"check_zh: {len(all_machines)} machines x {len(cmds)} command lines"
          f"{' + bench on this CPU' if not args.no_bench and 'bench' in subs else ''}")
    print(f"\n1. untranslated output: {len(by_phrase)} distinct English phrases")
    for path in sorted(per_file, key=lambda p: -len(per_file[p])):
        items = per_file[path]
        print(f"  {len(items):4}  {path}")
        for phrase, seen in items[:SHOW]:
            label, cmd, line = seen[0]
            print(f"          \"{line[:110]}\"  ({cmd}, {label}; {len(seen)} times)")
    files = collections.Counter(where for where, _, _ in catalogue_problems)
    print(f"\n2. catalogue: {len(template)} messages in the template, {len(catalogue_problems)} without a usable "
          "translation")
    for path, n in files.most_common():
        print(f"  {n:4}  {path}")
        for where, why, msgid in [p for p in catalogue_problems if p[0] == path][:SHOW]:
            print(f"          {why}: \"{msgid[:110]}\"")
    ok = not by_phrase and not catalogue_problems
    print("\nOK" if ok else "\nFAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
