#include <gtest/gtest.h>

#include "advise/advise.hpp"
#include "core/units.hpp"

using namespace gpuscout;
using namespace gpuscout::advise;

namespace {

catalog::GpuSpec gpu(std::string name, uint64_t mem_gib, double bf16, double price, double bw = 500,
                     std::string form = "desktop") {
  catalog::GpuSpec g;
  g.vendor = "nvidia";
  g.name = std::move(name);
  g.memory_bytes = mem_gib * units::GiB;
  g.bf16_tensor_tflops = bf16;
  g.memory_bandwidth_gbs = bw;
  g.launch_price_usd = price;
  g.launch_year = 2022;
  g.tdp_w = 300;
  g.form_factor = std::move(form);
  return g;
}

Offer offer(std::string gpu_name, double usd, uint64_t mem_gib) {
  Offer o;
  o.kind = "paid";
  o.provider = "P";
  o.offer = gpu_name;
  o.gpu = std::move(gpu_name);
  o.usd_per_hour = usd;
  o.memory_bytes = mem_gib * units::GiB;
  o.date = "2026-09-09";
  return o;
}

}  // namespace

TEST(AdviseRank, RanksByPerformancePerPriceWithinBudgetAndMemory) {
  std::vector<catalog::GpuSpec> gpus = {gpu("A", 24, 100, 2000), gpu("B", 16, 60, 800), gpu("C", 8, 40, 300),
                                        gpu("D", 48, 200, 6000), gpu("L", 16, 90, 100, 500, "laptop")};
  Request req;
  req.need_bytes = 12 * units::GiB;
  req.need_basis = "test";
  req.budget_usd = 2500;
  auto a = advise::advise(req, gpus, {}, nullptr);
  ASSERT_EQ(a.recommendations.size(), 2u);  // C too small, D over budget, L is a laptop part
  EXPECT_EQ(a.recommendations[0].gpu->name, "B");  // 75 per $1000 vs 50
  EXPECT_NEAR(a.recommendations[0].score, 75.0, 1e-9);
  EXPECT_EQ(a.recommendations[1].gpu->name, "A");
  bool explains_loss = false;
  for (const auto& r : a.recommendations[1].reasons) explains_loss |= r.find("ranked below B") != std::string::npos;
  EXPECT_TRUE(explains_loss);
}

TEST(AdviseRank, SaysLaunchPriceWhenNoStreetPrice) {
  std::vector<catalog::GpuSpec> gpus = {gpu("A", 24, 100, 2000)};
  auto a = advise::advise(Request{}, gpus, {}, nullptr);
  ASSERT_EQ(a.recommendations.size(), 1u);
  EXPECT_EQ(a.recommendations[0].price_basis, "price: launch price 2022, no street price on file");
}

TEST(AdviseRank, PricesOverrideAndLlmUsesBandwidth) {
  std::vector<catalog::GpuSpec> gpus = {gpu("A", 24, 100, 2000, 1000), gpu("B", 24, 200, 2000, 500)};
  Request req;
  req.goal = Goal::llm;
  auto a = advise::advise(req, gpus, {}, nullptr);
  ASSERT_EQ(a.recommendations.size(), 2u);
  EXPECT_EQ(a.recommendations[0].gpu->name, "A");
  req.prices_usd["A"] = 10000;
  a = advise::advise(req, gpus, {}, nullptr);
  EXPECT_EQ(a.recommendations[0].gpu->name, "B");
  EXPECT_EQ(a.recommendations[1].price_basis, "price: from --prices");
}

TEST(AdviseRank, NoBudgetRanksAllAndRentIsCheapestFirst) {
  std::vector<catalog::GpuSpec> gpus = {gpu("A", 24, 100, 2000), gpu("B", 32, 100, 3000)};
  std::vector<Offer> offers = {offer("X", 2.0, 80), offer("Y", 0.5, 24), offer("Z", 0.1, 8)};
  Request req;
  req.need_bytes = 16 * units::GiB;
  auto a = advise::advise(req, gpus, offers, nullptr);
  EXPECT_EQ(a.recommendations.size(), 2u);
  ASSERT_EQ(a.rent.size(), 2u);  // Z has too little memory
  EXPECT_EQ(a.rent[0].gpu, "Y");
  EXPECT_EQ(a.rent[1].gpu, "X");
}

TEST(AdviseRank, LaptopAndMixedGpusGetInventoryNotes) {
  std::vector<catalog::GpuSpec> gpus = {gpu("A", 24, 100, 2000)};
  Inventory inv;
  inv.platform.kind = "laptop";
  inv.platform.laptop = true;
  advise::Offer kaggle;  // the free tiers named come from the table (here one row)
  kaggle.kind = "free";
  kaggle.provider = "Kaggle";
  kaggle.region = "global";
  auto a = advise::advise(Request{}, gpus, {kaggle}, &inv);
  bool laptop_note = false, free_note = false;
  for (const auto& n : a.notes) {
    laptop_note |= n.find("cannot take a desktop GPU") != std::string::npos;
    free_note |= n.find("Kaggle") != std::string::npos;
  }
  EXPECT_TRUE(laptop_note);
  EXPECT_TRUE(free_note);

  Inventory server;
  server.platform.kind = "server";
  Gpu g1, g2;
  g1.name = "big";
  g1.memory_total_bytes = 24 * units::GiB;
  g2.name = "small";
  g2.memory_total_bytes = 12 * units::GiB;
  server.gpus = {g1, g2};
  a = advise::advise(Request{}, gpus, {}, &server);
  bool smallest = false;
  for (const auto& n : a.notes) smallest |= n.find("smallest card") != std::string::npos;
  EXPECT_TRUE(smallest);
}

TEST(AdviseRank, RealCatalogueRanksSomethingForEveryGoal) {
  for (Goal g : {Goal::learn, Goal::build, Goal::research, Goal::llm}) {
    Request req;
    req.goal = g;
    auto a = advise::advise(req, catalog::gpus(), {}, nullptr);
    EXPECT_FALSE(a.recommendations.empty()) << name(g);
    EXPECT_FALSE(a.catalogue_date.empty());
    for (const auto& r : a.recommendations) EXPECT_GE(*r.gpu->memory_bytes, a.need_bytes);
  }
}

TEST(AdviseRank, BreakEvenUsesComparableRental) {
  std::vector<catalog::GpuSpec> gpus = catalog::gpus();
  Request req;
  req.goal = Goal::research;
  req.hours_per_week = 40;
  auto offers = load_offers();
  ASSERT_TRUE(offers.has_value()) << offers.error().message;
  auto a = advise::advise(req, gpus, *offers, nullptr);
  ASSERT_FALSE(a.recommendations.empty());
  EXPECT_FALSE(a.break_even_text.empty());
}
