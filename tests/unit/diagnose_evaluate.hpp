#pragma once
// Running the rules on a test machine and picking a finding out, for the diagnose tests (rules, environment,
// Windows). A finding pointer points into the Evaluation: keep the Evaluation alive while using it.
#include <algorithm>
#include <set>
#include <string>

#include "diagnose/context.hpp"
#include "diagnose/rules.hpp"

namespace gpuscout::test_machines {

inline diagnose::Evaluation run(const Inventory& inv) { return diagnose::evaluate(diagnose::make_context(inv)); }

inline std::set<std::string> codes_of(const diagnose::Evaluation& e) {
  std::set<std::string> out;
  for (const auto& f : e.findings) out.insert(f.code);
  return out;
}

inline const Finding* find(const diagnose::Evaluation& e, const std::string& code) {
  const auto it = std::find_if(e.findings.begin(), e.findings.end(), [&](const Finding& f) { return f.code == code; });
  return it == e.findings.end() ? nullptr : &*it;
}

}  // namespace gpuscout::test_machines
