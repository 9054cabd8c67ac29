#!/usr/bin/env python3
"""Checks the curated data tables in data/ (python3 standard library only).

Usage: python3 tests/data/check_data.py DATA_DIR

Each check prints one line per problem found and counts once in the summary line
"data checks: N passed, M failed". Exit status is 1 when any check failed, 2 on bad usage.
"""
import csv
import os
import re
import sys
import time

# A row read on a day after today is a typo (UTC, as the rows' dates).
TODAY = time.strftime("%Y-%m-%d", time.gmtime())

HEADERS = {
    "compute_capability.csv": "cc,sm,architecture,vendor_family,notes,source,date",
    "cuda_driver.csv": "cuda,release,linux_min_driver,windows_min_driver,family_min_driver,windows_family_min_driver,source,date",
    "torch_builds.csv": "torch,released,cuda,platform,arch_list,ptx,channel,index,python_min,python_max,source,date",
    "gpus.csv": "vendor,name,aliases,architecture,compute_capability,memory_bytes,memory_bandwidth_gbs,"
                "fp32_tflops,fp16_tensor_tflops_dense,bf16_tensor_tflops_dense,fp16_accumulate,"
                "fp8_tensor_tflops_dense,tdp_w,launch_year,launch_price_usd,street_price_usd,street_price_date,used_price_usd,"
                "form_factor,pci_ids,sms,boost_clock_mhz,l2_bytes,pcie_gen,pcie_width,software_support,source,date",
    "platforms.csv": "kind,provider,offer,gpu,gpu_count,memory_bytes,usd_per_hour,price_per_hour,price_max_per_hour,"
                     "currency,free_hours_per_week,session_hours,requirements,steps,note,region,url,source,date",
    "exchange_rates.csv": "currency,units_per_usd,symbol,source,date",
    "torch_companions.csv": "torch,torchvision,torchaudio,source,date",
    "amd_apus.csv": "gfx_target,products,source,date",
    "driver_branches.csv": "arch,cc_min,cc_max,last_driver_branch,last_driver_version,max_cuda,source,date",
    "driver_routes.csv": "os_id,version_id,driver,command,prerequisite,source,date",
    "precision.csv": "vendor,architecture,compute_capability,fp32,tf32,fp16,bf16,fp8,fp4,notes,source,date",
    "models.csv": "name,aliases,hf_id,model_type,hidden_size,intermediate_size,num_hidden_layers,"
                  "num_attention_heads,num_key_value_heads,head_dim,vocab_size,tie_word_embeddings,"
                  "max_position_embeddings,num_local_experts,num_experts_per_tok,extra,params,source,date",
    "glossary.csv": "key,title,aliases,lookup_only,summary,explanation,shows,source,date",
    "openblas_cores.csv": "corename,isa,vendor,requires,source,date",
    "cuda_context.csv": "architecture,infer_mib,train_mib,source,date",
    "freshness.csv": "table,column,kind,max_months,why,source,date",
}

# Columns that must hold a number when not empty, and those that must then be > 0.
NUMERIC = {
    "gpus.csv": ["memory_bytes", "memory_bandwidth_gbs", "fp32_tflops", "fp16_tensor_tflops_dense",
                 "bf16_tensor_tflops_dense", "fp16_accumulate", "fp8_tensor_tflops_dense", "tdp_w",
                 "launch_year", "launch_price_usd", "street_price_usd", "used_price_usd", "sms", "boost_clock_mhz", "l2_bytes",
                 "pcie_gen", "pcie_width"],
    "platforms.csv": ["gpu_count", "memory_bytes", "usd_per_hour", "price_per_hour", "price_max_per_hour",
                      "free_hours_per_week", "session_hours"],
    "exchange_rates.csv": ["units_per_usd"],
    "cuda_context.csv": ["infer_mib", "train_mib"],
    "freshness.csv": ["max_months"],
    "models.csv": ["hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                   "num_key_value_heads", "head_dim", "vocab_size", "max_position_embeddings", "num_local_experts",
                   "num_experts_per_tok", "params"],
}
POSITIVE = {
    "gpus.csv": [c for c in NUMERIC["gpus.csv"]],
    "platforms.csv": ["gpu_count", "memory_bytes", "price_per_hour", "price_max_per_hour", "free_hours_per_week",
                      "session_hours"],
    "exchange_rates.csv": ["units_per_usd"],
    "models.csv": ["hidden_size", "num_hidden_layers", "vocab_size", "params"],
}
INTEGER = {
    "gpus.csv": ["memory_bytes", "tdp_w", "launch_year", "sms", "boost_clock_mhz", "l2_bytes", "pcie_gen",
                 "pcie_width"],
    "platforms.csv": ["gpu_count", "memory_bytes"],
}
ENUMS = {
    ("precision.csv", "vendor"): {"nvidia", "amd", "intel"},
    **{("precision.csv", f): {"yes", "slow", "no", ""} for f in ("fp32", "tf32", "fp16", "bf16", "fp8", "fp4")},
    ("gpus.csv", "vendor"): {"nvidia", "amd", "intel"},
    ("gpus.csv", "form_factor"): {"desktop", "laptop", "datacenter", "datacenter-passive", "workstation"},
    ("platforms.csv", "kind"): {"free", "paid"},
    ("torch_builds.csv", "channel"): {"stable", "experimental"},
    ("torch_builds.csv", "platform"): {"linux-x86_64", "linux-aarch64", "windows-x86_64"},
}
# Cells the tool prints to users: curation remarks belong in `source`, never here.
USER_FACING = {
    "platforms.csv": ["offer", "gpu", "requirements", "steps", "note", "region"],
    "gpus.csv": ["name", "aliases", "software_support"],
    "models.csv": ["name", "aliases"],
    "glossary.csv": ["title", "aliases", "lookup_only", "summary", "explanation", "shows"],
}
# Of those, the cells that are prose rather than names: po/make_pot.py puts each into the message template, and
# the code shows them through tr().
TRANSLATED = {
    "platforms.csv": ["offer", "requirements", "steps", "note"],
    "driver_routes.csv": ["prerequisite"],
    "gpus.csv": ["software_support"],
    "glossary.csv": ["title", "summary", "explanation", "shows"],
}
CURATION_REMARK = re.compile(r"curator|verify|collected cop|not sourced|\bweak\b", re.I)
ISO_DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")
YEAR_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$")
CC = re.compile(r"^\d{1,2}\.\d$")
MAJOR_MINOR = re.compile(r"^\d{1,2}\.\d{1,2}$")
DRIVER = re.compile(r"^\d{3}(\.\d{1,3}){0,2}$")
PCI_ID = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{4}$")
SOURCE_KEY = re.compile(r"^\|\s*((?:`[A-Za-z0-9-]+`\s*)+)\|", re.M)


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, problems):
        if problems:
            self.failed += 1
            for p in problems:
                print(f"FAIL {name}: {p}")
        else:
            self.passed += 1


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def load(data_dir, name, problems):
    """Returns the rows of one CSV as dicts, or None; reports a missing file or a wrong header."""
    path = os.path.join(data_dir, name)
    if not os.path.isfile(path):
        problems.append(f"{path} is missing")
        return None
    with open(path, newline="", encoding="utf-8") as f:
        lines = list(csv.reader(f, strict=True))
    if not lines:
        problems.append(f"{name} is empty")
        return None
    header = ",".join(lines[0])
    if header != HEADERS[name]:
        problems.append(f"{name} header is '{header}', expected '{HEADERS[name]}'")
        return None
    cols = lines[0]
    rows = []
    for n, cells in enumerate(lines[1:], start=2):
        if len(cells) != len(cols):
            problems.append(f"{name} line {n}: {len(cells)} cells, expected {len(cols)}")
            continue
        row = dict(zip(cols, cells))
        row["_line"] = n
        rows.append(row)
    if not rows:
        problems.append(f"{name} has no data rows")
    return rows


def glossary_problems(rows):
    """Keys are lower-case ids; no name (key, title, alias) leads to two entries, ignoring ASCII case, spaces, '-'
    and '_' as `gpuscout explain` does; an explanation is 3 to 8 lines, a summary one."""
    problems = []
    owner = {}
    for r in rows:
        where = f"glossary.csv line {r['_line']} ({r['key']})"
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r["key"]):
            problems.append(f"{where}: key '{r['key']}' is not lower-case words joined by '-'")
        names = [r["key"], r["title"]] + [a for col in ("aliases", "lookup_only") for a in r[col].split(";")]
        for name in {re.sub(r"[ \t_-]", "", n.strip().lower()) for n in names if n.strip()}:
            if name in owner and owner[name] != r["key"]:
                problems.append(f"{where}: name '{name}' also names '{owner[name]}'")
            owner[name] = r["key"]
        lines = r["explanation"].strip().split("\n")
        if not 3 <= len(lines) <= 8:
            problems.append(f"{where}: explanation has {len(lines)} lines, not 3 to 8")
        if "\n" in r["summary"] or "\n" in r["title"]:
            problems.append(f"{where}: title and summary are one line each")
    return problems


# FP32 FLOP per SM (AMD: compute unit, Intel: Xe-core) per clock in the vendor's FP32 vector figure: FP32 lanes x 2
# (fused multiply-add), counting dual issue and packed FP32 where the vendor's figure counts them (docs/data.md).
# A row whose fp32_tflops / (sms x boost clock) is none of its architecture's values breaks the convention (the
# MI300X at half of AMD's 163.4 did).
FP32_FLOP_PER_SM_CLOCK = {
    "Kepler": {384}, "Maxwell": {256}, "Pascal": {128, 256}, "Volta": {128}, "Turing": {128},
    "Ampere": {128, 256}, "Ada Lovelace": {256}, "Hopper": {256}, "Blackwell": {256},
    "GCN 5": {128}, "CDNA": {128}, "CDNA 2": {128}, "CDNA 3": {256}, "CDNA 4": {256},
    "RDNA": {128}, "RDNA 2": {128}, "RDNA 3": {256}, "RDNA 3.5": {256}, "RDNA 4": {256},
    "Xe-HPG (Alchemist)": {256}, "Xe2-HPG (Battlemage)": {256}, "Xe2-LPG (Lunar Lake)": {256},
}


def fp32_convention_problems(rows):
    problems = []
    for r in rows:
        if not (r["fp32_tflops"] and r["sms"] and r["boost_clock_mhz"]):
            continue
        per = float(r["fp32_tflops"]) * 1e12 / (float(r["sms"]) * float(r["boost_clock_mhz"]) * 1e6)
        allowed = FP32_FLOP_PER_SM_CLOCK.get(r["architecture"])
        if allowed is None:
            problems.append(f"gpus.csv line {r['_line']}: architecture '{r['architecture']}' has no FP32 rate per SM "
                            "in check_data.py")
        elif not any(abs(per - a) <= 0.02 * a for a in allowed):
            problems.append(f"gpus.csv line {r['_line']} ({r['name']}): fp32_tflops {r['fp32_tflops']} is {per:.1f} "
                            f"FLOP per SM per clock, not {sorted(allowed)} as {r['architecture']} counts it")
    return problems


def main(argv):
    if len(argv) != 2:
        print("usage: check_data.py DATA_DIR", file=sys.stderr)
        return 2
    data_dir = argv[1]
    ck = Checker()
    tables = {}
    for name in HEADERS:
        problems = []
        try:
            tables[name] = load(data_dir, name, problems)
        except (csv.Error, UnicodeDecodeError) as e:
            problems.append(f"{name} does not parse: {e}")
            tables[name] = None
        ck.check(f"{name} parses with its exact header", problems)

    keys = set()
    sources_md = os.path.join(data_dir, "SOURCES.md")
    if os.path.isfile(sources_md):
        with open(sources_md, encoding="utf-8") as f:
            # A key row's first cell may define several keys: "| `NVDS-T4` `NVDS-A10` |".
            keys = {k for cell in SOURCE_KEY.findall(f.read()) for k in re.findall(r"`([A-Za-z0-9-]+)`", cell)}
    ck.check("SOURCES.md defines source keys", [] if keys else [f"{sources_md} missing or defines no `KEY` rows"])

    for name, rows in tables.items():
        if rows is None:
            continue
        problems = []
        for r in rows:
            where = f"{name} line {r['_line']}"
            if not r["source"].strip():
                problems.append(f"{where}: empty source")
            elif keys and not any(re.search(r"(?<![A-Za-z0-9-])" + re.escape(k) + r"(?![A-Za-z0-9-])", r["source"])
                                  for k in keys):
                problems.append(f"{where}: source names no key defined in SOURCES.md: '{r['source'][:60]}'")
            if not ISO_DATE.match(r["date"]):
                problems.append(f"{where}: date '{r['date']}' is not an ISO date (YYYY-MM-DD)")
            elif r["date"] > TODAY:
                problems.append(f"{where}: date '{r['date']}' is in the future (today is {TODAY})")
        ck.check(f"{name} rows have a source and an ISO date", problems)

        problems = [f"{name} line {r['_line']} {col}: a curation remark in a cell users read: '{r[col][:60]}'"
                    for col in USER_FACING.get(name, []) for r in rows if CURATION_REMARK.search(r[col])]
        ck.check(f"{name} cells users read hold no curation remarks", problems)

        problems = []
        for col in NUMERIC.get(name, []):
            for r in rows:
                v = r[col].strip()
                if not v:
                    continue
                where = f"{name} line {r['_line']} {col}"
                if not is_number(v):
                    problems.append(f"{where}: '{v}' is not a number")
                elif col in INTEGER.get(name, []) and not re.fullmatch(r"\d+", v):
                    problems.append(f"{where}: '{v}' is not a whole number")
                elif col in POSITIVE.get(name, []) and float(v) <= 0:
                    problems.append(f"{where}: {v} must be positive")
                elif float(v) < 0:
                    problems.append(f"{where}: {v} must not be negative")
        ck.check(f"{name} numeric columns", problems)

        problems = []
        for (table, col), allowed in ENUMS.items():
            if table != name:
                continue
            for r in rows:
                if r[col] not in allowed:
                    problems.append(f"{name} line {r['_line']} {col}: '{r[col]}' not in {sorted(allowed)}")
        if any(t == name for t, _ in ENUMS):
            ck.check(f"{name} enumerated columns", problems)

    ccs = set()
    if tables["compute_capability.csv"]:
        problems = []
        for r in tables["compute_capability.csv"]:
            if not CC.match(r["cc"]):
                problems.append(f"line {r['_line']}: cc '{r['cc']}' is not like 8.6")
            elif r["cc"] in ccs:
                problems.append(f"line {r['_line']}: duplicate cc {r['cc']}")
            ccs.add(r["cc"])
            if not re.fullmatch(r"sm_\d{2,3}", r["sm"]) or not r["architecture"]:
                problems.append(f"line {r['_line']}: bad sm '{r['sm']}' or empty architecture")
        ck.check("compute_capability.csv values", problems)

    cudas = set()
    if tables["cuda_driver.csv"]:
        problems = []
        for r in tables["cuda_driver.csv"]:
            where = f"line {r['_line']}"
            if not MAJOR_MINOR.match(r["cuda"]):
                problems.append(f"{where}: cuda '{r['cuda']}' is not major.minor")
            cudas.add(r["cuda"])
            if not r["release"]:
                problems.append(f"{where}: empty release")
            if not DRIVER.match(r["linux_min_driver"]):
                problems.append(f"{where}: linux_min_driver '{r['linux_min_driver']}' is not a driver version or branch")
            for col in ("windows_min_driver", "family_min_driver", "windows_family_min_driver"):
                if r[col] and not DRIVER.match(r[col]):
                    problems.append(f"{where}: {col} '{r[col]}' is not a driver version")
        ck.check("cuda_driver.csv values", problems)

    rows = tables.get("driver_routes.csv")
    if rows is not None:
        problems, seen = [], set()
        for r in rows:
            where = f"driver_routes.csv line {r['_line']}"
            if r["driver"] and not DRIVER.match(r["driver"]):
                problems.append(f"{where}: driver '{r['driver']}' is not a driver version")
            # One line a user pastes: a command, not a script (no shell joining, no line breaks).
            if not r["command"] or any(t in r["command"] for t in ("&&", ";", "|", "\n")):
                problems.append(f"{where}: command '{r['command']}' is not one plain command")
            key = (r["os_id"], r["version_id"])
            if key in seen:
                problems.append(f"{where}: a second row for {key}")
            seen.add(key)
        ck.check("driver_routes.csv values", problems)

    if tables["torch_builds.csv"]:
        problems = []
        cpu_rows = set()
        releases = set()
        for r in tables["torch_builds.csv"]:
            where = f"torch_builds.csv line {r['_line']}"
            # "2.12.1": a build only that patch release has; it belongs to release 2.12 (the reader keys on major.minor).
            release = ".".join(r["torch"].split(".")[:2])
            releases.add(release)
            if not re.fullmatch(r"\d+\.\d+(\.\d+)?", r["torch"]):
                problems.append(f"{where}: torch '{r['torch']}' is not major.minor or major.minor.patch")
            if not YEAR_MONTH.match(r["released"]):
                problems.append(f"{where}: released '{r['released']}' is not YYYY-MM or YYYY-MM-DD")
            for col in ("python_min", "python_max"):
                if not MAJOR_MINOR.match(r[col]):
                    problems.append(f"{where}: {col} '{r[col]}' is not like 3.10")
            if r["index"]:
                if r["cuda"] or r["ptx"]:
                    problems.append(f"{where}: a {r['index']} row has a cuda or ptx cell")
                elif r["index"] == "xpu":
                    if r["arch_list"]:
                        problems.append(f"{where}: an xpu row lists architectures")
                elif not re.fullmatch(r"rocm\d+\.\d+(\.\d+)?", r["index"]):
                    problems.append(f"{where}: index '{r['index']}' is not rocmX.Y or xpu")
                elif not r["arch_list"] or not all(re.fullmatch(r"gfx[0-9a-f]{3,4}", a) for a in r["arch_list"].split()):
                    problems.append(f"{where}: a ROCm row needs gfx targets in arch_list")
                continue
            if not r["cuda"]:
                cpu_rows.add(release)
                if r["arch_list"] or r["ptx"]:
                    problems.append(f"{where}: CPU row (empty cuda) has an arch list or PTX")
                continue
            if cudas and r["cuda"] not in cudas:
                problems.append(f"{where}: cuda {r['cuda']} is not in cuda_driver.csv")
            archs = r["arch_list"].split()
            if not archs:
                problems.append(f"{where}: empty arch_list for a CUDA build")
            for a in archs + ([r["ptx"]] if r["ptx"] else []):
                if ccs and a not in ccs:
                    problems.append(f"{where}: arch '{a}' is not a compute capability in compute_capability.csv")
            if r["ptx"] and r["ptx"] not in archs:
                problems.append(f"{where}: ptx {r['ptx']} is not in its arch_list")
        for t in sorted(releases - cpu_rows):
            problems.append(f"torch {t} has no CPU row (empty cuda)")
        ck.check("torch_builds.csv values and arches", problems)

    names = {}
    if tables["gpus.csv"]:
        problems = []
        for r in tables["gpus.csv"]:
            where = f"gpus.csv line {r['_line']}"
            if not r["name"].strip():
                problems.append(f"{where}: empty name")
            for label in [r["name"]] + [a for a in r["aliases"].split(";") if a.strip()]:
                key = label.strip().lower()
                if key in names and names[key] != r["_line"]:
                    problems.append(f"{where}: name/alias '{label}' also used on line {names[key]}")
                elif key in names:
                    problems.append(f"{where}: '{label}' repeated within the row")
                names[key] = r["_line"]
        ck.check("gpus.csv names and aliases are unique (case-insensitive)", problems)

        problems = []
        for r in tables["gpus.csv"]:
            where = f"gpus.csv line {r['_line']} ({r['name']})"
            cc = r["compute_capability"]
            if r["vendor"] == "nvidia":
                if not cc:
                    problems.append(f"{where}: NVIDIA GPU without compute_capability")
                elif ccs and cc not in ccs:
                    problems.append(f"{where}: compute_capability {cc} is not in compute_capability.csv")
            elif cc:
                problems.append(f"{where}: compute_capability set for a non-NVIDIA GPU")
        ck.check("gpus.csv compute capabilities are known", problems)

        problems = []
        for r in tables["gpus.csv"]:
            where = f"gpus.csv line {r['_line']} ({r['name']})"
            ids = [i for i in r["pci_ids"].split(";")] if r["pci_ids"] else []
            for i in ids:
                if not PCI_ID.match(i):
                    problems.append(f"{where}: pci id '{i}' is not like 10de:2684 (lower case)")
                    continue
                vendor = {"nvidia": "10de", "amd": "1002", "intel": "8086"}.get(r["vendor"])
                if vendor and not i.startswith(vendor + ":"):
                    problems.append(f"{where}: pci id '{i}' does not belong to vendor {r['vendor']} ({vendor})")
            if len(set(ids)) != len(ids):
                problems.append(f"{where}: repeated pci id")
            if r["street_price_usd"] and not ISO_DATE.match(r["street_price_date"]):
                problems.append(f"{where}: street_price_usd without an ISO street_price_date")
            if r["street_price_date"] and not r["street_price_usd"]:
                problems.append(f"{where}: street_price_date without street_price_usd")
        ck.check("gpus.csv pci ids and street prices", problems)

    if tables["gpus.csv"]:
        ck.check("gpus.csv fp32_tflops follows one convention (docs/data.md)", fp32_convention_problems(tables["gpus.csv"]))

    if tables["platforms.csv"] and names:
        problems = []
        currencies = {r["currency"] for r in tables["exchange_rates.csv"] or []}
        for r in tables["platforms.csv"]:
            where = f"platforms.csv line {r['_line']}"
            if r["gpu"].strip().lower() not in names:
                problems.append(f"{where}: gpu '{r['gpu']}' is not a name or alias in gpus.csv")
            local = bool(r["price_per_hour"] and r["currency"])
            if r["kind"] == "paid" and not (r["usd_per_hour"] and float(r["usd_per_hour"]) > 0) and not local:
                problems.append(f"{where}: paid offer without a positive usd_per_hour or price_per_hour and currency")
            if r["currency"] and r["currency"] not in currencies:
                problems.append(f"{where}: currency '{r['currency']}' is not in exchange_rates.csv")
            if bool(r["price_per_hour"]) != bool(r["currency"]):
                problems.append(f"{where}: price_per_hour and currency go together")
            if r["price_max_per_hour"] and not (r["price_per_hour"] and
                                                float(r["price_max_per_hour"]) >= float(r["price_per_hour"])):
                problems.append(f"{where}: price_max_per_hour below price_per_hour (or without it)")
            if r["kind"] == "free" and r["usd_per_hour"] and float(r["usd_per_hour"]) != 0:
                problems.append(f"{where}: free offer with a non-zero usd_per_hour")
        ck.check("platforms.csv offers resolve to gpus.csv", problems)

    if tables["exchange_rates.csv"]:
        problems = []
        seen = set()
        for r in tables["exchange_rates.csv"]:
            if not re.fullmatch(r"[A-Z]{3}", r["currency"]) or r["currency"] in seen:
                problems.append(f"line {r['_line']}: bad or repeated currency '{r['currency']}'")
            seen.add(r["currency"])
        for c in ("USD", "CNY", "EUR", "GBP", "JPY", "INR", "KRW", "CAD", "AUD"):
            if c not in seen:
                problems.append(f"currency {c} is missing")
        usd = [r for r in tables["exchange_rates.csv"] if r["currency"] == "USD"]
        if usd and usd[0]["units_per_usd"] and float(usd[0]["units_per_usd"]) != 1:
            problems.append("USD units_per_usd must be 1")
        ck.check("exchange_rates.csv currencies", problems)

    if tables["glossary.csv"]:
        ck.check("glossary.csv keys, names and explanations", glossary_problems(tables["glossary.csv"]))

    print(f"data checks: {ck.passed} passed, {ck.failed} failed")
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
