#include <gtest/gtest.h>
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

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

// Issue 13: the forms a learner in China types, and every other currency's usual sign.
TEST(AdviseMoney, ReadsYuanAndOtherSignsAsTyped) {
  auto r = rates();
  const std::tuple<const char*, double, const char*> cases[] = {
      {"3000元", 3000, "CNY"},  {"¥3000", 3000, "CNY"},   {"￥3000", 3000, "CNY"},    {"3000RMB", 3000, "CNY"},
      {"3000 CNY", 3000, "CNY"}, {"3000cny", 3000, "CNY"}, {"３０００元", 3000, "CNY"}, {"3000 人民币", 3000, "CNY"},
      {"€900", 900, "EUR"},      {"£800", 800, "GBP"},     {"US$1500", 1500, "USD"},   {"$1500", 1500, "USD"},
      {"₹90000", 90000, "INR"},  {"₩2000000", 2000000, "KRW"}, {"5000円", 5000, "JPY"}, {"150000JPY", 150000, "JPY"},
      {"A$2000", 2000, "AUD"},   {"HK$9000", 9000, "HKD"}};
  for (const auto& [text, amount, currency] : cases) {
    const auto m = parse_money(text, r);
    ASSERT_TRUE(m.has_value()) << text << ": " << m.error().message;
    EXPECT_DOUBLE_EQ(m->amount, amount) << text;
    EXPECT_EQ(m->currency, currency) << text;
  }
  EXPECT_TRUE(parse_money("¥3000", r)->yen_sign_read_as_cny);
  EXPECT_FALSE(parse_money("￥3000", r)->yen_sign_read_as_cny);  // the IME's full-width sign is unambiguous
  EXPECT_FALSE(parse_money("3000元", r)->yen_sign_read_as_cny);
}

TEST(AdviseMoney, RefusesTwoCurrenciesAndNamesTheInput) {
  auto r = rates();
  for (const char* bad : {"¥3000USD", "3000元EUR", "$3000元", "元", "￥", "3000XYZ", "-3000元"}) {
    const auto m = parse_money(bad, r);
    ASSERT_FALSE(m.has_value()) << bad << " read as " << m->amount << " " << m->currency;
    EXPECT_NE(m.error().message.find(bad), std::string::npos) << m.error().message;
  }
}

TEST(AdviseMoney, FormatsInTheBudgetsCurrency) {
  auto r = rates();
  const auto cny = display_for("CNY", r);
  EXPECT_EQ(cny.symbol, "¥");
  EXPECT_EQ(format_money(1000, cny), "¥" + [&] {
    std::string s = fmt::format("{:.0f}", 1000 * r.units_per_usd.at("CNY"));
    return s.substr(0, s.size() - 3) + "," + s.substr(s.size() - 3);
  }());
  EXPECT_EQ(format_money(1599, display_for("USD", r)), "$1,599");
  // Every length of number groups by threes from the right (five digits were "1,4,518").
  const Display usd;
  EXPECT_EQ(format_money(7, usd), "$7");
  EXPECT_EQ(format_money(999, usd), "$999");
  EXPECT_EQ(format_money(14518, usd), "$14,518");
  EXPECT_EQ(format_money(145180, usd), "$145,180");
  EXPECT_EQ(format_money(1234567, usd), "$1,234,567");
  EXPECT_EQ(format_money(-14518, usd), "$-14,518");
  EXPECT_EQ(format_local(2.0, 2.8, "CNY", cny), "¥2.00-2.80");
  EXPECT_EQ(format_local(2.5, std::nullopt, "XYZ", cny), "XYZ 2.50");
}

TEST(AdviseRegion, ChinaFirstOrTheRestFirst) {
  auto offers = load_offers();
  ASSERT_TRUE(offers) << offers.error().message;
  EXPECT_EQ(parse_region("CN").value(), "cn");
  EXPECT_EQ(parse_region("中国").value(), "cn");
  EXPECT_EQ(parse_region("global").value(), "global");
  EXPECT_FALSE(parse_region("mars").has_value());
  for (const std::string region : {"cn", "global"}) {
    auto list = *offers;
    order_for_region(list, region);
    ASSERT_TRUE(in_region(list.front(), region)) << region;
    bool left = false;  // once an offer of another region appears, none of this region follows
    for (const auto& o : list) {
      if (!in_region(o, region)) left = true;
      else EXPECT_FALSE(left) << region << ": " << o.provider << " after another region's offers";
    }
    EXPECT_TRUE(left) << region << ": the table has offers of both regions";
  }
  // A CNY price is converted for sorting, and a range is kept as published.
  const auto autodl = std::find_if(offers->begin(), offers->end(), [](const Offer& o) { return o.provider == "AutoDL"; });
  ASSERT_NE(autodl, offers->end());
  EXPECT_EQ(autodl->currency, "CNY");
  ASSERT_TRUE(autodl->price_per_hour && autodl->price_max_per_hour);
  EXPECT_NEAR(autodl->usd_per_hour, *autodl->price_per_hour / rates().units_per_usd.at("CNY"), 1e-9);
}
