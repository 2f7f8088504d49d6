#include "koord/common/command_args.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord {
namespace {

std::string parse(CommandArgs& args, std::vector<const char*> argv) {
  argv.insert(argv.begin(), "sub");
  return args.parse(static_cast<int>(argv.size()), argv.data());
}

CommandArgs kubectlLike() {
  return CommandArgs({{"-f", "--filename", true}, {"-o", "--output", false}, {"", "--now", false}});
}

TEST(CommandArgsTest, ShortLongEqualsAndRepeatedFlags) {
  CommandArgs args = kubectlLike();
  ASSERT_EQ(parse(args, {"-f", "a.yaml", "--filename=b.yaml", "--filename", "c.yaml", "-o", "json",
                         "--output=yaml", "--now", "t"}),
            "");
  EXPECT_EQ(args.values("--filename"), (std::vector<std::string>{"a.yaml", "b.yaml", "c.yaml"}));
  EXPECT_EQ(args.value("--output", "table"), "yaml");  // the last one wins
  EXPECT_EQ(args.value("--now", ""), "t");
  EXPECT_FALSE(args.help());
}

TEST(CommandArgsTest, DefaultsAndHelp) {
  CommandArgs args = kubectlLike();
  ASSERT_EQ(parse(args, {"-h"}), "");
  EXPECT_TRUE(args.help());
  EXPECT_TRUE(args.values("--filename").empty());
  EXPECT_EQ(args.value("--output", "table"), "table");
}

TEST(CommandArgsTest, UnknownArgumentsAndMissingValuesAreNamed) {
  CommandArgs a = kubectlLike();
  EXPECT_EQ(parse(a, {"-f", "x", "--bogus"}), "unknown argument '--bogus'");
  CommandArgs b = kubectlLike();
  EXPECT_EQ(parse(b, {"-o"}), "flag -o needs a value");
  CommandArgs c = kubectlLike();
  EXPECT_EQ(parse(c, {"-now=x"}), "unknown argument '-now=x'");  // "=" only after "--"
  CommandArgs d = kubectlLike();
  EXPECT_EQ(parse(d, {"positional"}), "unknown argument 'positional'");
}

}  // namespace
}  // namespace koord
