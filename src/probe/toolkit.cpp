// The CUDA toolkit (nvcc) and cuDNN, where installed. Versions come from the files the toolkit ships
// (version.json, cudnn_version.h), so no compiler is started on the common path.
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "core/version.hpp"
#include "os/process.hpp"
#include "os/system.hpp"
#include "probe/sources.hpp"

namespace gpuscout::probe {

std::optional<std::string> parse_nvcc_version(std::string_view text) {
  // "Cuda compilation tools, release 13.0, V13.0.88"
  const auto pos = text.rfind(", V");
  if (pos == std::string_view::npos) return std::nullopt;
  auto rest = text.substr(pos + 3);
  const auto end = rest.find_first_of(" \n\r");
  rest = rest.substr(0, end);
  if (!Version::parse(rest)) return std::nullopt;
  return std::string(rest);
}

std::optional<std::string> parse_cudnn_header(std::string_view text) {
  std::optional<long long> major, minor, patch;
  for (auto line : text::split(text, '\n')) {
    const auto f = text::split_ws(line);
    if (f.size() < 3 || f[0] != "#define") continue;
    if (f[1] == "CUDNN_MAJOR") major = text::parse_int(f[2]);
    else if (f[1] == "CUDNN_MINOR") minor = text::parse_int(f[2]);
    else if (f[1] == "CUDNN_PATCHLEVEL") patch = text::parse_int(f[2]);
  }
  if (!major || !minor) return std::nullopt;
  return std::to_string(*major) + "." + std::to_string(*minor) + "." + std::to_string(patch.value_or(0));
}

ToolkitInfo probe_toolkit() {
  ToolkitInfo info;
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (auto v = os::getenv(var); v && !v->empty()) roots.push_back(*v);
  std::optional<std::string> nvcc;
  if (os::sysroot().empty()) nvcc = os::find_program("nvcc");
  if (nvcc) {
    // .../cuda-13.0/bin/nvcc -> .../cuda-13.0
    const auto slash = nvcc->rfind("/bin/nvcc");
    if (slash != std::string::npos) roots.insert(roots.begin(), nvcc->substr(0, slash));
  }
  roots.push_back("/usr/local/cuda");
  for (const auto& root : roots) {
    if (!info.nvcc_version) {
      if (auto vj = os::read_file(root + "/version.json", 1 << 20)) {
        try {
          auto doc = nlohmann::json::parse(*vj);
          if (doc.contains("cuda_nvcc") && doc["cuda_nvcc"].contains("version"))
            info.nvcc_version = doc["cuda_nvcc"]["version"].get<std::string>();
          else if (doc.contains("cuda") && doc["cuda"].contains("version"))
            info.nvcc_version = doc["cuda"]["version"].get<std::string>();
          if (info.nvcc_version && os::exists(root + "/bin/nvcc")) info.nvcc_path = root + "/bin/nvcc";
        } catch (const nlohmann::json::exception& e) {
          info.errors.push_back(ProbeError{"toolkit", root + "/version.json", e.what(), std::nullopt});
        }
      }
    }
  }
  if (!info.nvcc_version && nvcc) {
    auto r = os::run({*nvcc, "--version"}, std::chrono::seconds(5));
    if (r && r->exit_code == 0) {
      info.nvcc_version = parse_nvcc_version(r->out);
      info.nvcc_path = *nvcc;
    } else {
      info.errors.push_back(ProbeError{"toolkit", *nvcc + " --version",
                                       r ? (r->timed_out ? "timed out" : "failed: " + r->err) : r.error().message,
                                       std::nullopt});
    }
  } else if (nvcc && !info.nvcc_path) {
    info.nvcc_path = *nvcc;
  }
  std::vector<std::string> include_dirs = {"/usr/include", "/usr/include/x86_64-linux-gnu",
                                           "/usr/include/aarch64-linux-gnu"};
  for (const auto& root : roots) include_dirs.push_back(root + "/include");
  for (const auto& dir : include_dirs) {
    for (const char* header : {"/cudnn_version.h", "/cudnn.h"}) {
      if (auto h = os::read_file(dir + header, 1 << 20)) {
        if (auto v = parse_cudnn_header(*h)) {
          info.cudnn_version = v;
          info.cudnn_path = dir + header;
          return info;
        }
      }
    }
  }
  return info;
}

}  // namespace gpuscout::probe
