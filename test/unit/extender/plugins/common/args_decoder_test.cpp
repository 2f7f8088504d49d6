#include "extender/plugins/common/args_decoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::extender::plugins::common {
namespace {

struct Case {
  std::string name;
  std::string args;
  std::vector<std::string> want_errors;  // substrings, each on its own line; empty: ok
};

TEST(ArgsDecoderTest, ReportsEveryProblemWithItsPath) {
  const std::vector<Case> cases = {
      {"null means defaults", "null", {}},
      {"empty object", "{}", {}},
      {"known fields", R"({"flag":true,"mode":"x","names":["a"]})", {}},
      {"not an object", "[1]", {"args: expected object, got array"}},
      {"unknown field", R"({"flg":true})", {"args.flg: unknown field"}},
      {"wrong types and unknown, all reported",
       R"({"flag":"yes","mode":3,"names":["a",2],"extra":1})",
       {"args.flag: expected boolean, got string", "args.mode: expected string, got number",
        "args.names[1]: expected string, got number", "args.extra: unknown field"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto json = api::parseJson(c.args);
    ASSERT_TRUE(json.ok());
    bool flag = false;
    std::string mode;
    std::vector<std::string> names;
    ArgsDecoder decoder(*json, "Demo");
    decoder.optionalBool("flag", flag)
        .optionalString("mode", mode)
        .optionalStringList("names", names);
    Status status = decoder.finish();
    if (c.want_errors.empty()) {
      EXPECT_TRUE(status.isOk()) << status;
      continue;
    }
    ASSERT_EQ(status.code(), StatusCode::kInvalidArgument);
    for (const auto& want : c.want_errors) {
      EXPECT_NE(status.message().find("failed to decode args of plugin 'Demo': " + want),
                std::string::npos)
          << status.message();
    }
    EXPECT_EQ(std::count(status.message().begin(), status.message().end(), '\n') + 1,
              static_cast<long>(c.want_errors.size()))
        << status.message();
  }
}

TEST(ArgsDecoderTest, KeepsDefaultsWhenAbsentAndReadsValues) {
  auto json = api::parseJson(R"({"flag":true,"names":["x","y"]})");
  ASSERT_TRUE(json.ok());
  bool flag = false;
  std::string mode = "default";
  std::vector<std::string> names;
  bool present = false;
  ArgsDecoder decoder(*json, "Demo");
  decoder.optionalBool("flag", flag)
      .optionalString("mode", mode)
      .optionalStringList("names", names, &present);
  ASSERT_TRUE(decoder.finish().isOk());
  EXPECT_TRUE(flag);
  EXPECT_EQ(mode, "default");
  EXPECT_TRUE(present);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y"}));
}

}  // namespace
}  // namespace koord::extender::plugins::common
