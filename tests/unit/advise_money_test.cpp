#include <gtest/gtest.h>

#include "advise/advise.hpp"

using namespace gpuscout;
using namespace gpuscout::advise;

namespace {
ExchangeRates rates() {
  auto r = load_rates();
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r.value_or(ExchangeRates{});
}
}  // namespace

TEST(AdviseMoney, RatesHaveADateAndUsdIsOne) {
  auto r = rates();
  EXPECT_EQ(r.date.size(), 10u);
  EXPECT_DOUBLE_EQ(r.units_per_usd.at("USD"), 1.0);
  EXPECT_GT(r.units_per_usd.at("CNY"), 1.0);
}

TEST(AdviseMoney, ParsesBudgets) {
  auto r = rates();
  auto m = parse_money("1500", r);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->currency, "USD");
  EXPECT_DOUBLE_EQ(m->amount, 1500);
  m = parse_money("7000CNY", r);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->currency, "CNY");
  m = parse_money("900 eur", r);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->currency, "EUR");
  m = parse_money("$1,200", r);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->amount, 1200);
  EXPECT_EQ(m->currency, "USD");
}

TEST(AdviseMoney, ConvertsToUsd) {
  ExchangeRates r;
  r.units_per_usd = {{"USD", 1.0}, {"CNY", 7.0}, {"EUR", 0.5}};
  EXPECT_DOUBLE_EQ(to_usd({7000, "CNY"}, r).value(), 1000);
  EXPECT_DOUBLE_EQ(to_usd({100, "EUR"}, r).value(), 200);
  EXPECT_DOUBLE_EQ(to_usd({100, "usd"}, r).value(), 100);
  EXPECT_FALSE(to_usd({100, "XYZ"}, r).has_value());
}

TEST(AdviseMoney, RejectsBadBudgets) {
  auto r = rates();
  for (const char* bad : {"-100", "0", "abc", "", "100XYZ", "1e400"}) {
    auto m = parse_money(bad, r);
    EXPECT_FALSE(m.has_value()) << bad;
  }
  auto m = parse_money("100XYZ", r);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("unknown currency 'XYZ'"), std::string::npos);
  EXPECT_NE(m.error().message.find("CNY"), std::string::npos);
}

TEST(AdviseMoney, BreakEvenMonths) {
  // 1000 / (1.0 x 100 - 0.5 kW x 100 h x 0.2) = 1000 / 90
  EXPECT_NEAR(break_even_months(1000, 1.0, 100, 500, 0.2).value(), 1000.0 / 90.0, 1e-9);
  EXPECT_NEAR(break_even_months(1000, 1.0, 100, 0, 0).value(), 10.0, 1e-9);
  // renting cheaper than the power: never pays back
  EXPECT_FALSE(break_even_months(1000, 0.05, 100, 500, 0.2).has_value());
  EXPECT_FALSE(break_even_months(0, 1.0, 100, 500, 0.2).has_value());
  EXPECT_FALSE(break_even_months(1000, 1.0, 0, 500, 0.2).has_value());
}

TEST(AdviseMoney, PricesFileConvertsAndNamesCatalogueRows) {
  auto r = rates();
  auto p = parse_prices("name,price,currency\nRTX 4090,14000,CNY\nGeForce RTX 3060 12GB,300,\n", "shop.csv", r);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_NEAR(p->at("GeForce RTX 4090"), 14000 / r.units_per_usd.at("CNY"), 1e-6);
  EXPECT_DOUBLE_EQ(p->at("GeForce RTX 3060 12GB"), 300);
}

TEST(AdviseMoney, PricesFileErrorsNameLineAndColumn) {
  auto r = rates();
  auto p = parse_prices("name,price\nRTX 4090,abc\n", "shop.csv", r);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("shop.csv:2: column 2 (price)"), std::string::npos) << p.error().message;
  p = parse_prices("name,price\nRTX 4090,100\nRTX 40900,100\n", "shop.csv", r);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("shop.csv:3: column 1 (name): unknown GPU 'RTX 40900'"), std::string::npos)
      << p.error().message;
  EXPECT_NE(p.error().message.find("did you mean"), std::string::npos);
  p = parse_prices("name,price\nRTX 4090,\"100\n", "shop.csv", r);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("shop.csv:2"), std::string::npos) << p.error().message;
  p = parse_prices("gpu,cost\nRTX 4090,100\n", "shop.csv", r);
  EXPECT_FALSE(p);
  p = parse_prices("name,price\nRTX 4090,-5\n", "shop.csv", r);
  EXPECT_FALSE(p);
}

TEST(AdviseMoney, GoalsAndOffers) {
  EXPECT_EQ(parse_goal("LLM").value(), Goal::llm);
  EXPECT_FALSE(parse_goal("gaming").has_value());
  auto offers = load_offers();
  ASSERT_TRUE(offers) << offers.error().message;
  sort_cheapest_first(*offers);
  ASSERT_FALSE(offers->empty());
  EXPECT_EQ(offers->front().kind, "free");
  for (size_t i = 1; i < offers->size(); ++i)
    if ((*offers)[i - 1].kind == (*offers)[i].kind)
      EXPECT_LE((*offers)[i - 1].usd_per_hour, (*offers)[i].usd_per_hour);
}

// "1500,00EUR" was read as 150000 EUR: the separators now mean what the digits around them say (core/units).
TEST(AdviseMoney, ReadsDecimalCommasAndThousandsCommas) {
  auto r = rates();
  const std::pair<const char*, double> cases[] = {{"1500,00EUR", 1500}, {"1.500,00 EUR", 1500}, {"1,500", 1500},
                                                  {"$12,345.50", 12345.5}, {"€1500,50", 1500.5}};
  for (const auto& [text, amount] : cases) {
    const auto m = parse_money(text, r);
    ASSERT_TRUE(m.has_value()) << text << ": " << m.error().message;
    EXPECT_DOUBLE_EQ(m->amount, amount) << text;
  }
  for (const char* bad : {"1,5EUR", "1.500EUR", "1,50,000", "1_500"}) {
    const auto m = parse_money(bad, r);
    ASSERT_FALSE(m.has_value()) << bad << " read as " << m->amount;
    EXPECT_NE(m.error().message.find(bad), std::string::npos) << m.error().message;
  }
}

TEST(AdviseMoney, PricesFileReadsTheSameForms) {
  auto r = rates();
  const auto p = parse_prices("name,price,currency\n\"RTX 4090\",\"1599,00\",EUR\n", "shop.csv", r);
  ASSERT_TRUE(p.has_value()) << p.error().message;
  ASSERT_EQ(p->size(), 1u);
  EXPECT_DOUBLE_EQ(p->begin()->second, to_usd({1599, "EUR"}, r).value());
  const auto bad = parse_prices("name,price\n\"RTX 4090\",\"1,5\"\n", "shop.csv", r);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("shop.csv:2: column 2 (price): '1,5'"), std::string::npos) << bad.error().message;
}
