#!/usr/bin/env python3
"""Measures the GPU memory real PyTorch runs use and prints `gpuscout fit`'s figure beside each, with the error.

Each case runs in a fresh Python process (so PYTORCH_CUDA_ALLOC_CONF takes effect and nothing is left cached from
the case before): the model is built from a config.json in configs/ with random weights (no download), then
  infer: `generate` of 16 new tokens after a prompt filling the context, bf16 weights, no gradients;
  train: three AdamW steps under torch.autocast(bf16) on fp32 weights, labels = inputs, batch 1.
"Device used" is what the card has in use afterwards (cudaMemGetInfo total - free): the CUDA context, the caching
allocator's reserve and what lives in it; torch's allocated and reserved peaks are printed beside it. gpuscout's
figure is its breakdown without the memory it leaves free (`fit --config ... --gpu NAME --json`), for the card
this runs on when the catalogue knows it. The cases of cases.csv named h200-* were measured with this script.
Needs torch with CUDA and transformers. Usage: bench/fit_accuracy/measure.py GPUSCOUT [--json FILE] [--only ID]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [  # id, config, mode, context, gradient checkpointing, expandable segments
    ("qwen2.5-0.5b-generate-4k", "qwen2.5-0.5b", "infer", 4096, False, False),
    ("qwen2.5-7b-generate-4k", "qwen2.5-7b", "infer", 4096, False, False),
    ("qwen2.5-7b-generate-32k", "qwen2.5-7b", "infer", 32768, False, False),
    ("qwen2.5-1.5b-train-2k", "qwen2.5-1.5b", "train", 2048, False, False),
    ("qwen2.5-1.5b-train-ckpt-2k", "qwen2.5-1.5b", "train", 2048, True, False),
    ("tinyllama-1.1b-train-ckpt-2k", "tinyllama-1.1b", "train", 2048, True, False),
    ("qwen2.5-1.5b-train-expandable", "qwen2.5-1.5b", "train", 2048, False, True),
]
GIB = 2 ** 30
NEW_TOKENS = 16


def run_case(config, mode, context, checkpointing):
    """The child's side: one case, its figures as one JSON line."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    torch.zeros(1, device="cuda")
    cfg = AutoConfig.from_pretrained(os.path.join(HERE, "configs", config + ".json"))
    dtype = torch.bfloat16 if mode == "infer" else torch.float32
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(cfg, dtype=dtype)
        except TypeError:  # transformers before 4.56 names it torch_dtype
            model = AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype)
    torch.cuda.reset_peak_memory_stats()
    started = time.time()
    if mode == "infer":
        model.eval()
        ids = torch.randint(0, cfg.vocab_size, (1, context - NEW_TOKENS), device="cuda")
        with torch.no_grad():
            model.generate(ids, max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS, do_sample=False)
    else:
        model.train()
        if checkpointing:
            model.gradient_checkpointing_enable()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
        ids = torch.randint(0, cfg.vocab_size, (1, context), device="cuda")
        for _ in range(3):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    print(json.dumps({"device_used_gib": (total - free) / GIB,
                      "allocated_peak_gib": torch.cuda.max_memory_allocated() / GIB,
                      "reserved_peak_gib": torch.cuda.max_memory_reserved() / GIB,
                      "seconds": time.time() - started, "torch": torch.__version__,
                      "gpu": torch.cuda.get_device_name(0)}))


def gpuscout_gib(binary, gpu, config, mode, context, checkpointing, expandable):
    args = [binary, "fit", "--config", os.path.join(HERE, "configs", config + ".json"), "--context", str(context),
            "--json"]
    if mode == "train":
        args += ["--mode", "train"] + (["--grad-checkpointing"] if checkpointing else [])
        args += ["--expandable-segments"] if expandable else []
    p = subprocess.run(args + ["--gpu", gpu], capture_output=True, text=True)
    if p.returncode != 0:  # a card the catalogue does not know: no card-specific CUDA context
        p = subprocess.run(args + ["--vram", "1T"], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    b = json.loads(p.stdout)["breakdown"]
    return sum(v for k, v in b.items() if k != "kept_free_bytes") / GIB


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("gpuscout", nargs="?")
    a = ap.parse_args()
    if a.case:
        config, mode, context, checkpointing = a.case
        return run_case(config, mode, int(context), checkpointing == "1")
    if not a.gpuscout:
        ap.error("give the gpuscout binary")
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout.splitlines()[0].strip()
    rows, worst = [], 0.0
    print(f"{'case':32} {'device used':>12} {'allocated':>10} {'reserved':>9} {'gpuscout':>9} {'error':>8}")
    for cid, config, mode, context, ckpt, expandable in CASES:
        if a.only and a.only != cid:
            continue
        env = dict(os.environ)
        env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
        if expandable:
            env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
        p = subprocess.run([sys.executable, __file__, "--case", config, mode, str(context), "1" if ckpt else "0"],
                           capture_output=True, text=True, env=env, timeout=600)
        try:
            real = json.loads(p.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            print(f"{cid:32} failed: {p.stderr.strip()[-300:]}")
            continue
        ours = gpuscout_gib(a.gpuscout, gpu, config, mode, context, ckpt, expandable)
        err = 100 * (ours - real["device_used_gib"]) / real["device_used_gib"] if ours else None
        worst = max(worst, abs(err)) if err is not None else worst
        rows.append({"case": cid, **real, "gpuscout_gib": ours, "error_pct": err})
        print(f"{cid:32} {real['device_used_gib']:9.2f} GiB {real['allocated_peak_gib']:10.2f} "
              f"{real['reserved_peak_gib']:9.2f} {ours or float('nan'):9.2f} "
              f"{'' if err is None else f'{err:+7.1f}%'}")
    print(f"worst error {worst:.1f}% (target: within 10% of device used); {gpu}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if rows and worst <= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
