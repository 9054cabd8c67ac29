#include "core/i18n.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace gpuscout::i18n {
namespace {

Language from(const std::map<std::string, std::string>& env) {
  return from_environment([&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(I18nEnvironment, FollowsGettextsOrder) {
  EXPECT_EQ(from({}), Language::en);
  EXPECT_EQ(from({{"LANG", "zh_CN.UTF-8"}}), Language::zh);
  EXPECT_EQ(from({{"LANG", "zh_CN.UTF-8"}, {"LC_ALL", "C"}}), Language::en);
  EXPECT_EQ(from({{"LANG", "en_US.UTF-8"}, {"LC_MESSAGES", "zh_TW.UTF-8"}}), Language::zh);
  EXPECT_EQ(from({{"LC_ALL", "C.UTF-8"}, {"LANGUAGE", "zh_CN:en"}}), Language::zh);
  // LANGUAGE's first entry that gpuscout has wins; one it lacks is skipped.
  EXPECT_EQ(from({{"LANGUAGE", "de:en:zh"}, {"LANG", "zh_CN.UTF-8"}}), Language::en);
  EXPECT_EQ(from({{"LANGUAGE", "fr"}, {"LANG", "zh_CN.UTF-8"}}), Language::zh);
  EXPECT_EQ(from({{"LANGUAGE", ""}, {"LANG", "zh"}}), Language::zh);
  EXPECT_EQ(from({{"LANG", ""}}), Language::en);
}

TEST(I18nFlag, AcceptsTheUsualNames) {
  for (const char* zh : {"zh", "ZH", "zh_CN", "zh-CN", "zh_CN.UTF-8", "cn", "chinese", "中文"})
    EXPECT_EQ(parse_language(zh), Language::zh) << zh;
  for (const char* en : {"en", "EN", "en_US", "english"}) EXPECT_EQ(parse_language(en), Language::en) << en;
  for (const char* bad : {"", "xx", "de", "zhx"}) EXPECT_FALSE(parse_language(bad)) << bad;
}

TEST(I18nTr, EnglishUntilChosen) {
  EXPECT_EQ(current(), Language::en);
  EXPECT_STREQ(tr("Language of the output: zh (中文) or en; default from LANGUAGE, LC_ALL, LC_MESSAGES, LANG"),
               "Language of the output: zh (中文) or en; default from LANGUAGE, LC_ALL, LC_MESSAGES, LANG");
  EXPECT_EQ(trf("{} GiB", 16), "16 GiB");
  EXPECT_STREQ(html_lang(), "en");
}

}  // namespace
}  // namespace gpuscout::i18n
