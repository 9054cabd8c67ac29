// Exact parameter counts from architecture numbers: the catalogue, the issue's reference counts, MoE, generic.
#include <set>

#include <gtest/gtest.h>

#include "plan/catalogue.hpp"
#include "plan/model_shape.hpp"

using namespace gpuscout;
using namespace gpuscout::plan;

namespace {
uint64_t params_of(const char* name) {
  auto e = find_model(name);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? count_params(e->shape).total : 0;
}
}  // namespace

TEST(PlanParams, IssueReferenceCounts) {
  EXPECT_EQ(params_of("llama-2-7b"), 6'738'415'616ULL);
  EXPECT_EQ(params_of("llama-3-8b"), 8'030'261'248ULL);
  EXPECT_EQ(params_of("qwen2.5-7b"), 7'615'616'512ULL);
}

TEST(PlanParams, EveryCatalogueRowMatchesItsPublishedCount) {
  auto all = load_catalogue();
  ASSERT_TRUE(all.has_value()) << all.error().message;
  EXPECT_GE(all->size(), 30u);
  for (const auto& e : *all) {
    EXPECT_EQ(count_params(e.shape).total, e.published_params) << e.name;
    EXPECT_FALSE(e.source.empty()) << e.name;
    EXPECT_EQ(e.date.size(), 10u) << e.name;
  }
}

TEST(PlanParams, CatalogueNamesAreUnique) {
  auto all = load_catalogue();
  ASSERT_TRUE(all.has_value());
  std::set<std::string> seen;
  for (const auto& e : *all) {
    EXPECT_TRUE(seen.insert(e.name).second) << e.name;
    for (const auto& a : e.aliases) EXPECT_TRUE(seen.insert(a).second) << a;
  }
}

TEST(PlanParams, FindsByAliasAndHubIdCaseInsensitively) {
  EXPECT_EQ(find_model("Meta-Llama-3-8B")->name, "llama-3-8b");
  EXPECT_EQ(find_model("meta-llama/Meta-Llama-3-8B")->name, "llama-3-8b");
  EXPECT_EQ(find_model("GPT2-small")->name, "gpt2");
}

TEST(PlanParams, UnknownModelSuggestsNeighbours) {
  auto r = find_model("llama-3-9b");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("llama-3-8b"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("--params"), std::string::npos);
}

TEST(PlanParams, MixtureOfExpertsCountsActiveParameters) {
  auto e = find_model("mixtral-8x7b");
  ASSERT_TRUE(e.has_value());
  const auto c = count_params(e->shape);
  EXPECT_EQ(c.total, 46'702'792'704ULL);
  // 2 of 8 experts per token: 12.9B active, as Mistral AI states.
  EXPECT_EQ(c.active, 12'879'925'248ULL);
}

TEST(PlanParams, SplitIntoLinearEmbeddingAndOther) {
  auto e = find_model("llama-2-7b");
  ASSERT_TRUE(e.has_value());
  const auto c = count_params(e->shape);
  EXPECT_EQ(c.embedding, 2ULL * 32000 * 4096);  // embed_tokens + untied lm_head
  EXPECT_EQ(c.other, 32ULL * 2 * 4096 + 4096);  // RMSNorm weights
  EXPECT_EQ(c.linear + c.embedding + c.other, c.total);
  EXPECT_EQ(c.per_layer, 202'383'360ULL);
}

TEST(PlanParams, TiedEmbeddingsCountOnce) {
  auto e = find_model("qwen2.5-0.5b");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(count_params(e->shape).embedding, 151936ULL * 896);
}

TEST(PlanParams, ResnetIsAFixedCount) {
  auto e = find_model("resnet-50");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->shape.arch, Arch::fixed);
  EXPECT_EQ(count_params(e->shape).total, 25'557'032ULL);
}

TEST(PlanParams, GenericShapeKeepsTheAskedCount) {
  for (uint64_t p : {125'000'000ULL, 1'000'000'000ULL, 7'000'000'000ULL, 70'000'000'000ULL, 405'000'000'000ULL}) {
    const auto s = generic_shape(p);
    const auto c = count_params(s);
    EXPECT_EQ(c.total, p);
    EXPECT_GT(s.num_layers, 0u);
    EXPECT_EQ(s.num_heads * s.head_dim, s.hidden_size);
    // Without the override the shape itself lands within 10% of the ask.
    auto raw = s;
    raw.params_override.reset();
    const double ratio = double(count_params(raw).total) / double(p);
    EXPECT_NEAR(ratio, 1.0, 0.10) << p;
  }
}

TEST(PlanParams, ViTPatchesGiveTheSequence) {
  auto e = find_model("vit-b-16");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(tokens_per_sample(e->shape, 4096), 197u);
}
