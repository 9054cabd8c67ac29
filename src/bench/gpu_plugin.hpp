#pragma once
/// Finds, loads and checks the CUDA benchmark plugin (libgpuscout-cuda.so). The CLI never links CUDA:
/// a missing plugin, a plugin built for another interface version, or one whose CUDA initialisation fails
/// each become one readable line in the report, and the CPU benchmarks still run.
#include <optional>
#include <string>
#include <vector>

#include "../../plugins/cuda/gpuscout_cuda_plugin.h"
#include "core/error.hpp"
#include "os/library.hpp"

namespace gpuscout::bench {

inline constexpr const char* kCudaPluginFile = "libgpuscout-cuda.so";

/// Where to look, in order: $GPUSCOUT_CUDA_PLUGIN alone when set; else <exe dir>/../lib/gpuscout/ (installed,
/// and the build tree, where the plugin is written to <build>/lib/gpuscout/), `install_dir`, <exe dir>/. Pure.
std::vector<std::string> plugin_candidates(const std::optional<std::string>& env_path, const std::string& exe_dir,
                                           const std::string& install_dir);
/// The directory of the running executable ("" when /proc/self/exe cannot be read).
std::string executable_dir();

/// A library path from the environment (GPUSCOUT_CUDA_LIBRARY, GPUSCOUT_NVML_LIBRARY, GPUSCOUT_CUDA_PLUGIN) that
/// exists but is not a regular file (a FIFO, a folder, a device) is an error, found before any dlopen could block on
/// it; the message names the variable. A missing file is not an error here: it reads as "no driver" or "no plugin".
Result<void> check_library_overrides();

class CudaPlugin {
 public:
  /// Opens `path` (a regular file: never a FIFO that would block dlopen) and checks its interface version and
  /// function table; does not touch CUDA yet.
  static Result<CudaPlugin> load(const std::string& path);
  CudaPlugin(CudaPlugin&&) noexcept;
  CudaPlugin& operator=(CudaPlugin&&) noexcept;
  ~CudaPlugin();  ///< calls shutdown() when init() succeeded: frees GPU memory even after Ctrl-C

  /// Initialises CUDA in the plugin; the error is the plugin's own reason ("no CUDA-capable device").
  Result<void> init(int (*should_stop)());
  const gpuscout_cuda_plugin_v1& api() const { return *api_; }
  /// The optional NCCL table, or null for a plugin built without it (or with another GPUSCOUT_CUDA_NCCL_ABI).
  const gpuscout_cuda_plugin_nccl_v1* nccl() const { return nccl_; }
  const std::string& path() const { return path_; }
  std::string version() const;

 private:
  CudaPlugin() = default;
  os::SharedLibrary library_;
  const gpuscout_cuda_plugin_v1* api_ = nullptr;
  const gpuscout_cuda_plugin_nccl_v1* nccl_ = nullptr;
  std::string path_;
  bool initialized_ = false;
};

}  // namespace gpuscout::bench
