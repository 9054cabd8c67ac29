// Python and PyTorch, asked (not imported): the interpreter runs a short script as a child process with an
// argument vector and a deadline, concurrently with the other probes.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/json.hpp"
#include "core/json_position.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {

namespace {

// Prints one line "GPUSCOUT_PROBE <json>" so anything torch prints on import cannot corrupt the result.
// Written for Python 2.7 and 3 alike, so an old interpreter still says what it is. `-c` puts the working
// directory first on sys.path, where a folder named torch/ or a json.py would be imported instead of the real
// ones: the script drops that entry before its first import (sys is built in). Isolated mode (-I) would too,
// but it also hides PYTHONPATH and `pip install --user` packages, which the user's own scripts do import.
constexpr std::string_view kPythonProbeScript = R"PY(
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
import json, os, warnings
out = {"python": sys.version.split()[0], "executable": sys.executable}
def attempt(fn, default=None):
    try:
        return fn()
    except Exception:
        return default
base = getattr(sys, "real_prefix", None) or getattr(sys, "base_prefix", sys.prefix)
out["in_venv"] = sys.prefix != base
def stdlib_marker():
    import sysconfig
    return os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
out["externally_managed_marker"] = attempt(stdlib_marker)
def installer_facts():
    # What installs into this interpreter: pip itself, ensurepip (what `-m venv` seeds pip from; Debian and Ubuntu
    # move it into python3-venv), and the tool that made the environment (uv's venvs have no pip).
    import importlib.util
    out["has_pip"] = importlib.util.find_spec("pip") is not None
    out["has_ensurepip"] = importlib.util.find_spec("ensurepip") is not None
    if os.path.isdir(os.path.join(sys.prefix, "conda-meta")):
        out["environment_tool"] = "conda"
    elif os.path.isfile(os.path.join(sys.prefix, "pyvenv.cfg")):  # a regular file: never a FIFO that blocks
        with open(os.path.join(sys.prefix, "pyvenv.cfg")) as cfg:
            for cfg_line in cfg.read(65536).splitlines():
                if cfg_line.split("=")[0].strip() == "uv":
                    out["environment_tool"] = "uv"
attempt(installer_facts)
def build_facts():
    import platform
    out["build"] = " ".join(sys.version.split())[:200]
    out["implementation"] = platform.python_implementation()
    libc = platform.libc_ver()
    if libc and libc[0]:
        out["libc"] = "%s %s" % (libc[0], libc[1])
attempt(build_facts)
def packages():
    # importlib.metadata reads the installed metadata files: no pip subprocess. Bounded: 64 wanted, 5000 looked at.
    from importlib import metadata
    found, looked = {}, 0
    for d in metadata.distributions():
        looked += 1
        if looked > 5000 or len(found) >= 64:
            break
        name = str(d.metadata.get("Name") or "").lower().replace("_", "-")
        if name in ("numpy", "torchvision", "torchaudio", "triton") or name.startswith("nvidia-"):
            found.setdefault(name, str(d.version))
    return [{"name": k, "version": found[k]} for k in sorted(found)]
out["packages"] = attempt(packages, [])
def missing_torch(e):
    if type(e).__name__ == "ModuleNotFoundError":
        return getattr(e, "name", None) == "torch"
    return sys.version_info[0] < 3 and str(e) == "No module named torch"
try:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import torch
        t = {"version": str(getattr(torch, "__version__", "unknown"))}
        v = getattr(torch, "version", None)
        t["cuda"] = getattr(v, "cuda", None) if v else None
        t["hip"] = getattr(v, "hip", None) if v else None
        t["cuda_available"] = bool(attempt(lambda: torch.cuda.is_available(), False))
        t["device_count"] = int(attempt(lambda: torch.cuda.device_count(), 0) or 0)
        t["arch_list"] = list(attempt(lambda: torch.cuda.get_arch_list(), []) or [])
        t["cudnn"] = attempt(lambda: torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None)
        t["mps_available"] = attempt(lambda: bool(torch.backends.mps.is_available()))
        t["xpu_available"] = attempt(lambda: bool(torch.xpu.is_available()) if hasattr(torch, "xpu") else None)
        devices = []
        if t["cuda_available"]:
            for i in range(t["device_count"]):
                p = attempt(lambda: torch.cuda.get_device_properties(i))
                if p is None:
                    continue
                devices.append({"index": i, "name": str(p.name), "capability": "%d.%d" % (p.major, p.minor),
                                "total_memory_bytes": int(p.total_memory),
                                "multi_processor_count": int(getattr(p, "multi_processor_count", 0))})
        t["devices"] = devices
        debug = getattr(v, "debug", None) if v else None
        t["debug"] = debug if isinstance(debug, bool) else None
        t["cpu_capability"] = attempt(lambda: str(torch.backends.cpu.get_cpu_capability()))
        t["config"] = attempt(lambda: str(torch.__config__.show())[:8000])
        t["num_threads"] = attempt(lambda: int(torch.get_num_threads()))
        t["num_interop_threads"] = attempt(lambda: int(torch.get_num_interop_threads()))
    t["warnings"] = [str(w.message) for w in caught][:20]
    out["torch"] = t
except ImportError as e:
    if missing_torch(e):
        out["torch"] = None
    else:
        out["torch_error"] = "%s: %s" % (type(e).__name__, e)
except BaseException as e:
    out["torch_error"] = "%s: %s" % (type(e).__name__, e)
sys.stdout.flush()
if sys.version_info[0] < 3:
    try:
        line = json.dumps(out)
    except Exception:  # a path that is not UTF-8: the version still counts
        line = json.dumps({"python": out["python"]})
    sys.stdout.write("\nGPUSCOUT_PROBE " + line + "\n")
else:
    # Raw UTF-8, not \u escapes: a path or name that is not UTF-8 (a lone surrogate from surrogateescape) would
    # make the escaped line invalid JSON; as raw bytes gpuscout cleans it to U+FFFD and keeps the rest.
    line = json.dumps(out, ensure_ascii=False)
    try:
        data = line.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = line.encode("utf-8", "replace")
    sys.stdout.buffer.write(b"\nGPUSCOUT_PROBE " + data + b"\n")
sys.stdout.flush()
)PY";

}  // namespace

std::string_view python_probe_script() { return kPythonProbeScript; }

namespace {

using nlohmann::json;

// Every string the script reports is another program's text: cleaned here (escapes such as \u0000 or \u001b
// survive the line's own cleaning, since JSON decodes them only now).
std::optional<std::string> text_at(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return text::clean_utf8(it->get_ref<const std::string&>());
}

std::optional<long long> count_at(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer() || it->get<long long>() < 0) return std::nullopt;
  return it->get<long long>();
}

std::optional<bool> flag_at(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

std::vector<std::string> texts_at(const json& j, const char* key) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(text::clean_utf8(v.get_ref<const std::string&>()));
  return out;
}

// torch.version.cuda / .hip must parse (diagnose compares them); anything else is kept as a warning.
std::optional<std::string> version_at(const json& t, const char* key, TorchInfo& info) {
  auto v = text_at(t, key);
  if (v && !Version::parse(*v)) {
    info.warnings.push_back(fmt::format("torch.version.{} is '{}', not a version", key, *v));
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> cudnn_version(const json& t) {
  // 8902 -> 8.9.2 (cuDNN 8), 90100 -> 9.1.0 (cuDNN 9 encodes major*10000 + minor*100 + patch). ROCm builds
  // answer with MIOpen's version, major*1000000 + minor*1000 + patch (3002000 -> 3.2.0).
  const auto v = count_at(t, "cudnn");
  if (!v || *v <= 0) return std::nullopt;
  if (text_at(t, "hip")) return fmt::format("{}.{}.{}", *v / 1000000, (*v / 1000) % 1000, *v % 1000);
  if (*v >= 10000) return fmt::format("{}.{}.{}", *v / 10000, (*v / 100) % 100, *v % 100);
  return fmt::format("{}.{}.{}", *v / 1000, (*v / 100) % 10, *v % 100);
}

/// Another program's short text, cut to `limit` bytes (a cut UTF-8 sequence becomes U+FFFD).
std::optional<std::string> short_text_at(const json& j, const char* key, size_t limit) {
  auto v = text_at(j, key);
  if (v && v->size() > limit) *v = text::clean_utf8(std::string_view(*v).substr(0, limit));
  if (v && text::trim(*v).empty()) return std::nullopt;
  return v;
}

/// A thread count: torch answers 1 to a few thousand; anything else is not believed.
std::optional<int> threads_at(const json& t, const char* key) {
  const auto v = count_at(t, key);
  if (!v || *v < 1 || *v > 1 << 16) return std::nullopt;
  return static_cast<int>(*v);
}

/// A name such as "AVX2", "open" or "mkl": letters, digits and _.+- only, at most 32 of them.
std::optional<std::string> token(std::string_view s) {
  s = text::trim(s);
  if (s.empty() || s.size() > 32) return std::nullopt;
  for (const char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '+' && ch != '-')
      return std::nullopt;
  return std::string(s);
}

std::vector<PythonPackage> packages_at(const json& doc) {
  std::vector<PythonPackage> out;
  const auto it = doc.find("packages");
  if (it == doc.end() || !it->is_array()) return out;
  for (const auto& p : *it) {
    if (out.size() >= 64) break;
    if (!p.is_object()) continue;
    auto name = short_text_at(p, "name", 80);
    auto version = short_text_at(p, "version", 64);
    if (name && version) out.push_back({std::move(*name), std::move(*version)});
  }
  return out;
}

TorchDevice torch_device(const json& d) {
  TorchDevice dev;
  dev.index = static_cast<int>(std::min<long long>(count_at(d, "index").value_or(0), 1 << 20));
  dev.name = text_at(d, "name").value_or("");
  // "%d.%d" in the script; checked anyway, since --from refuses any other form.
  if (auto cc = text_at(d, "capability"); cc && is_compute_capability(*cc)) dev.capability = cc;
  if (auto bytes = count_at(d, "total_memory_bytes")) dev.total_memory_bytes = static_cast<uint64_t>(*bytes);
  if (auto sms = count_at(d, "multi_processor_count"); sms && *sms <= 1 << 20)
    dev.multi_processor_count = static_cast<int>(*sms);
  return dev;
}

TorchInfo torch_info(const json& t) {
  TorchInfo info;
  info.version = text_at(t, "version").value_or("unknown");
  info.cuda = version_at(t, "cuda", info);
  info.hip = version_at(t, "hip", info);
  info.cuda_available = flag_at(t, "cuda_available").value_or(false);
  info.device_count = static_cast<int>(std::min<long long>(count_at(t, "device_count").value_or(0), 1 << 20));
  info.arch_list = texts_at(t, "arch_list");
  info.cudnn_version = cudnn_version(t);
  info.mps_available = flag_at(t, "mps_available");
  info.xpu_available = flag_at(t, "xpu_available");
  if (const auto devices = t.find("devices"); devices != t.end() && devices->is_array())
    for (const auto& d : *devices)
      if (d.is_object()) info.devices.push_back(torch_device(d));
  for (auto& w : texts_at(t, "warnings")) info.warnings.push_back(std::move(w));
  info.debug = flag_at(t, "debug");
  const std::string config = text_at(t, "config").value_or("");
  const auto from_config = parse_torch_config(config);
  const auto capability = text_at(t, "cpu_capability");
  info.cpu_capability = capability ? token(*capability) : std::nullopt;
  if (!info.cpu_capability) info.cpu_capability = from_config.cpu_capability;
  info.blas = from_config.blas;
  info.lapack = from_config.lapack;
  info.num_threads = threads_at(t, "num_threads");
  info.num_interop_threads = threads_at(t, "num_interop_threads");
  return info;
}

}  // namespace

TorchConfig parse_torch_config(std::string_view show) {
  // "  - CPU capability usage: AVX2" on its own line; "BLAS_INFO=open, ..." inside the "Build settings:" line.
  const auto value_after = [&](std::string_view marker, std::string_view ends) -> std::optional<std::string> {
    const auto pos = show.find(marker);
    if (pos == std::string_view::npos) return std::nullopt;
    auto rest = show.substr(pos + marker.size());
    return token(rest.substr(0, rest.find_first_of(ends)));
  };
  return TorchConfig{value_after("CPU capability usage:", "\n"), value_after("BLAS_INFO=", ",\n"),
                     value_after("LAPACK_INFO=", ",\n")};
}

void parse_python_probe_output(std::string_view output, PythonInfo& python, std::optional<TorchInfo>& torch) {
  const auto pos = output.rfind("GPUSCOUT_PROBE ");
  if (pos == std::string_view::npos) {
    python.error = ProbeError{"python", "probe script", "no result from the Python probe", std::nullopt};
    return;
  }
  auto line = output.substr(pos + 15);
  line = line.substr(0, line.find('\n'));
  // Cleaned first: a non-UTF-8 byte in one path or name must not lose the whole result.
  auto parsed = core::parse_json(text::clean_utf8(line));
  if (!parsed) {
    python.error = ProbeError{"python", "probe script", text::clean_utf8("unreadable result: " + parsed.error().message),
                              std::nullopt};
    return;
  }
  const json doc = std::move(*parsed);
  if (!doc.is_object()) {
    python.error = ProbeError{"python", "probe script", "unreadable result: not a JSON object", std::nullopt};
    return;
  }
  python.version = text_at(doc, "python");
  python.executable = text_at(doc, "executable");
  python.in_venv = flag_at(doc, "in_venv");
  python.has_pip = flag_at(doc, "has_pip");
  python.has_ensurepip = flag_at(doc, "has_ensurepip");
  if (const auto tool = short_text_at(doc, "environment_tool", 16); tool == "uv" || tool == "conda")
    python.environment_tool = tool;
  python.build = short_text_at(doc, "build", 200);
  python.implementation = short_text_at(doc, "implementation", 32);
  python.libc = short_text_at(doc, "libc", 64);
  python.packages = packages_at(doc);
  // PEP 668: installers ignore the marker inside a venv, whose stdlib folder is still the base interpreter's.
  if (const auto marker = flag_at(doc, "externally_managed_marker"))
    python.externally_managed = *marker && !python.in_venv.value_or(false);
  if (doc.contains("torch_error")) {
    python.torch_installed = true;  // it is there but does not import: a broken install
    python.error = ProbeError{"python", "import torch", text_at(doc, "torch_error").value_or("import failed"),
                              std::nullopt};
    return;
  }
  const auto t = doc.find("torch");
  if (t == doc.end() || !t->is_object()) return;
  python.torch_installed = true;
  torch = torch_info(*t);
}

}  // namespace gpuscout::probe
