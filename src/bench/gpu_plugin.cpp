#include "bench/gpu_plugin.hpp"

#include "core/path.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace gpuscout::bench {

std::vector<std::string> plugin_candidates(const std::optional<std::string>& env_path, const std::string& exe_dir,
                                           const std::string& install_dir) {
  if (env_path && !env_path->empty()) return {*env_path};
  std::vector<std::string> out;
  if (!exe_dir.empty()) out.push_back(exe_dir + "/../lib/gpuscout/" + kCudaPluginFile);
  if (!install_dir.empty()) out.push_back(install_dir + "/" + kCudaPluginFile);
  if (!exe_dir.empty()) out.push_back(exe_dir + "/" + kCudaPluginFile);
  return out;
}

std::string executable_dir() {
  const std::string exe = core::self_executable();
  if (exe.empty()) return {};
  return core::from_path(core::to_path(exe).parent_path());
}


Result<void> check_library_overrides() {
  for (const char* var : {"GPUSCOUT_CUDA_LIBRARY", "GPUSCOUT_NVML_LIBRARY", "GPUSCOUT_CUDA_PLUGIN"}) {
    const char* value = std::getenv(var);
    // A name without '/' is a soname for the loader to search; only a path can be checked.
    if (!value || !std::strchr(value, '/')) continue;
    if (auto kind = os::not_a_library_file(value))
      return fail(fmt::format("{}={} is {}, not a shared library file: point it at a .so file or unset it", var,
                              value, *kind));
  }
  return {};
}

Result<CudaPlugin> CudaPlugin::load(const std::string& path) {
  // A path with a '/' makes dlopen load exactly that file rather than search.
  const std::string to_open = path.find('/') == std::string::npos ? "./" + path : path;
  if (auto kind = os::not_a_library_file(to_open))
    return fail(fmt::format("CUDA plugin {} cannot be loaded: it is {}, not a shared library file", path, *kind));
  auto lib = os::SharedLibrary::open(to_open);
  if (!lib) return fail(fmt::format("CUDA plugin {} cannot be loaded: {}", path, lib.error().message));
  auto abi = lib->symbol<gpuscout_cuda_plugin_abi_fn>("gpuscout_cuda_plugin_abi");
  auto get = lib->symbol<gpuscout_cuda_plugin_get_fn>("gpuscout_cuda_plugin_get");
  if (!abi || !get) return fail(fmt::format("{} is not a gpuscout CUDA plugin (gpuscout_cuda_plugin_abi missing)", path));
  const uint32_t version = abi();
  if (version != GPUSCOUT_CUDA_PLUGIN_ABI)
    return fail(fmt::format("CUDA plugin {} has interface version {}, this gpuscout needs version {}: "
                            "install the plugin built with this gpuscout",
                            path, version, GPUSCOUT_CUDA_PLUGIN_ABI));
  const gpuscout_cuda_plugin_v1* api = get();
  if (!api || api->abi_version != GPUSCOUT_CUDA_PLUGIN_ABI || api->struct_size < sizeof(gpuscout_cuda_plugin_v1) ||
      !api->init || !api->device_count || !api->device_info || !api->gemm || !api->copy || !api->shutdown)
    return fail(fmt::format("CUDA plugin {} returned an incomplete function table", path));
  CudaPlugin plugin;
  // The NCCL table is optional (gpuscout_cuda_plugin.h): one missing or of another version only drops that step.
  if (auto nccl = lib->symbol<gpuscout_cuda_plugin_nccl_fn>("gpuscout_cuda_plugin_nccl")) {
    const gpuscout_cuda_plugin_nccl_v1* table = nccl();
    if (table && table->abi_version == GPUSCOUT_CUDA_NCCL_ABI &&
        table->struct_size >= sizeof(gpuscout_cuda_plugin_nccl_v1) && table->allreduce)
      plugin.nccl_ = table;
  }
  plugin.library_ = std::move(*lib);
  plugin.api_ = api;
  plugin.path_ = path;
  return plugin;
}

CudaPlugin::CudaPlugin(CudaPlugin&& o) noexcept
    : library_(std::move(o.library_)), api_(o.api_), nccl_(o.nccl_), path_(std::move(o.path_)), initialized_(o.initialized_) {
  o.api_ = nullptr;
  o.initialized_ = false;
}

CudaPlugin& CudaPlugin::operator=(CudaPlugin&& o) noexcept {
  if (this != &o) {
    if (initialized_ && api_) api_->shutdown();
    library_ = std::move(o.library_);
    api_ = o.api_;
    nccl_ = o.nccl_;
    path_ = std::move(o.path_);
    initialized_ = o.initialized_;
    o.api_ = nullptr;
    o.initialized_ = false;
  }
  return *this;
}

CudaPlugin::~CudaPlugin() {
  if (initialized_ && api_) api_->shutdown();
}

Result<void> CudaPlugin::init(int (*should_stop)()) {
  char err[GPUSCOUT_PLUGIN_TEXT] = {};
  const int status = api_->init(should_stop, err, sizeof err);
  if (status != GPUSCOUT_OK) {
    err[sizeof err - 1] = '\0';
    return fail(err[0] ? std::string(err) : fmt::format("CUDA plugin initialisation failed (status {})", status));
  }
  initialized_ = true;
  return {};
}

std::string CudaPlugin::version() const {
  if (!api_ || !api_->plugin_version) return {};
  const char* v = api_->plugin_version();
  return v ? v : "";
}

}  // namespace gpuscout::bench
