// The CUDA toolkit (nvcc) and cuDNN, where installed. Versions come from the files the toolkit ships
// (version.json, cudnn_version.h), so no compiler is started on the common path.
#include <cstdlib>

#include <fmt/format.h>

#include "core/json.hpp"
#include "core/json_position.hpp"
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
  return text::clean_utf8(rest);
}

Result<std::string> parse_toolkit_version_json(std::string_view text) {
  // {"cuda": {"name": "CUDA SDK", "version": "13.0.1"}, "cuda_nvcc": {"name": ..., "version": "13.0.88"}, ...}
  auto parsed = core::parse_json(text);
  if (!parsed) return fail(text::clean_utf8(parsed.error().message));  // the message quotes the bad bytes
  const nlohmann::json doc = std::move(*parsed);
  for (const char* component : {"cuda_nvcc", "cuda"}) {
    const auto c = doc.is_object() ? doc.find(component) : doc.end();
    if (c == doc.end() || !c->is_object()) continue;
    const auto v = c->find("version");
    if (v == c->end()) continue;
    if (!v->is_string() || !Version::parse(v->get_ref<const std::string&>()))
      return fail(text::clean_utf8(fmt::format("{}.version is {}, not a version like 13.0.88", component,
                                               v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))));
    return text::clean_utf8(v->get_ref<const std::string&>());
  }
  return fail("no cuda_nvcc.version or cuda.version");
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
        if (auto v = parse_toolkit_version_json(*vj)) {
          info.nvcc_version = *v;
          if (os::exists(root + "/bin/nvcc")) info.nvcc_path = text::clean_utf8(root + "/bin/nvcc");
        } else {
          info.errors.push_back(ProbeError{"toolkit", text::clean_utf8(root + "/version.json"), v.error().message,
                                           std::nullopt});
        }
      }
    }
  }
  if (!info.nvcc_version && nvcc) {
    auto r = os::run({*nvcc, "--version"}, std::chrono::seconds(5));
    if (r && r->exit_code == 0) {
      info.nvcc_version = parse_nvcc_version(r->out);
      info.nvcc_path = text::clean_utf8(*nvcc);
    } else {
      info.errors.push_back(ProbeError{
          "toolkit", text::clean_utf8(*nvcc + " --version"),
          text::clean_utf8(r ? (r->timed_out ? "timed out" : "failed: " + r->err) : r.error().message), std::nullopt});
    }
  } else if (nvcc && !info.nvcc_path) {
    info.nvcc_path = text::clean_utf8(*nvcc);
  }
  std::vector<std::string> include_dirs = {"/usr/include", "/usr/include/x86_64-linux-gnu",
                                           "/usr/include/aarch64-linux-gnu"};
  for (const auto& root : roots) include_dirs.push_back(root + "/include");
  for (const auto& dir : include_dirs) {
    for (const char* header : {"/cudnn_version.h", "/cudnn.h"}) {
      if (auto h = os::read_file(dir + header, 1 << 20)) {
        if (auto v = parse_cudnn_header(*h)) {
          info.cudnn_version = v;
          info.cudnn_path = text::clean_utf8(dir + header);
          return info;
        }
      }
    }
  }
  return info;
}

}  // namespace gpuscout::probe
