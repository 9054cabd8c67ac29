#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "test_support.hpp"

using gpuscout::text::clean_utf8;

namespace {
using gpuscout::test_support::kReplacementChar;
std::string r(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += kReplacementChar;
  return out;
}
}  // namespace

TEST(CleanUtf8, LeavesValidTextUntouched) {
  for (const std::string s : {"", "NVIDIA GeForce RTX 4090", "七彩虹 iGame RTX 4090 D", "Ubuntu 24.04 LTS\n\tok",
                              "caf\xC3\xA9", "\xF0\x9F\x9A\x80 rocket", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"}) {
    EXPECT_EQ(clean_utf8(s), s) << s;
  }
}

TEST(CleanUtf8, ReplacesLatin1Byte) {
  EXPECT_EQ(clean_utf8("Caf\xE9 Machine"), "Caf" + kReplacementChar + " Machine");
  EXPECT_EQ(clean_utf8("\xE9"), kReplacementChar);
}

// Expected values follow the Unicode 15 section 3.9 examples ("U+FFFD Substitution of Maximal Subparts").
TEST(CleanUtf8, OneReplacementPerMaximalSubpart) {
  struct Case {
    std::string in, want;
  } cases[] = {
      {"\xC0\xAF", r(2)},                      // overlong '/': C0 never starts a sequence
      {"\xE0\x80\xAF", r(3)},                  // overlong 3-byte form: E0 needs A0..BF next
      {"\xF0\x80\x80\xAF", r(4)},              // overlong 4-byte form
      {"\xED\xA0\x80", r(3)},                  // surrogate U+D800
      {"\xED\xBF\xBF", r(3)},                  // surrogate U+DFFF
      {"\xF4\x90\x80\x80", r(4)},              // past U+10FFFF
      {"\xF5\x80", r(2)},                      // F5 never starts a sequence
      {"\xE2\x82", r(1)},                      // truncated euro sign at the end
      {"\xE2\x82x", r(1) + "x"},               // truncated, then ASCII
      {"\xF0\x9F\x9A", r(1)},                  // truncated 4-byte sequence
      {"\xF0\x9F\x9A\xE2\x82\xAC", r(1) + "\xE2\x82\xAC"},  // truncated, then a whole euro sign
      {"\x80\xBF", r(2)},                      // lone continuation bytes
      {"a\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",  // the standard's table 3-8 example
       "aa" + r(3) + "b" + r(1) + "c" + r(2) + "d"},
  };
  for (const auto& c : cases) EXPECT_EQ(clean_utf8(c.in), c.want) << c.in;
}

TEST(CleanUtf8, DropsControlCharactersButTabAndNewline) {
  EXPECT_EQ(clean_utf8(std::string("a\0b", 3)), "ab");
  EXPECT_EQ(clean_utf8("a\x01\x1B[31mb\r\n\tc"), "a[31mb\n\tc");
}

TEST(DisplayWidth, WideCharactersTakeTwoColumns) {
  using gpuscout::text::display_width;
  EXPECT_EQ(display_width("vram"), 4u);
  EXPECT_EQ(display_width("显存"), 4u);
  EXPECT_EQ(display_width("KV 缓存"), 7u);
  EXPECT_EQ(display_width("（）"), 4u);  // full-width punctuation
  EXPECT_EQ(display_width(""), 0u);
}

TEST(CodePoints, DecodesUtf8) {
  using gpuscout::text::code_points;
  EXPECT_EQ(code_points("a显"), (std::vector<uint32_t>{'a', 0x663E}));
  EXPECT_EQ(code_points("\xF0\x9F\x98\x80"), (std::vector<uint32_t>{0x1F600}));
  EXPECT_EQ(code_points("\xE6"), (std::vector<uint32_t>{0xFFFD}));  // truncated: bounded, no read past the end
}
namespace {

TEST(DisplayWidth, CjkCountsTwoColumns) {
  EXPECT_EQ(gpuscout::text::display_width("abc"), 3u);
  EXPECT_EQ(gpuscout::text::display_width("显存 8 GiB"), 10u);
  EXPECT_EQ(gpuscout::text::display_width("（，）"), 6u);
}

TEST(Wrap, BreaksAtSpacesWithinTheWidthAndIndents) {
  const std::string out = gpuscout::text::wrap("one two three four five six", 13, "  ", 0);
  EXPECT_EQ(out, "one two three\n  four five\n  six\n");
  // A word longer than the line keeps a line of its own, unbroken (a command or a URL).
  EXPECT_EQ(gpuscout::text::wrap("a https://example.com/a/very/long/path b", 10, ""),
            "a\nhttps://example.com/a/very/long/path\nb\n");
  EXPECT_EQ(gpuscout::text::wrap("short", 80, "    "), "short\n");
  EXPECT_EQ(gpuscout::text::wrap("see `gpuscout platforms` now", 12, ""), "see\n`gpuscout platforms`\nnow\n");
  EXPECT_EQ(gpuscout::text::wrap("fix: Use it", 12, "     ", 8), "fix:\n     Use it\n") << "the first line starts at 8";
}

TEST(Wrap, ACommandStaysWholeAndItsFullStopStaysWithIt) {
  // A `command` longer than the line keeps a line of its own; the "." or "。" after it never starts a line.
  const std::string cmd = "`python3 -m pip install \"torch==2.14.*\" --force-reinstall --index-url https://x/cu126`";
  const auto en = gpuscout::text::wrap("Install a build that supports it: " + cmd + ".", 40, "  ");
  EXPECT_NE(en.find(cmd + ".\n"), std::string::npos) << en;
  EXPECT_EQ(en.find("\n  .\n"), std::string::npos) << en;
  const auto zh = gpuscout::text::wrap("安装支持它的版本：" + cmd + "。", 40, "  ");
  EXPECT_NE(zh.find(cmd + "。\n"), std::string::npos) << zh;
}

TEST(Wrap, BreaksBetweenChineseCharacters) {
  const std::string out = gpuscout::text::wrap("这台机器没有 GPU：请用免费的云端 GPU", 16, "");
  for (auto line : gpuscout::text::split(out, '\n')) EXPECT_LE(gpuscout::text::display_width(line), 16u) << out;
  // "GPU：" is 18 columns past the start: the colon never starts a line, so it takes "GPU" with it.
  EXPECT_EQ(out.substr(0, out.find('\n')), "这台机器没有") << out;
  EXPECT_TRUE(out.substr(out.find('\n') + 1).starts_with("GPU：")) << out;
}

}  // namespace

TEST(Visible, ShowsControlCharactersInsteadOfObeyingThem) {
  using gpuscout::text::visible;
  EXPECT_EQ(visible("node1"), "node1");
  EXPECT_EQ(visible("red\x1b[31mnode"), "red\\x1b[31mnode");
  EXPECT_EQ(visible("two\nlines\tand\x7f"), "two\\nlines\\tand\\x7f");
  EXPECT_EQ(visible("c1 \xc2\x9b" "31m"), "c1 \\u009b31m");
  EXPECT_EQ(visible("显存 ok"), "显存 ok");
  EXPECT_EQ(visible("bad \xff byte"), "bad \xef\xbf\xbd byte");
  EXPECT_EQ(visible("a\nb", /*keep_newlines=*/true), "a\nb");
}

TEST(CleanUtf8, DropsDelAndC1Controls) {
  EXPECT_EQ(clean_utf8("a\x7f" "b"), "ab");
  EXPECT_EQ(clean_utf8("csi \xC2\x9B" "31m red"), "csi 31m red");  // U+009B: a terminal's CSI
  EXPECT_EQ(clean_utf8("\xC2\x80\xC2\x9F"), "");
  EXPECT_EQ(clean_utf8("\xC2\xA0nbsp \xC2\xA9"), "\xC2\xA0nbsp \xC2\xA9");  // U+00A0 and above stay
}
