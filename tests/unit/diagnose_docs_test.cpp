// docs/json.md's findings table must be the rules table: the same codes in the same order, with the same
// severity, blocking flag and description. A rule added, renamed or reworded without the docs fails here.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "diagnose/rules.hpp"

using namespace gpuscout::diagnose;

namespace {

struct DocRow {
  std::string code, severity, blocks, when;
};

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(' ');
  const auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// The rows of the table whose header is `| code | severity | blocks | when |`.
std::vector<DocRow> findings_table(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::vector<DocRow> rows;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "| code | severity | blocks | when |") {
      inside = true;
      std::getline(in, line);  // |---|---|---|---|
      continue;
    }
    if (!inside) continue;
    if (!line.starts_with("|")) break;
    // "| `code` | severity | yes | when |": the description itself has no '|'.
    std::vector<std::string> cells;
    std::stringstream cells_in(line.substr(1));
    for (std::string cell; std::getline(cells_in, cell, '|');) cells.push_back(trim(cell));
    EXPECT_EQ(cells.size(), 4u) << line;
    if (cells.size() != 4) continue;
    const std::string code = cells[0].size() > 2 ? cells[0].substr(1, cells[0].size() - 2) : cells[0];
    rows.push_back(DocRow{code, cells[1], cells[2], cells[3]});
  }
  return rows;
}

}  // namespace

TEST(DiagnoseDocs, FindingsTableIsTheRulesTable) {
  const auto doc = findings_table(std::string(GPUSCOUT_SOURCE_DIR) + "/docs/json.md");
  const auto table = rules();
  ASSERT_EQ(doc.size(), table.size()) << "docs/json.md lists " << doc.size() << " codes, the rules table "
                                      << table.size();
  for (size_t i = 0; i < table.size(); ++i) {
    const Rule& r = table[i];
    EXPECT_EQ(doc[i].code, r.code) << "row " << i + 1;
    EXPECT_EQ(doc[i].severity, severity_name(r.severity)) << r.code;
    EXPECT_EQ(doc[i].blocks, effect_name(r.effect)) << r.code;
    EXPECT_EQ(doc[i].when, r.description) << r.code;
  }
}
