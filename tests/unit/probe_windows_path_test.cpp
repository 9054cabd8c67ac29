// Windows path text on any OS: PATH split on ';' with quotes, joins with '\', one spelling for the case and
// separator variants of one path, drive letters and UNC paths.
#include <gtest/gtest.h>

#include "probe/windows_path.hpp"

using namespace gpuscout::probe;

TEST(WindowsPath, SplitsPathAsWindowsReadsIt) {
  const std::vector<std::string> expected = {R"(C:\Windows\system32)", R"(C:\Program Files\Python312\)",
                                             R"(D:\tools)"};
  EXPECT_EQ(winpath::split_path_list(R"(C:\Windows\system32;;"C:\Program Files\Python312\"; D:\tools ;)"), expected);
  EXPECT_TRUE(winpath::split_path_list("").empty());
  EXPECT_TRUE(winpath::split_path_list(R"(;"";  ;)").empty());
}

TEST(WindowsPath, JoinsWithOneSeparator) {
  EXPECT_EQ(winpath::join(R"(C:\)", "py.exe"), R"(C:\py.exe)");
  EXPECT_EQ(winpath::join(R"(C:\Python312\)", "python.exe"), R"(C:\Python312\python.exe)");
  EXPECT_EQ(winpath::join("C:/tools//", "python.exe"), R"(C:/tools\python.exe)");
  EXPECT_EQ(winpath::join("", "python.exe"), "python.exe");
}

TEST(WindowsPath, OneSpellingPerPath) {
  EXPECT_EQ(winpath::fold(R"(C:/Python312/)"), R"(c:\python312)");
  EXPECT_TRUE(winpath::same(R"(C:\Users\Ann\AppData)", R"(c:\users\ann\\appdata\)"));
  EXPECT_FALSE(winpath::same(R"(C:\Python312)", R"(D:\Python312)"));
  EXPECT_EQ(winpath::fold(R"(C:\)"), R"(c:\)") << "a drive's root keeps its separator";
  EXPECT_EQ(winpath::fold(R"(\\Server\Share\Py\)"), R"(\\server\share\py)") << "UNC's leading pair kept";
  // Only ASCII letters fold: a user name in Chinese stays as written.
  EXPECT_EQ(winpath::fold("C:\\Users\\张三"), "c:\\users\\张三");
  EXPECT_TRUE(winpath::iends_with(R"(C:\Users\Ann\AppData\Local\Microsoft\WindowsApps)", R"(\microsoft\windowsapps)"));
  EXPECT_FALSE(winpath::iends_with("apps", "windowsapps"));
  EXPECT_TRUE(winpath::istarts_with("PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0", "pythonsoftwarefoundation."));
}

TEST(WindowsPath, PartsAndAbsolutePaths) {
  EXPECT_EQ(winpath::parent(R"(C:\a\python.exe)"), R"(C:\a)");
  EXPECT_EQ(winpath::parent("python.exe"), "");
  EXPECT_EQ(winpath::file_name("C:/a/python.exe"), "python.exe");
  EXPECT_TRUE(winpath::is_absolute(R"(C:\Python312)"));
  EXPECT_TRUE(winpath::is_absolute("d:/x"));
  EXPECT_TRUE(winpath::is_absolute(R"(\\server\share)"));
  EXPECT_FALSE(winpath::is_absolute("C:python.exe")) << "drive-relative";
  EXPECT_FALSE(winpath::is_absolute(R"(\Python312)")) << "rooted on the current drive";
  EXPECT_FALSE(winpath::is_absolute(R"(\\\x)"));
  EXPECT_FALSE(winpath::is_absolute("1:\\x"));
  EXPECT_FALSE(winpath::is_absolute(""));
}
