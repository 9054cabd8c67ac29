#pragma once
// The fake CUDA plugins (tests/bench_plugins), built beside the test program, for the plugin and bench tests.
#include <string>

#include "bench/gpu_plugin.hpp"

namespace gpuscout::bench::test {

/// The path of the fake plugin of one kind (the kinds tests/bench_plugins/CMakeLists.txt builds).
inline std::string fake_plugin(const std::string& kind) {
  return executable_dir() + "/bench_plugins/libfake_plugin_" + kind + ".so";
}

}  // namespace gpuscout::bench::test
