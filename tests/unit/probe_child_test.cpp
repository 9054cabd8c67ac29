// One error shape for every probe child: each way a child can fail becomes a ProbeError that says why.
#include <signal.h>

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "probe/child_error.hpp"

using namespace gpuscout;
using namespace gpuscout::probe;
using namespace std::chrono_literals;

namespace {

const ChildRole kRole{"nvml", "nvmlInit_v2", "the NVML probe", "the NVIDIA driver is hung"};

os::ProcessResult ended(int exit_code, std::string out = "", std::string err = "") {
  os::ProcessResult r;
  r.exit_code = exit_code;
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

}  // namespace

TEST(ChildFailure, ASuccessIsNoError) { EXPECT_FALSE(child_failure(kRole, ended(0, "{}"), 1s).has_value()); }

TEST(ChildFailure, TheExceptionTextFromForkCallIsTheReason) {
  const auto e = child_failure(kRole, ended(3, "exception: json.exception.type_error.302: type must be string"), 1s);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->source, "nvml");
  EXPECT_EQ(e->what, "nvmlInit_v2");
  EXPECT_EQ(e->message, "the NVML probe failed: json.exception.type_error.302: type must be string");
}

TEST(ChildFailure, ASignalIsNamed) {
  os::ProcessResult r;
  r.signal = SIGSEGV;
  r.err = "libnvidia-ml.so.1: something went wrong\n";
  const auto e = child_failure(kRole, r, 1s);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message,
            "the NVML probe crashed: signal 11 (Segmentation fault); it printed: libnvidia-ml.so.1: something went wrong");
}

TEST(ChildFailure, ATimeoutSaysHowLongAndTheLikelyCause) {
  os::ProcessResult r;
  r.timed_out = true;
  r.signal = SIGKILL;
  const auto e = child_failure(kRole, r, 2500ms);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "the NVML probe gave no answer within 2.5 s: the NVIDIA driver is hung; it was stopped");
}

TEST(ChildFailure, AnExitCodeCarriesTheEndOfStderr) {
  const ChildRole python{"python", "/usr/bin/python3", "/usr/bin/python3", "import torch hung?"};
  std::string traceback = "Traceback (most recent call last):\n";
  for (int i = 0; i < 40; ++i) traceback += "  File \"/x.py\", line " + std::to_string(i) + ", in <module>\n";
  traceback += "ImportError: libcudart.so.12: cannot open shared object file\n";
  const auto e = child_failure(python, ended(1, "", traceback), 1s);
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->message.starts_with("/usr/bin/python3 ended with exit code 1; it printed: ...")) << e->message;
  EXPECT_TRUE(e->message.ends_with("ImportError: libcudart.so.12: cannot open shared object file")) << e->message;
}

TEST(ChildOutputExcerpt, CappedJoinedAndValidUtf8) {
  EXPECT_EQ(child_output_excerpt(""), "");
  EXPECT_EQ(child_output_excerpt("  one \n\n two\n"), "one; two");
  // Latin-1 from a driver: no invalid UTF-8 may reach the JSON writer.
  EXPECT_EQ(child_output_excerpt("caf\xe9"), "caf\xef\xbf\xbd");
  // The cut never splits a character: 400 copies of a 3-byte character, then one byte, so the last 300
  // bytes start inside a character.
  std::string wide;
  for (int i = 0; i < 400; ++i) wide += "\xe4\xb8\x83";
  wide += "x";
  const auto cut = child_output_excerpt(wide);
  EXPECT_LE(cut.size(), 303u);
  EXPECT_TRUE(cut.starts_with("...\xe4\xb8\x83"));
  EXPECT_EQ(cut.find("\xef\xbf\xbd"), std::string::npos) << "no replacement character from a split";
}

TEST(ChildOutputExcerpt, AddsWhatTheChildPrintedToAnAnswerWithAnError) {
  ProbeError error{"nvml", "nvmlInit_v2", "driver not loaded", 9};
  add_child_output(error, ended(0, "{}", "NVRM: API mismatch\n"));
  EXPECT_EQ(error.message, "driver not loaded; it printed: NVRM: API mismatch");
  ProbeError quiet{"cuda", "cuInit", "no device", 100};
  add_child_output(quiet, ended(0));
  EXPECT_EQ(quiet.message, "no device");
}
