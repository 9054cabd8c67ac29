#!/usr/bin/env python3
"""Writes the hostile seeds of fuzz/corpus/ from the real ones, so each case of issue 10 (and each crash a fuzzer
found) stays in the corpus as a file named by what it is. Run it after changing a schema; commit what it writes.

Real seeds it starts from (kept as they are):
  fuzz/corpus/inventory/real-*.json   `gpuscout info --json` of each tests/fakes/sysroots machine with the fake
                                      drivers (CONTRIBUTING.md, Fuzzing, says how they were made)
  tests/fakes/bench/*.json            saved benchmarks (copied as bench_file/real-*.json)
  data/*.csv                          the curated tables (copied as csv/data-*.csv)
"""
import copy
import csv
import io
import json
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def write(folder, name, content):
    path = CORPUS / folder / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())


def set_path(doc, path, value):
    """path: "gpus.0.name"; a missing key is created (the last one only)."""
    node = doc
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def edited(base, path, value):
    doc = copy.deepcopy(base)
    set_path(doc, path, value)
    return json.dumps(doc, indent=1, ensure_ascii=False)


def raw_number(base, path, text):
    """A number JSON can carry but Python cannot write (1e999): put a marker, then replace it."""
    return edited(base, path, "@@NUMBER@@").replace('"@@NUMBER@@"', text)


# ---- saved inventories (--from) ----------------------------------------------------------------------------
INVENTORY_EDITS = [  # (seed name, path, value): issue 10 item 7, and what the probes never write but a file can
    ("environment-list", "environment", ["CUDA_VISIBLE_DEVICES"]),
    ("environment-number-value", "environment", {"CUDA_VISIBLE_DEVICES": 0}),
    ("environment-visible-empty", "environment", {"CUDA_VISIBLE_DEVICES": ""}),
    ("environment-visible-junk", "environment", {"CUDA_VISIBLE_DEVICES": "GPU-,0,0,-1,99999999999999999999999,MIG-"}),
    ("environment-70-names", "environment", {f"NCCL_X{i}": "1" for i in range(70)}),
    ("cuda-driver-version-empty", "nvidia.cuda_driver_version", ""),
    ("cuda-driver-version-abc", "nvidia.cuda_driver_version", "abc"),
    ("driver-version-abc", "nvidia.driver_version", "abc"),
    ("driver-version-empty", "nvidia.driver_version", ""),
    ("compute-capability-12", "gpus.0.compute_capability", "12"),
    ("compute-capability-empty", "gpus.0.compute_capability", ""),
    ("compute-capability-dot", "gpus.0.compute_capability", "."),
    ("compute-capability-x.y", "gpus.0.compute_capability", "x.y"),
    ("memory-total-minus-one", "memory.total_bytes", -1),
    ("memory-total-fraction", "memory.total_bytes", 1.5),
    ("gpu-memory-minus-one", "gpus.0.memory_total_bytes", -1),
    ("gpu-memory-fraction", "gpus.0.memory_total_bytes", 0.5),
    ("gpu-memory-uint64-max", "gpus.0.memory_total_bytes", 18446744073709551615),
    ("gpu-memory-free-above-total", "gpus.0.memory_free_bytes", 18446744073709551615),
    ("gpu-memory-zero", "gpus.0.memory_total_bytes", 0),
    ("cpu-model-number", "cpu.model", 5),
    ("gpu-name-number", "gpus.0.name", 5),
    ("gpu-name-script", "gpus.0.name", "<script>alert(1)</script> | `x` *y* \u2028"),
    ("gpu-index-minus-one", "gpus.0.index", -1),
    ("gpu-cuda-index-huge", "gpus.0.cuda_index", 2147483647),
    ("pcie-gen-minus-one", "gpus.0.pcie_gen", -1),
    ("pcie-width-huge", "gpus.0.pcie_width", 4294967295),
    ("sm-count-minus-one", "gpus.0.sm_count", -1),
    ("gpus-object", "gpus", {}),
    ("gpus-number-element", "gpus", [5]),
    ("gpus-null", "gpus", None),
    ("torch-version-abc", "torch.version", "abc"),
    ("torch-cuda-cu126", "torch.cuda", "cu126"),
    ("torch-cuda-empty", "torch.cuda", ""),
    ("torch-arch-list-odd", "torch.arch_list", ["sm_", "compute_abc", "sm_99999999999", "", "8.6"]),
    ("torch-device-capability-odd", "torch.devices", [{"index": -1, "capability": "abc"}]),
    ("schema-2", "schema", "gpuscout.inventory/2"),
    ("schema-number", "schema", 1),
    ("cpu-logical-minus-one", "cpu.logical_cpus", -1),
    ("cpu-quota-negative", "cpu.cpu_quota", -0.5),
    ("disk-total-minus-one", "disks.0.total_bytes", -1),
    ("product-name-latin1-escaped", "platform.product_name", "Caf\u00e9 \ufffd"),
    ("hostname-home-path", "hostname", "alice"),
]
INVENTORY_NUMBERS = [  # numbers as text: item 7's 1e999 and its relatives
    ("memory-total-1e999", "memory.total_bytes", "1e999"),
    ("gpu-memory-1e999", "gpus.0.memory_total_bytes", "1e999"),
    ("gpu-memory-minus-1e999", "gpus.0.memory_total_bytes", "-1e999"),
    ("gpu-memory-1e20", "gpus.0.memory_total_bytes", "1e20"),
    ("gpu-temperature-1e308", "gpus.0.temperature_c", "1e308"),
    ("gpu-memory-big-integer", "gpus.0.memory_total_bytes", "123456789012345678901234567890"),
]


def inventory_seeds():
    base_path = CORPUS / "inventory" / "real-laptop-intel-nvidia-torch-cu128.json"
    base = json.loads(base_path.read_text())
    for name, path, value in INVENTORY_EDITS:
        write("inventory", f"hostile-{name}.json", edited(base, path, value))
    for name, path, text in INVENTORY_NUMBERS:
        write("inventory", f"hostile-{name}.json", raw_number(base, path, text))
    text = base_path.read_bytes()
    write("inventory", "hostile-empty.json", b"")
    write("inventory", "hostile-whitespace.json", b" \n\t\n")
    write("inventory", "hostile-truncated.json", text[: len(text) // 2])
    write("inventory", "hostile-array.json", b"[]")
    write("inventory", "hostile-null.json", b"null")
    write("inventory", "hostile-no-schema.json", b'{"cpu": {}}')
    write("inventory", "hostile-minimal.json", b'{"schema": "gpuscout.inventory/1"}')
    # Item 2: a Latin-1 byte (0xE9) written raw into a name, as a DMI product_name holds it.
    write("inventory", "hostile-product-name-latin1-raw.json",
          edited(base, "platform.product_name", "Caf@@E9@@").encode().replace(b"@@E9@@", b"\xe9"))
    write("inventory", "hostile-lone-surrogate.json",
          edited(base, "gpus.0.name", "@@S@@").replace('"@@S@@"', '"\\udce9"'))
    write("inventory", "hostile-deep-nesting.json",
          edited(base, "cpu.model", "@@D@@").replace('"@@D@@"', "[" * 5000 + "]" * 5000))
    many = copy.deepcopy(base)
    many["gpus"] = [copy.deepcopy(base["gpus"][-1]) for _ in range(64)]
    write("inventory", "hostile-64-gpus.json", json.dumps(many))


# ---- saved benchmarks (bench --compare, report --bench/--compare) -------------------------------------------
BENCH_EDITS = [  # issue 10 item 8, and type confusion in every part the readers walk
    ("model-number", "cpu.model", 5),
    ("cpu-string", "cpu", "abc"),
    ("peak-string", "cpu.peak_gflops.fp32", "abc"),
    ("peak-negative", "cpu.peak_gflops.fp32", -1),
    ("gemm-object", "cpu.gemm", {"dtype": "fp32"}),
    ("gemm-n-string", "cpu.gemm.0.n", "5000"),
    ("gemm-n-negative", "cpu.gemm.0.n", -1),
    ("gemm-dtype-number", "cpu.gemm.0.dtype", 32),
    ("memory-gbs-null", "cpu.memory_gbs", None),
    ("gpus-object", "gpus", {}),
    ("gpus-number-element", "gpus", [5]),
    ("gpu-name-number", "gpus.0.name", 5),
    ("gpu-index-string", "gpus.0.index", "0"),
    ("gpu-gemm-status-number", "gpus.0.gemm.0.status", 1),
    ("gpu-tflops-string", "gpus.0.gemm.0.tflops", "inf"),
    ("gpu-pcie-gen-minus-one", "gpus.0.pcie_gen", -1),
    ("gpu-pcie-width-huge", "gpus.0.pcie_width", 4294967295),
    ("gpu-h2d-string", "gpus.0.h2d_gbs", "fast"),
    ("gpu-name-script", "gpus.0.name", "<script>alert(1)</script></script><!-- \u2028"),
    ("collected-at-number", "collected_at", 20261129),
    ("schema-2", "schema", "gpuscout.bench/2"),
    ("schema-number", "schema", 1),
    ("home-path-in-notes", "notes", ["/home/alice/x", "alice-laptop"]),
]
BENCH_NUMBERS = [
    ("peak-1e999", "cpu.peak_gflops.fp32", "1e999"),
    ("gpu-tflops-1e308", "gpus.0.gemm.0.tflops", "1e308"),
    ("gemm-n-1e999", "cpu.gemm.0.n", "1e999"),
    ("gpu-copy-minus-1e999", "gpus.0.copy_gbs", "-1e999"),
]


def bench_seeds():
    for real in sorted((ROOT / "tests" / "fakes" / "bench").glob("*.json")):
        shutil.copyfile(real, CORPUS / "bench_file" / f"real-{real.name}")
    base = json.loads((ROOT / "tests" / "fakes" / "bench" / "rtx4090-fake-plugin.json").read_text())
    for name, path, value in BENCH_EDITS:
        write("bench_file", f"hostile-{name}.json", edited(base, path, value))
    for name, path, text in BENCH_NUMBERS:
        write("bench_file", f"hostile-{name}.json", raw_number(base, path, text))
    write("bench_file", "hostile-empty.json", b"")
    write("bench_file", "hostile-no-schema.json", b'{"cpu": {"model": "x"}}')
    write("bench_file", "hostile-minimal.json", b'{"schema": "gpuscout.bench/1"}')
    write("bench_file", "hostile-array.json", b'[{"schema": "gpuscout.bench/1"}]')
    write("bench_file", "hostile-nan-literal.json", b'{"schema": "gpuscout.bench/1", "cpu": {"peak_gflops": {"fp32": NaN}}}')
    write("bench_file", "hostile-gpu-name-latin1-raw.json",
          edited(base, "gpus.0.name", "RTX@@E9@@").encode().replace(b"@@E9@@", b"\xe9"))
    write("bench_file", "hostile-deep-nesting.json",
          edited(base, "notes", "@@D@@").replace('"@@D@@"', "[" * 5000 + "]" * 5000))


# ---- CSV tables (--data DIR, --prices) ------------------------------------------------------------------------
def table_with_cell(table, column, value, rows=3):
    """data/TABLE's header and first rows, with `column` of the first row set to `value`."""
    with open(ROOT / "data" / table, newline="") as f:
        lines = list(csv.reader(f))
    header, body = lines[0], [list(r) for r in lines[1 : 1 + rows]]
    body[0][header.index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header] + body)
    return out.getvalue()


CSV_CELLS = [  # (table, column, values): issue 10 item 1 (torch_builds.csv) and its relatives in the other tables
    ("torch_builds.csv", "cuda", ["cu126", "-1", "x", "inf", "NaN", ""]),
    ("torch_builds.csv", "torch", ["abc", "", "-1", "2.7.0a0+git"]),
    ("torch_builds.csv", "arch_list", ["sm_abc;compute_", ";;;", "gfx", "gfx1100 8.0"]),
    ("torch_builds.csv", "index", ["rocm", "rocmX.Y", "xpu", "rocm6.4", "cu128"]),
    ("cuda_driver.csv", "cuda", ["abc", "", "inf"]),
    ("cuda_driver.csv", "linux_min_driver", ["abc", "-1", "", "NaN"]),
    ("gpus.csv", "memory_bytes", ["-1", "1e999", "inf", "24G", "18446744073709551616"]),
    ("gpus.csv", "compute_capability", ["12", "abc", ""]),
    ("gpus.csv", "pci_ids", ["10de:zzzz", "10de", ";"]),
    ("compute_capability.csv", "cc", ["12", "", "x.y"]),
    ("exchange_rates.csv", "units_per_usd", ["0", "-1", "inf", "NaN", "abc", "1e999"]),
    ("platforms.csv", "usd_per_hour", ["inf", "NaN", "-1", "abc"]),
    ("platforms.csv", "gpu_count", ["1e999", "-1", "0", "99999999999"]),
    ("platforms.csv", "memory_bytes", ["-1", "1e999", "abc"]),
    ("platforms.csv", "free_hours_per_week", ["nan", "-1"]),
    ("models.csv", "params", ["0", "-1", "1e999"]),
    ("models.csv", "hidden_size", ["-1", "0", "99999999999999999999", "1.5"]),
    ("models.csv", "num_attention_heads", ["0", "7"]),
    ("models.csv", "extra", ["=;=;x", "rope_scaling={"]),
]


def csv_seeds():
    for table in sorted((ROOT / "data").glob("*.csv")):
        shutil.copyfile(table, CORPUS / "csv" / f"data-{table.name}")
    for table, column, values in CSV_CELLS:
        with open(ROOT / "data" / table, newline="") as f:
            if column not in next(csv.reader(f)):
                raise SystemExit(f"make_corpus: data/{table} has no column {column}: update CSV_CELLS")
        for value in values:
            label = value.lower().replace(";", "semicolons").replace("=", "eq").replace("{", "brace") or "empty"
            write("csv", f"hostile-{table[:-4].replace('_', '-')}-{column.replace('_', '-')}-{label}.csv",
                  table_with_cell(table, column, value))
    write("csv", "hostile-empty.csv", b"")
    write("csv", "hostile-header-only.csv", "name,price,currency\n")
    write("csv", "hostile-missing-column.csv", "name,price\nRTX 4090,1500\n")
    write("csv", "hostile-extra-cell.csv", "name,price,currency\nRTX 4090,1500,USD,extra\n")
    write("csv", "hostile-unterminated-quote.csv", 'name,price,currency\n"RTX 4090,1500,USD\n')
    write("csv", "hostile-quoted-newline.csv", 'name,price,currency\n"RTX\n4090",1500,USD\n')
    write("csv", "hostile-crlf-bom.csv", b"\xef\xbb\xbfname,price,currency\r\nRTX 4090,1500,USD\r\n")
    write("csv", "hostile-prices-comma-decimal.csv", 'name,price,currency\nRTX 4090,"1500,00",EUR\n')
    write("csv", "hostile-prices-inf-nan.csv", "name,price,currency\nRTX 4090,inf,USD\nRTX 3090,NaN,USD\n")
    write("csv", "hostile-prices-negative.csv", "name,price,currency\nRTX 4090,-1,USD\n")
    write("csv", "hostile-prices-unknown-gpu.csv", "name,price,currency\nNVIDIA GeForce RTX 4090,1500,XYZ\n")
    write("csv", "hostile-latin1-raw.csv", b"name,price,currency\nGeForce caf\xe9,1500,USD\n")
    write("csv", "hostile-binary.csv", bytes(range(256)))
    write("csv", "hostile-nul-bytes.csv", b"name,price\x00,currency\nx\x00,1,USD\n")


# ---- dictionaries: the keys of the real seeds, so libFuzzer writes documents that reach the readers -----------
def keys_of(node, out):
    if isinstance(node, dict):
        for key, value in node.items():
            out.add(key)
            keys_of(value, out)
    elif isinstance(node, list):
        for value in node:
            keys_of(value, out)


def dictionary(name, seeds):
    keys = set()
    for seed in seeds:
        keys_of(json.loads(seed.read_text()), keys)
    tokens = ['"null"', '"true"', '"false"', '"1e999"', '"-1"', '"0.5"', '"18446744073709551616"', '"\\"\\""',
              '"\\\\udce9"', '"{}"', '"[]"']
    tokens += ['"\\"%s\\":"' % key for key in sorted(keys)]
    (ROOT / "fuzz" / f"{name}.dict").write_text(
        f"# libFuzzer dictionary for {name}_fuzzer, written by fuzz/make_corpus.py\n" + "\n".join(tokens) + "\n")


# ---- nesting deeper than the one JSON reader takes (issue 30) ------------------------------------------------------
# 100,000 levels overflowed the stack before the limit; 1,000 reach the refusal as well without making every mutation
# 100 KB long (libFuzzer's -max_len follows the largest seed). tests/unit/json_depth_test.cpp feeds 200,000 levels.
DEEP = 1000


def deep_seeds():
    deep = "[" * DEEP
    for folder, name, content in [
        ("inventory", "hostile-deep-1000.json", '{"schema": "gpuscout.inventory/1", "os": ' + deep),
        ("bench_file", "hostile-deep-1000.json", '{"schema": "gpuscout.bench/1", "notes": ' + deep),
        ("fit_config", "hostile-deep-1000.json", '{"model_type": "llama", "x": ' + "{\"a\": " * DEEP),
        ("safetensors", "hostile-deep-1000.bin", (DEEP + 10).to_bytes(8, "little") + ('{"a": ' + deep).encode()),
        ("fleet_answers", "hostile-deep-1000", "node1: " + '{"schema": "gpuscout.inventory/1", "os": ' + deep + "\n"),
        ("child_answers", "hostile-deep-1000", '{"python": ' + deep),
    ]:
        (CORPUS / folder).mkdir(exist_ok=True)
        write(folder, name, content)
    write("child_answers", "python-probe-minimal", '{"python": {"executable": "/usr/bin/python3", "version": "3.11.2"}}')
    write("child_answers", "toolkit-version", '{"cuda": {"name": "CUDA SDK", "version": "13.0.1"}}')


if __name__ == "__main__":
    deep_seeds()
    inventory_seeds()
    bench_seeds()
    csv_seeds()
    dictionary("inventory", sorted((CORPUS / "inventory").glob("real-*.json")))
    dictionary("bench_file", sorted((CORPUS / "bench_file").glob("real-*.json")))
