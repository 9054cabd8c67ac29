#!/usr/bin/env python3
"""Every --json document against its JSON Schema (schemas/*.schema.json, draft 2020-12; issue 15).

Runs each command with --json over every recorded machine (the sysroots and fake driver scenarios, run as
tests/i18n/check_zh.py runs them), validates the committed golden info files and saved bench results, and checks
the schema files themselves. A field the binary writes that its schema does not list fails (additionalProperties is
false), as does a changed type; the self-check at the end proves that on a real document.

Usage: check_schemas.py --bin BUILD/src/gpuscout --fake-lib BUILD/fakes/lib [--jobs N]
"""
import argparse
import copy
import glob
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from jsonschema import Draft202012Validator

try:  # jsonschema 4.18 and newer
    from referencing import Registry, Resource
except ImportError:  # Debian 12's jsonschema 4.10: the older resolver
    Registry = None
    from jsonschema import RefResolver

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "i18n"))
from check_zh import machines, run  # noqa: E402  (one way to run the binary on a recorded machine)

FAKES = os.path.join(ROOT, "tests", "fakes")
# (schema file stem, arguments): every document the binary writes with --json. fit's capacity table needs a GPU or
# --vram, so it runs with both where the machine has no GPU: exit 2 is then a usage error, not a document.
COMMANDS = [
    ("inventory", ["info", "--json"]),
    ("inventory", ["doctor", "--json"]),
    ("fit", ["fit", "--json"]),
    ("fit", ["fit", "--vram", "24G", "--json"]),
    ("fit", ["fit", "--model", "llama-3.1-8b", "--json"]),
    ("fit", ["fit", "--model", "llama-3.1-8b", "--mode", "qlora", "--json"]),
    ("fit.models", ["fit", "--list-models", "--json"]),
    ("advise", ["advise", "--json"]),
    ("platforms", ["platforms", "--json"]),
    ("glossary", ["explain", "--json"]),
    ("glossary", ["--lang", "zh", "explain", "--json"]),
    ("data", ["data", "--json"]),
    ("data", ["--data-info", "--json"]),
]
OK_EXITS = {0, 3, 4}  # 3 and 4: doctor --strict's verdicts


def load_schemas():
    """Every schema, with a registry of all of them: one may refer to another's part (fleet's verdict is doctor's)."""
    loaded = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "schemas", "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        stem = os.path.basename(path)[len("gpuscout."):-len("-1.schema.json")]
        if not schema.get("$id", "").endswith("/" + os.path.basename(path)):
            raise SystemExit(f"{path}: $id does not name the file")
        loaded[stem] = schema
    if Registry is None:
        store = {s["$id"]: s for s in loaded.values()}
        return {stem: Draft202012Validator(s, resolver=RefResolver.from_schema(s, store=store))
                for stem, s in loaded.items()}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in loaded.values())
    return {stem: Draft202012Validator(s, registry=registry) for stem, s in loaded.items()}


def problems(validator, doc, where):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [f"{where}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}" for e in errors[:5]]


def check_machine(binary, schemas, label, env):
    found = []
    for stem, args in COMMANDS:
        code, out, err = run(binary, args if args[0] == "--lang" else ["--lang", "en", *args], env)
        where = f"{label}: gpuscout {' '.join(args)}"
        if code == 2 and args[:1] == ["fit"] and len(args) == 2:
            continue  # no GPU and no --vram: the documented usage error
        if code not in OK_EXITS:
            found.append(f"{where}: exit {code}: {err.strip()[:200]}")
            continue
        try:
            doc = json.loads(out)
        except ValueError as e:
            found.append(f"{where}: not JSON ({e})")
            continue
        found += problems(schemas[stem], doc, where)
    return found


def check_files(binary, schemas):
    found = []
    for path in sorted(glob.glob(os.path.join(FAKES, "sysroots", "*", "expected-info.json"))):
        with open(path, encoding="utf-8") as f:
            found += problems(schemas["inventory"], json.load(f), os.path.relpath(path, ROOT))
    benches = sorted(glob.glob(os.path.join(FAKES, "bench", "*.json")))
    for path in benches:
        with open(path, encoding="utf-8") as f:
            found += problems(schemas["bench"], json.load(f), os.path.relpath(path, ROOT))
    infos = sorted(glob.glob(os.path.join(FAKES, "sysroots", "*", "expected-info.json")))
    for args in (infos, [os.path.join(FAKES, "fleet", "four-nodes")]):
        code, out, err = run(binary, ["fleet", "--json", *args], {})
        found += problems(schemas["fleet"], json.loads(out), "fleet --json") if code == 0 else [
            f"fleet --json: exit {code}: {err[:200]}"]
    for a, b in ((benches[0], benches[-1]), (benches[-1], benches[0])):
        code, out, err = run(binary, ["bench", "--compare", a, b, "--json"], {})
        found += problems(schemas["bench-compare"], json.loads(out), f"bench --compare {a} {b}") if code == 0 else [
            f"bench --compare: exit {code}: {err[:200]}"]
    code, out, err = run(binary, ["bench", "--device", "cpu", "--size", "128", "--json"], {"NO_COLOR": "1"}, timeout=120)
    found += problems(schemas["bench"], json.loads(out), "bench --device cpu --json") if code == 0 else [
        f"bench --device cpu: exit {code}: {err[:200]}"]
    return found


def self_check(schemas, binary, env):
    """The schemas are strict: a new field, at the top or inside a section, or a changed type, is refused."""
    _, out, _ = run(binary, ["--lang", "en", "doctor", "--json"], env)
    doc = json.loads(out)
    mutations = {"a new top-level field": lambda d: d.__setitem__("new_field", 1),
                 "a new field in cpu": lambda d: d["cpu"].__setitem__("new_field", 1),
                 "logical_cpus as text": lambda d: d["cpu"].__setitem__("logical_cpus", "2"),
                 "an unknown verdict status": lambda d: d["verdict"].__setitem__("status", "fine")}
    found = []
    for what, mutate in mutations.items():
        changed = copy.deepcopy(doc)
        mutate(changed)
        if schemas["inventory"].is_valid(changed):
            found.append(f"self-check: the inventory schema accepts {what}")
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fake-lib", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    schemas = load_schemas()
    recorded = machines(args.fake_lib)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        found = [p for ps in pool.map(lambda m: check_machine(args.bin, schemas, *m), recorded) for p in ps]
    found += check_files(args.bin, schemas) + self_check(schemas, args.bin, recorded[0][1])
    for p in found:
        print(p)
    print(f"{len(schemas)} schemas, {len(recorded)} machines x {len(COMMANDS)} commands: {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
