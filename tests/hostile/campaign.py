#!/usr/bin/env python3
"""A hostile-input campaign against the real gpuscout binary (issue 30's classes), with counts per class.

Each run draws one case at random (seeded, so a count can be reproduced) from:
  deep      a JSON document nested 129..200,000 levels, to every JSON reader (--from, a fleet file, a pdsh node's
            answer, fit --config, report --bench): exit 2 naming the depth, never a crash
  signal    SIGINT/SIGTERM/SIGHUP/SIGKILL to doctor/info/device at a random moment while the fake Python probe hangs
            with a setsid grandchild: gpuscout ends, and no process of the run is left alive
  env       GPUSCOUT_SYSROOT and GPUSCOUT_PYTHON_TIMEOUT with bad values: exit 2 naming the variable
  deadline  fleet --deadline 5 --slurm with an srun or scontrol that never answers: done within the deadline
  output    report --html to a 200-255 byte name, to a read-only file (with and without --force), and a fleet
            folder whose names hold escape sequences: written, refused or shown as the case asks
Every run is also checked for a crash (a signal gpuscout was not sent), a hang (past 60 s), "internal error", an
exit 2 without a message, and processes left behind (found by a tag in their environment, which every
descendant inherits).

Usage: campaign.py GPUSCOUT SOURCE_DIR [--runs N] [--seed S] [--jobs J]; exits 1 when a run found a defect.
"""
import argparse
import collections
import concurrent.futures
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid

CLASSES = ["deep", "signal", "env", "deadline", "output"]
WEIGHTS = [40, 20, 20, 2, 18]


class Case:
    def __init__(self, gpuscout, source, work, rng):
        self.gpuscout, self.source, self.work, self.rng = gpuscout, source, work, rng
        self.tag = uuid.uuid4().hex
        self.defects = []

    def env(self, extra=None):
        env = {k: v for k, v in os.environ.items()
               if k not in ("GPUSCOUT_SYSROOT", "VIRTUAL_ENV", "CONDA_PREFIX", "GPUSCOUT_PYTHON_TIMEOUT")}
        env.update({"GPUSCOUT_CAMPAIGN_TAG": self.tag, "LANGUAGE": "en", "LC_ALL": "C.UTF-8",
                    "GPUSCOUT_NVML_LIBRARY": "/nonexistent/libnvidia-ml.so.1",
                    "GPUSCOUT_CUDA_LIBRARY": "/nonexistent/libcuda.so.1"})
        env.update(extra or {})
        return env

    def run(self, args, extra_env=None, timeout=60, stdin=subprocess.DEVNULL):
        try:
            r = subprocess.run([self.gpuscout] + args, env=self.env(extra_env), capture_output=True, timeout=timeout,
                               stdin=stdin, cwd=self.work)
        except subprocess.TimeoutExpired:
            self.defects.append(("hang", " ".join(args)[:120]))
            return None
        self.check_result(r, args)
        return r

    def check_result(self, r, args, sent=None):
        what = " ".join(args)[:120]
        if r.returncode < 0 and -r.returncode != sent:
            self.defects.append(("crash", f"signal {-r.returncode}: {what}"))
        err = r.stderr.decode("utf-8", "replace") if isinstance(r.stderr, bytes) else (r.stderr or "")
        if "internal error" in err:
            self.defects.append(("internal-error", what))
        if r.returncode == 2 and not err.strip():
            self.defects.append(("silent-exit-2", what))

    def left_behind(self):
        """Processes of this run still alive (zombies have ended)."""
        needle = f"GPUSCOUT_CAMPAIGN_TAG={self.tag}".encode()
        alive = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as f:
                    if needle not in f.read():
                        continue
                with open(f"/proc/{name}/stat", "rb") as f:
                    state = f.read().rsplit(b")", 1)[1].split()[0]
                if state != b"Z":
                    alive.append(int(name))
            except OSError:
                continue
        return alive

    def expect_no_orphans(self, what, wait=3.0):
        end = time.monotonic() + wait
        while True:
            alive = self.left_behind()
            if not alive:
                return
            if time.monotonic() > end:
                for pid in alive:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                self.defects.append(("orphan", f"{what}: {len(alive)} process(es) left"))
                return
            time.sleep(0.05)


def deep_document(rng, depth):
    shape = rng.choice(["array", "object", "mixed"])
    if shape == "array":
        return "[" * depth + "]" * depth
    if shape == "object":
        return '{"a":' * depth + "1" + "}" * depth
    opens, closes = [], []
    for _ in range(depth):
        if rng.random() < 0.5:
            opens.append("[")
            closes.append("]")
        else:
            opens.append('{"k":')
            closes.append("}")
    return "".join(opens) + "0" + "".join(reversed(closes))


def case_deep(c):
    depth = c.rng.choice([129, 1000, 50000, 200000, c.rng.randint(129, 200000)])
    doc = deep_document(c.rng, depth)
    reader = c.rng.choice(["from", "fleet", "pdsh", "fit-config", "report-bench"])
    path = os.path.join(c.work, "deep.json")
    with open(path, "w") as f:
        f.write(doc)
    if reader == "from":
        r = c.run([c.rng.choice(["doctor", "info", "device", "advise"]), "--from", path])
    elif reader == "fleet":
        folder = os.path.join(c.work, "fleet")
        os.makedirs(folder, exist_ok=True)
        shutil.copy(path, os.path.join(folder, "node1.json"))
        r = c.run(["fleet", folder])
    elif reader == "fit-config":
        r = c.run(["fit", "--config", path])
    elif reader == "report-bench":
        r = c.run(["report", "--bench", path, "--no-python"])
    else:
        bindir = os.path.join(c.work, "bin")
        os.makedirs(bindir, exist_ok=True)
        with open(os.path.join(bindir, "pdsh"), "w") as f:
            f.write(f"#!/bin/sh\nprintf 'node1: ' ; cat '{path}'; echo\n")
        os.chmod(os.path.join(bindir, "pdsh"), 0o755)
        r = c.run(["fleet", "--deadline", "10", "--pdsh", "node1"],
                  {"PATH": bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
        return  # a node's bad answer is a row of the table, not an exit 2: no crash and no hang is the check
    if r is not None and r.returncode != 2:
        c.defects.append(("deep-not-refused", f"{reader} depth {depth}: exit {r.returncode}"))
    elif r is not None and b"levels deep" not in r.stderr:
        c.defects.append(("deep-unclear", f"{reader} depth {depth}: {r.stderr[-200:]!r}"))


def case_signal(c):
    command = c.rng.choice(["doctor", "info", "device"])
    sig = c.rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
    delay = c.rng.uniform(0.02, 1.5)
    escaped = os.path.join(c.work, "escaped")
    env = c.env({"GPUSCOUT_SYSROOT": os.path.join(c.source, "tests/fakes/sysroots/no-gpu-vm"),
                 "PYTHONPATH": os.path.join(c.source, "tests/fakes/python"),
                 "GPUSCOUT_FAKE_TORCH": os.path.join(c.source, "tests/fakes/scenarios/torch/hang.json"),
                 "GPUSCOUT_FAKE_TORCH_ESCAPE": escaped, "GPUSCOUT_PYTHON_TIMEOUT": "60"})
    p = subprocess.Popen([c.gpuscout, command], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, cwd=c.work)
    time.sleep(delay)
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        c.defects.append(("signal-ignored", f"{command} {signal.Signals(sig).name} after {delay:.2f} s"))
        err = b""
    c.check_result(subprocess.CompletedProcess(p.args, p.returncode, b"", err), [command], sent=sig)
    c.expect_no_orphans(f"{command} {signal.Signals(sig).name} after {delay:.2f} s")


def case_env(c):
    if c.rng.random() < 0.5:
        kind = c.rng.choice(["missing", "file", "fifo", "devnull", "escape"])
        if kind == "missing":
            root = os.path.join(c.work, "no-such-machine")
        elif kind == "file":
            root = os.path.join(c.work, "plain")
            open(root, "w").close()
        elif kind == "fifo":
            root = os.path.join(c.work, "fifo")
            os.mkfifo(root)
        elif kind == "devnull":
            root = "/dev/null"
        else:
            root = os.path.join(c.work, "red\x1b[31mroot")
        r = c.run([c.rng.choice(["doctor", "info", "device"])], {"GPUSCOUT_SYSROOT": root})
        if r is not None and r.returncode != 2:
            c.defects.append(("silent-sysroot", f"{kind}: exit {r.returncode}"))
        elif r is not None and b"GPUSCOUT_SYSROOT" not in r.stderr:
            c.defects.append(("unnamed-sysroot", kind))
        if r is not None and b"\x1b" in r.stderr:
            c.defects.append(("escape-reached-terminal", kind))
    else:
        value = c.rng.choice(["abc", "0", "-5", "1e999", "nan", "inf", "", " ", "3601", "5s", "1e-9"])
        r = c.run(["info", "--no-python"], {"GPUSCOUT_PYTHON_TIMEOUT": value})
        if r is not None and r.returncode != 2:
            c.defects.append(("silent-python-timeout", f"{value!r}: exit {r.returncode}"))


def case_deadline(c):
    bindir = os.path.join(c.work, "bin")
    os.makedirs(bindir, exist_ok=True)
    hang = c.rng.choice(["srun", "scontrol"])
    for name in ("srun", "scontrol"):
        with open(os.path.join(bindir, name), "w") as f:
            f.write("#!/bin/sh\nexec sleep 60\n" if name == hang else "#!/bin/sh\nexit 0\n")
        os.chmod(os.path.join(bindir, name), 0o755)
    started = time.monotonic()
    c.run(["fleet", "--deadline", "5", "--slurm"],
          {"PATH": bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin"), "SLURM_JOB_NODELIST": "node[1-2]"})
    took = time.monotonic() - started
    if took > 6.5:
        c.defects.append(("deadline-overrun", f"{hang} hangs: {took:.1f} s for --deadline 5"))
    c.expect_no_orphans(f"fleet --slurm with {hang} hanging")


def case_output(c):
    inventory = os.path.join(c.source, "tests/fakes/inventories/win-laptop-4060.json")
    kind = c.rng.choice(["long-name", "read-only", "read-only-forced", "fleet-names"])
    if kind == "long-name":
        length = c.rng.randint(200, 255)
        path = os.path.join(c.work, "x" * (length - 5) + ".html")
        r = c.run(["report", "--from", inventory, "--html", path])
        if r is not None and (r.returncode != 0 or not os.path.exists(path)):
            c.defects.append(("long-name", f"{length} bytes: exit {r.returncode}: {r.stderr[-160:]!r}"))
        leftovers = [n for n in os.listdir(c.work) if "gpuscout" in n]
        if leftovers:
            c.defects.append(("temporary-left", f"{len(leftovers)} after a {length}-byte name"))
    elif kind.startswith("read-only"):
        path = os.path.join(c.work, "mine.html")
        with open(path, "w") as f:
            f.write("mine\n")
        os.chmod(path, 0o444)
        forced = kind == "read-only-forced"
        r = c.run(["report", "--from", inventory, "--html", path] + (["--force"] if forced else []))
        with open(path) as f:
            content = f.read()
        if r is not None and not forced and (r.returncode != 2 or content != "mine\n"):
            c.defects.append(("read-only-replaced", f"exit {r.returncode}"))
        if r is not None and forced and (r.returncode != 0 or content == "mine\n"):
            c.defects.append(("force-ignored", f"exit {r.returncode}"))
    else:
        folder = os.path.join(c.work, "fleet")
        os.makedirs(folder, exist_ok=True)
        hostile = c.rng.choice(["\x1b[31m", "\x1b]0;title\x07", "\n", "\r", "\x9b", "\x7f", "\x1b[2J"])
        shutil.copy(inventory, os.path.join(folder, f"node{hostile}1.json"))
        with open(os.path.join(folder, f"bad{hostile}.json"), "w") as f:
            f.write("{ broken")
        r = c.run(["fleet", folder])
        if r is not None:
            shown = r.stdout + r.stderr
            raw = hostile.encode("utf-8", "surrogateescape")
            if hostile not in ("\n",) and raw in shown:
                c.defects.append(("control-reached-terminal", repr(hostile)))


def one_run(gpuscout, source, seed):
    rng = random.Random(seed)
    kind = rng.choices(CLASSES, WEIGHTS)[0]
    with tempfile.TemporaryDirectory(prefix="gpuscout-hostile-") as work:
        c = Case(gpuscout, source, work, rng)
        globals()["case_" + kind](c)
        if kind != "signal":
            c.expect_no_orphans(kind, wait=1.0)
        for root, dirs, _ in os.walk(work):
            for d in dirs:
                os.chmod(os.path.join(root, d), stat.S_IRWXU)
    return kind, c.defects


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gpuscout")
    parser.add_argument("source")
    parser.add_argument("--runs", type=int, default=200)
    # By default the day's date: the sample moves over the cases day by day, and the seed printed reproduces a run.
    parser.add_argument("--seed", type=int, default=int(time.strftime("%Y%m%d")))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runs = collections.Counter()
    defects = collections.defaultdict(list)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one_run, os.path.abspath(args.gpuscout), os.path.abspath(args.source),
                               args.seed * 1000003 + i) for i in range(args.runs)]
        for future in concurrent.futures.as_completed(futures):
            kind, found = future.result()
            runs[kind] += 1
            for defect in found:
                defects[kind].append(defect)
    print(f"hostile campaign: {args.runs} runs, seed {args.seed}")
    for kind in CLASSES:
        kinds = collections.Counter(d[0] for d in defects[kind])
        detail = ", ".join(f"{k} {n}" for k, n in kinds.items()) or "none"
        print(f"  {kind:9} {runs[kind]:5} runs, defects: {detail}")
        for d in defects[kind][:5]:
            print(f"      {d[0]}: {d[1]}")
    return 1 if any(defects.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
