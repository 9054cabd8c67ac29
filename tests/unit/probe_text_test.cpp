// Strings that enter through the probes' parsers come out as valid UTF-8 and in the shape the --from reader
// accepts, whatever the machine or the Python interpreter wrote.
#include <gtest/gtest.h>

#include "core/text.hpp"
#include "probe/sources.hpp"
#include "test_support.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;

namespace {
using gpuscout::test_support::kReplacementChar;
}  // namespace

TEST(ProbeText, OsReleaseValuesAreCleaned) {
  const auto kv = parse_os_release("PRETTY_NAME=\"Caf\xE9 Linux\"\nID=caf\xE9\x1b\n");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[0].second, "Caf" + kReplacementChar + " Linux");
  EXPECT_EQ(kv[1].second, "caf" + kReplacementChar);
}

TEST(ProbeText, PythonProbeOutputWithBadBytesKeepsEveryField) {
  PythonInfo py;
  std::optional<TorchInfo> torch;
  // A Latin-1 path written raw (the script's surrogateescape), an escaped NUL and ESC, a bad torch.version.cuda.
  parse_python_probe_output(
      "GPUSCOUT_PROBE {\"python\": \"3.12.1\", \"executable\": \"/home/caf\xE9/bin/python3\", \"torch\": "
      "{\"version\": \"2.5.1\\u0000\", \"cuda\": \"cu121\", \"cuda_available\": true, \"device_count\": -3, "
      "\"arch_list\": [\"sm_90\\u001b[0m\"], \"cudnn\": -1, \"devices\": [{\"index\": -1, \"name\": \"RTX \xE9\", "
      "\"capability\": \"12\", \"total_memory_bytes\": -5, \"multi_processor_count\": 128}], \"warnings\": []}}\n",
      py, torch);
  EXPECT_FALSE(py.error.has_value()) << py.error->message;
  EXPECT_EQ(py.executable, "/home/caf" + kReplacementChar + "/bin/python3");
  ASSERT_TRUE(torch.has_value());
  EXPECT_EQ(torch->version, "2.5.1");
  EXPECT_FALSE(torch->cuda.has_value());  // not a version: dropped, with a warning saying why
  ASSERT_EQ(torch->warnings.size(), 1u);
  EXPECT_NE(torch->warnings[0].find("cu121"), std::string::npos);
  EXPECT_EQ(torch->device_count, 0);
  EXPECT_EQ(torch->arch_list, std::vector<std::string>{"sm_90[0m"});
  EXPECT_FALSE(torch->cudnn_version.has_value());
  ASSERT_EQ(torch->devices.size(), 1u);
  EXPECT_EQ(torch->devices[0].index, 0);
  EXPECT_EQ(torch->devices[0].name, "RTX " + kReplacementChar);
  EXPECT_FALSE(torch->devices[0].capability.has_value());
  EXPECT_FALSE(torch->devices[0].total_memory_bytes.has_value());
  EXPECT_EQ(torch->devices[0].multi_processor_count, 128);
}

TEST(ProbeText, PythonProbeErrorsAreCleaned) {
  PythonInfo py;
  std::optional<TorchInfo> torch;
  parse_python_probe_output("GPUSCOUT_PROBE {\"python\": \"3.12\", \"torch_error\": \"ImportError: caf\xE9\"}", py, torch);
  ASSERT_TRUE(py.error.has_value());
  EXPECT_EQ(py.error->message, "ImportError: caf" + kReplacementChar);
  PythonInfo bad;
  parse_python_probe_output("GPUSCOUT_PROBE {\"python\": \"3.12\xE9", bad, torch);
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(text::clean_utf8(bad.error->message), bad.error->message);
}

TEST(ProbeText, ToolkitVersionJson) {
  EXPECT_EQ(parse_toolkit_version_json(R"({"cuda": {"version": "13.0.1"}, "cuda_nvcc": {"version": "13.0.88"}})").value(),
            "13.0.88");
  EXPECT_EQ(parse_toolkit_version_json(R"({"cuda": {"version": "12.4.1"}})").value(), "12.4.1");
  for (const char* bad : {R"({"cuda": {"version": "abc"}})", R"({"cuda": {"version": 12}})", "{", "[]",
                          "{\"cuda\": {\"version\": \"\xE9\"}}", "{}"}) {
    const auto r = parse_toolkit_version_json(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(text::clean_utf8(r.error().message), r.error().message) << bad;
  }
}
