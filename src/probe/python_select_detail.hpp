#pragma once
/// Shared between python_select.cpp (the rules both platforms have, POSIX's own) and python_select_windows.cpp
/// (Windows' own, compiled everywhere so Linux tests them). Not part of the module's interface.
#include <string>
#include <vector>

#include "probe/python_select.hpp"

namespace gpuscout::probe::detail {

const PythonFiles& files_of(const PythonEnvironment& env);
/// choose_python on Windows.
PythonChoice choose_windows_python(const PythonEnvironment& env);
/// Every candidate of other_pythons, in order, before the file test and the one-per-interpreter filter.
std::vector<std::string> windows_other_candidates(const PythonEnvironment& env);
std::string windows_identity(const PythonEnvironment& env, const std::string& path);

}  // namespace gpuscout::probe::detail
