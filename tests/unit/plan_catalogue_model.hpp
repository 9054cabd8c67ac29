#pragma once
// The shape of a built-in catalogue model, for the plan tests; a missing name fails the test that asked.
#include <gtest/gtest.h>

#include "plan/catalogue.hpp"

namespace gpuscout::plan {

inline ModelShape catalogue_model(const char* name) {
  auto e = find_model(name);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? e->shape : ModelShape{};
}

}  // namespace gpuscout::plan
