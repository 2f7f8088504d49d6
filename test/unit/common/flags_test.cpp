#include "koord/common/flags.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "koord/common/program.hpp"
#include "koord/common/version.hpp"

namespace koord {
namespace {

FlagSet makeFlags() {
  FlagSet f("prog", "A test program.");
  f.addString("address", "127.0.0.1:80", "where to listen");
  f.addBool("dry-run", "do nothing");
  return f;
}

TEST(FlagSetTest, ParsesBothValueFormsBoolsAndPositionals) {
  FlagSet f = makeFlags();
  const char* argv[] = {"prog", "--address", "0.0.0.0:1", "--dry-run", "simulate", "x.yaml"};
  ASSERT_TRUE(f.parse(6, argv).isOk());
  EXPECT_EQ(f.get("address"), "0.0.0.0:1");
  EXPECT_TRUE(f.getBool("dry-run"));
  EXPECT_EQ(f.positional(), (std::vector<std::string>{"simulate", "x.yaml"}));

  FlagSet g = makeFlags();
  const char* argv2[] = {"prog", "--address=:9", "--dry-run=false"};
  ASSERT_TRUE(g.parse(3, argv2).isOk());
  EXPECT_EQ(g.get("address"), ":9");
  EXPECT_FALSE(g.getBool("dry-run"));
}

TEST(FlagSetTest, DefaultsApplyWhenAbsent) {
  FlagSet f = makeFlags();
  const char* argv[] = {"prog"};
  ASSERT_TRUE(f.parse(1, argv).isOk());
  EXPECT_EQ(f.get("address"), "127.0.0.1:80");
  EXPECT_FALSE(f.getBool("dry-run"));
}

TEST(FlagSetTest, ErrorsNameTheFlag) {
  FlagSet f = makeFlags();
  const char* unknown[] = {"prog", "--adress=1"};
  EXPECT_EQ(f.parse(2, unknown).message(), "unknown flag '--adress' (see --help)");
  FlagSet g = makeFlags();
  const char* missing[] = {"prog", "--address"};
  EXPECT_EQ(g.parse(2, missing).message(), "flag '--address' needs a value");
  FlagSet h = makeFlags();
  const char* badbool[] = {"prog", "--dry-run=yes"};
  EXPECT_EQ(h.parse(2, badbool).message(), "flag '--dry-run' expects true or false, got 'yes'");
}

TEST(ProgramTest, HelpVersionAndBadFlagsExitCodes) {
  auto body = [](const FlagSet&) { return 7; };
  {
    FlagSet f = makeFlags();
    std::ostringstream out, err;
    const char* argv[] = {"prog", "--help"};
    EXPECT_EQ(runProgram(f, "prog", 2, argv, body, out, err), 0);
    EXPECT_NE(out.str().find("Usage: prog [flags]"), std::string::npos);
    EXPECT_NE(out.str().find("--address=VALUE"), std::string::npos);
    EXPECT_NE(out.str().find("(default \"127.0.0.1:80\")"), std::string::npos);
  }
  {
    FlagSet f = makeFlags();
    std::ostringstream out, err;
    const char* argv[] = {"prog", "--version"};
    EXPECT_EQ(runProgram(f, "prog", 2, argv, body, out, err), 0);
    EXPECT_EQ(out.str(), std::string("prog ") + kVersion + "\n");
  }
  {
    FlagSet f = makeFlags();
    std::ostringstream out, err;
    const char* argv[] = {"prog", "--nope"};
    EXPECT_EQ(runProgram(f, "prog", 2, argv, body, out, err), 2);
    EXPECT_EQ(err.str(), "prog: unknown flag '--nope' (see --help)\n");
  }
  {
    FlagSet f = makeFlags();
    std::ostringstream out, err;
    const char* argv[] = {"prog"};
    EXPECT_EQ(runProgram(f, "prog", 1, argv, body, out, err), 7);
  }
}

}  // namespace
}  // namespace koord
