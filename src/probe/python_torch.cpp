// Python and PyTorch, asked (not imported): the interpreter runs a short script as a child process with an
// argument vector and a deadline, concurrently with the other probes.
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {

std::string_view python_probe_script() {
  // Prints one line "GPUSCOUT_PROBE <json>" so anything torch prints on import cannot corrupt the result.
  static constexpr std::string_view script = R"PY(
import json, sys, warnings
out = {"python": sys.version.split()[0], "executable": sys.executable}
def attempt(fn, default=None):
    try:
        return fn()
    except Exception as e:
        return default
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
    t["warnings"] = [str(w.message) for w in caught][:20]
    out["torch"] = t
except ModuleNotFoundError as e:
    if getattr(e, "name", None) == "torch":
        out["torch"] = None
    else:
        out["torch_error"] = "%s: %s" % (type(e).__name__, e)
except BaseException as e:
    out["torch_error"] = "%s: %s" % (type(e).__name__, e)
sys.stdout.write("\nGPUSCOUT_PROBE " + json.dumps(out) + "\n")
)PY";
  return script;
}

void parse_python_probe_output(std::string_view output, PythonInfo& python, std::optional<TorchInfo>& torch) {
  const auto pos = output.rfind("GPUSCOUT_PROBE ");
  if (pos == std::string_view::npos) {
    python.error = ProbeError{"python", "probe script", "no result from the Python probe", std::nullopt};
    return;
  }
  auto line = output.substr(pos + 15);
  line = line.substr(0, line.find('\n'));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    python.error = ProbeError{"python", "probe script", std::string("unreadable result: ") + e.what(), std::nullopt};
    return;
  }
  try {
    if (doc.contains("python") && doc["python"].is_string()) python.version = doc["python"].get<std::string>();
    if (doc.contains("executable") && doc["executable"].is_string())
      python.executable = doc["executable"].get<std::string>();
    if (doc.contains("torch_error")) {
      python.torch_installed = true;  // it is there but does not import: a broken install
      python.error = ProbeError{"python", "import torch", doc["torch_error"].get<std::string>(), std::nullopt};
      return;
    }
    if (!doc.contains("torch") || doc["torch"].is_null()) return;
    const auto& t = doc["torch"];
    TorchInfo info;
    python.torch_installed = true;
    info.version = t.value("version", "unknown");
    if (t.contains("cuda") && t["cuda"].is_string()) info.cuda = t["cuda"].get<std::string>();
    if (t.contains("hip") && t["hip"].is_string()) info.hip = t["hip"].get<std::string>();
    info.cuda_available = t.value("cuda_available", false);
    info.device_count = t.value("device_count", 0);
    if (t.contains("arch_list") && t["arch_list"].is_array())
      for (const auto& a : t["arch_list"])
        if (a.is_string()) info.arch_list.push_back(a.get<std::string>());
    if (t.contains("cudnn") && t["cudnn"].is_number_integer()) {
      // 8902 -> 8.9.2 (cuDNN 8), 90100 -> 9.1.0 (cuDNN 9 encodes major*10000 + minor*100 + patch).
      const long long v = t["cudnn"].get<long long>();
      if (v >= 10000) info.cudnn_version = std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
      else info.cudnn_version = std::to_string(v / 1000) + "." + std::to_string((v / 100) % 10) + "." + std::to_string(v % 100);
    }
    if (t.contains("mps_available") && t["mps_available"].is_boolean()) info.mps_available = t["mps_available"].get<bool>();
    if (t.contains("xpu_available") && t["xpu_available"].is_boolean()) info.xpu_available = t["xpu_available"].get<bool>();
    if (t.contains("devices") && t["devices"].is_array()) {
      for (const auto& d : t["devices"]) {
        TorchDevice dev;
        dev.index = d.value("index", 0);
        dev.name = d.value("name", "");
        if (d.contains("capability") && d["capability"].is_string()) dev.capability = d["capability"].get<std::string>();
        if (d.contains("total_memory_bytes") && d["total_memory_bytes"].is_number_integer())
          dev.total_memory_bytes = d["total_memory_bytes"].get<uint64_t>();
        if (d.contains("multi_processor_count") && d["multi_processor_count"].is_number_integer())
          dev.multi_processor_count = d["multi_processor_count"].get<int>();
        info.devices.push_back(std::move(dev));
      }
    }
    if (t.contains("warnings") && t["warnings"].is_array())
      for (const auto& w : t["warnings"])
        if (w.is_string()) info.warnings.push_back(w.get<std::string>());
    torch = std::move(info);
  } catch (const nlohmann::json::exception& e) {
    python.error = ProbeError{"python", "probe script", std::string("unexpected result: ") + e.what(), std::nullopt};
  }
}

}  // namespace gpuscout::probe
