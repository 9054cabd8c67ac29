// `bench --torch`: the plan, the script, reading its answer, and running it in the user's interpreter.
#include "bench/torch_bench.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/run.hpp"
#include "core/i18n.hpp"
#include "core/json.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "inventory/cpu_count.hpp"
#include "os/process.hpp"

namespace gpuscout::bench {
namespace {

// Python 3 (every PyTorch needs it). One line per finished case, flushed at once: a run killed at its deadline
// keeps what it measured. Inputs come from torch.randn on the device with a fixed seed; the accuracy check
// compares 8 rows of C with the same product in fp64, as gpuscout's own GEMMs do (max |C - C64| / (|A| |B|)).
// `-c` puts the working directory first on sys.path (a folder named torch/ there would be imported): dropped.
constexpr std::string_view kTorchBenchScript = R"PY(
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
import json, time
plan = json.loads(sys.argv[1])
began = time.perf_counter()
deadline = began + float(plan["deadline_s"])
def emit(kind, obj):
    sys.stdout.write("\nGPUSCOUT_TORCH_%s %s\n" % (kind, json.dumps(obj)))
    sys.stdout.flush()
try:
    import torch
except BaseException as e:
    emit("ERROR", {"error": "%s: %s" % (type(e).__name__, e)})
    sys.exit(0)
def tf32_setting():
    try:
        return bool(torch.backends.cuda.matmul.allow_tf32)
    except Exception:
        return None
emit("INFO", {"allow_tf32": tf32_setting()})
dtypes = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
method = plan["method"]
def set_tf32(on):
    try:
        torch.backends.cuda.matmul.allow_tf32 = on
    except Exception:
        pass
def rel_error(a, b, c):
    rows = min(8, a.shape[0])
    a64, b64 = a[:rows].double(), b.double()
    scale = (a64.abs() @ b64.abs()).clamp_min(1e-300)
    return float(((c[:rows].double() - a64 @ b64).abs() / scale).max().item())
def unsupported(device, name):
    if device == "cpu":
        return None
    if name == "tf32" and getattr(torch.version, "hip", None):
        return "tf32-rocm"
    major = torch.cuda.get_device_capability(device)[0]
    if name in ("tf32", "bf16") and major < 8 and not getattr(torch.version, "hip", None):
        return "needs-sm80"
    return None
# The GPU side is timed as gpuscout's plugin times its own GEMMs (docs/bench.md, "One timing method"): each sample
# is CALLS back-to-back products between one CUDA event pair, sized from the last warm-up so that a sample lasts
# about 10 ms (at most 128 calls), after an L2 flush (a memset of max(2 x L2, 32 MiB)), queued behind a short GPU
# spin where this PyTorch has one (the plugin's latch), and the sample is the mean time per call.
SAMPLE_TARGET_S, MAX_CALLS = 0.01, 128
def calls_per_sample(call_s):
    if not call_s > 0:
        return 1
    want = SAMPLE_TARGET_S / call_s
    return MAX_CALLS if want >= MAX_CALLS else max(1, int(want + 0.999999))
def l2_flush(device):
    try:
        l2 = int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0))
    except Exception:
        l2 = 0
    try:
        buf = torch.empty(max(2 * l2, 32 << 20), dtype=torch.uint8, device=device)
    except Exception:
        return lambda sample: None
    return lambda sample: buf.fill_(sample & 0xff)
def latch():
    spin = getattr(torch.cuda, "_sleep", None)
    if spin is None or getattr(torch.version, "hip", None):
        return lambda: None
    return lambda: spin(2000000)
def timed_gpu(a, b, calls, flush, hold, sample):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    flush(sample)
    hold()
    start.record()
    for _ in range(calls):
        c = a @ b
    end.record()
    end.synchronize()
    return c, start.elapsed_time(end) / 1000.0 / calls
def timed_cpu(a, b):
    t = time.perf_counter()
    c = a @ b
    return c, time.perf_counter() - t
def last_warmup_s(a, b):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    c = a @ b
    end.record()
    end.synchronize()
    return c, start.elapsed_time(end) / 1000.0
def measure(device, name, n):
    torch.manual_seed(n)
    set_tf32(name == "tf32")
    a = torch.randn(n, n, device=device).to(dtypes[name])
    b = torch.randn(n, n, device=device).to(dtypes[name])
    gpu = device != "cpu"
    sync = (lambda: torch.cuda.synchronize(device)) if gpu else (lambda: None)
    sync()
    t = time.perf_counter()
    c = a @ b
    sync()
    first = time.perf_counter() - t
    warmups = max(2, int(method["warmup"])) if gpu else int(method["warmup"])
    for _ in range(warmups - 2 if gpu else warmups - 1):
        c = a @ b
    calls, flush, hold = 1, None, None
    if gpu:
        c, call_s = last_warmup_s(a, b)
        calls, flush, hold = calls_per_sample(call_s), l2_flush(device), latch()
    sync()
    samples, total = [], 0.0
    while len(samples) < int(method["max_repeats"]) and time.perf_counter() < deadline and (
            len(samples) < int(method["min_repeats"]) or total < float(method["budget_s"])):
        c, s = timed_gpu(a, b, calls, flush, hold, len(samples)) if gpu else timed_cpu(a, b)
        samples.append(s)
        total += s * calls
    try:
        err = rel_error(a, b, c)
    except Exception:
        err = None
    return {"first_s": first, "warmups": warmups, "samples_s": samples, "rel_error": err, "calls_per_sample": calls}
def run(device, name, n):
    case = {"device": device, "dtype": name, "n": n}
    if time.perf_counter() >= deadline:
        case["skipped"] = "deadline"
        return case
    try:
        why = unsupported(device, name)
        if why:
            case["skipped"] = why
        else:
            case.update(measure(device, name, n))
    except BaseException as e:
        case["error"] = ("%s: %s" % (type(e).__name__, e))[:300]
        if isinstance(e, KeyboardInterrupt):
            raise
    finally:
        set_tf32(tf32_setting_at_start)
        if device != "cpu":
            try:
                torch.cuda.empty_cache()
            except Exception:
                pass
    return case
tf32_setting_at_start = bool(tf32_setting())
for name, n in plan["cpu"]:
    emit("CASE", run("cpu", name, n))
gpus = torch.cuda.device_count() if plan["gpu"] and torch.cuda.is_available() else 0
for i in range(gpus):
    with torch.cuda.device(i):
        for name, n in plan["gpu"]:
            emit("CASE", run("cuda:%d" % i, name, n))
emit("DONE", {"seconds": time.perf_counter() - began})
)PY";

using nlohmann::json;

constexpr size_t kMaxCases = 256;
constexpr size_t kMaxSamples = 1000;

std::optional<double> finite_at(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

std::string text_at(const json& j, const char* key, size_t limit) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return {};
  std::string_view v = it->get_ref<const std::string&>();
  return text::clean_utf8(v.substr(0, limit));
}

// One GPUSCOUT_TORCH_CASE object; nullopt when it is not one (then it is ignored, not trusted).
std::optional<TorchCase> read_case(const json& j) {
  if (!j.is_object()) return std::nullopt;
  TorchCase c;
  c.device = text_at(j, "device", 16);
  const auto dtype = parse_dtype(text_at(j, "dtype", 8));
  const auto n = j.find("n");
  if (!is_torch_device(c.device) || !dtype || n == j.end() || !n->is_number_integer()) return std::nullopt;
  if (n->get<long long>() < 1 || n->get<long long>() > kMaxSize) return std::nullopt;
  c.dtype = *dtype;
  c.n = static_cast<int>(n->get<long long>());
  c.error = text_at(j, "error", 300);
  if (const auto skipped = text_at(j, "skipped", 16); skipped == "deadline" || skipped == "tf32-rocm" ||
                                                      skipped == "needs-sm80")
    c.skipped = skipped;
  else if (!skipped.empty() && c.error.empty())
    c.error = skipped;
  c.m.first_call_s = finite_at(j, "first_s").value_or(0);
  if (const auto w = j.find("warmups"); w != j.end() && w->is_number_integer())
    c.m.warmups = static_cast<int>(std::clamp<long long>(w->get<long long>(), 0, 100));
  if (const auto s = j.find("samples_s"); s != j.end() && s->is_array())
    for (const auto& v : *s)
      if (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0 && c.m.samples_s.size() < kMaxSamples)
        c.m.samples_s.push_back(v.get<double>());
  c.m.stats = summarize(c.m.samples_s);
  c.rel_error = finite_at(j, "rel_error");
  if (c.error.empty() && c.skipped.empty() && c.m.samples_s.empty()) c.skipped = "deadline";
  if (c.m.stats.median_s > 0) c.gflops = 2.0 * std::pow(static_cast<double>(c.n), 3) / c.m.stats.median_s / 1e9;
  c.ok = c.error.empty() && c.skipped.empty() && c.rel_error && *c.rel_error <= rel_error_bound(c.dtype);
  return c;
}

// The last non-empty line of another program's error output, cleaned and cut.
std::string last_line(std::string_view err) {
  std::string_view last;
  for (std::string_view line : text::split(err, '\n'))
    if (!text::trim(line).empty()) last = text::trim(line);
  return text::clean_utf8(last.substr(0, 300));
}

}  // namespace

bool is_torch_device(std::string_view device) {
  if (device == "cpu") return true;
  if (!device.starts_with("cuda:")) return false;
  const auto digits = device.substr(5);
  return !digits.empty() && digits.size() <= 4 &&
         std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

std::string_view torch_bench_script() { return kTorchBenchScript; }

TorchPlan torch_plan(const BenchOptions& options, int cuda_devices) {
  TorchPlan plan;
  plan.method = options.full ? Method{2, 5, 50, 2.0} : Method{1, 3, 20, 1.0};
  const auto wanted = [&](Dtype d) {
    return !options.dtypes || std::find(options.dtypes->begin(), options.dtypes->end(), d) != options.dtypes->end();
  };
  if (options.run_cpu && wanted(Dtype::fp32)) plan.cpu.emplace_back(Dtype::fp32, options.size.value_or(5000));
  if (options.run_gpu && cuda_devices > 0) {
    for (Dtype d : {Dtype::fp32, Dtype::tf32, Dtype::fp16, Dtype::bf16}) {
      if (!wanted(d)) continue;
      const auto sizes = gpu_gemm_sizes(options, d);
      if (d == Dtype::fp32 && !options.size) plan.gpu.emplace_back(d, 5000);  // the lesson's own size
      if (!sizes.empty() && (options.size || sizes.back() != 5000)) plan.gpu.emplace_back(d, sizes.back());
    }
  }
  return plan;
}

std::string plan_json(const TorchPlan& plan) {
  json j;
  const auto cases = [](const std::vector<std::pair<Dtype, int>>& v) {
    json a = json::array();
    for (const auto& [d, n] : v) a.push_back(json::array({std::string(dtype_name(d)), n}));
    return a;
  };
  j["cpu"] = cases(plan.cpu);
  j["gpu"] = cases(plan.gpu);
  j["method"] = {{"warmup", plan.method.warmup},
                 {"min_repeats", plan.method.min_repeats},
                 {"max_repeats", plan.method.max_repeats},
                 {"budget_s", plan.method.budget_s}};
  j["deadline_s"] = plan.deadline_s;
  return j.dump();
}

bool parse_torch_output(std::string_view output, TorchBench& out) {
  bool done = false;
  for (std::string_view line : text::split(output, '\n')) {
    const auto value = [&](std::string_view tag) -> std::optional<json> {
      if (!line.starts_with(tag)) return std::nullopt;
      auto parsed = core::parse_json(text::clean_utf8(line.substr(tag.size())));
      if (!parsed) return std::nullopt;
      return std::move(*parsed);
    };
    if (auto j = value("GPUSCOUT_TORCH_CASE ")) {
      if (auto c = read_case(*j); c && out.cases.size() < kMaxCases) out.cases.push_back(std::move(*c));
    } else if (auto e = value("GPUSCOUT_TORCH_ERROR ")) {
      out.error = e->is_object() ? text_at(*e, "error", 300) : std::string();
      if (out.error.empty()) out.error = "import torch failed";
      done = true;
    } else if (auto i = value("GPUSCOUT_TORCH_INFO ")) {
      if (const auto t = i->find("allow_tf32"); i->is_object() && t != i->end() && t->is_boolean())
        out.allow_tf32_default = t->get<bool>();
    } else if (value("GPUSCOUT_TORCH_DONE ")) {
      done = true;
    }
  }
  return done;
}

std::chrono::milliseconds default_torch_timeout(bool full, const Inventory& inventory) {
  const int gpus = inventory.torch && inventory.torch->cuda_available ? inventory.torch->device_count : 0;
  const auto per_gpu = std::chrono::minutes(full ? 3 : 1);
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::minutes(full ? 10 : 2) +
                                                               per_gpu * std::min(gpus, 64));
}

TorchBench run_torch_bench(const BenchOptions& options, const Inventory& inventory, std::chrono::milliseconds timeout) {
  TorchBench out;
  out.python = inventory.python.executable.value_or("");
  out.usable_cpus = usable_cpu_count(inventory.cpu);
  if (inventory.python.error && !inventory.torch) {
    out.error = inventory.python.error->message;
    return out;
  }
  if (!inventory.torch || out.python.empty()) {
    out.error = trf("PyTorch is not installed for {}: `gpuscout doctor` gives the command that installs the right "
                    "build for this machine",
                    out.python.empty() ? std::string("python3") : out.python);
    return out;
  }
  const auto& t = *inventory.torch;
  out.version = t.version;
  out.cuda = t.cuda;
  out.debug = t.debug;
  out.num_threads = t.num_threads;
  out.blas = t.blas;
  out.cpu_capability = t.cpu_capability;
  TorchPlan plan = torch_plan(options, t.cuda_available ? t.device_count : 0);
  // The script stops starting cases well before the child is killed, so it can still say what it measured.
  plan.deadline_s = std::max(5.0, 0.8 * static_cast<double>(timeout.count()) / 1000.0);
  const auto started = std::chrono::steady_clock::now();
  auto child = os::spawn({out.python, "-c", std::string(kTorchBenchScript), plan_json(plan)}, timeout);
  if (!child) {
    out.error = child.error().message;
    return out;
  }
  const auto r = child->wait();
  throw_if_stopped();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.timed_out = r.timed_out;
  if (r.timed_out)
    out.error = trf("PyTorch did not finish within {:.0f} s and was stopped (--timeout sets the limit)",
                    static_cast<double>(timeout.count()) / 1000.0);
  if (!parse_torch_output(r.out, out) && out.error.empty()) {
    // It died on the way: Python's last words (a traceback's final line) say why better than we can.
    const auto words = last_line(r.err);
    out.error = words.empty() ? trf("PyTorch's benchmark ended without finishing (exit code {})", r.exit_code)
                              : trf("PyTorch's benchmark ended without finishing: {}", words);
  }
  return out;
}

}  // namespace gpuscout::bench
