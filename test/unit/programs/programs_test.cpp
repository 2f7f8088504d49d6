// The three programs' command lines: --help, --version, bad flags and bad logging flags.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "agent/app/agent_app.hpp"
#include "extender/app/extender_app.hpp"
#include "koord/common/version.hpp"
#include "manager/app/manager_app.hpp"

namespace koord {
namespace {

using RunFn = std::function<int(int, const char* const*, std::ostream&, std::ostream&)>;

struct Program {
  const char* name;
  RunFn run;
};

const std::vector<Program>& programs() {
  static const std::vector<Program> kPrograms = {
      {"koord-extender", extender::app::runExtender},
      {"koord-agent", agent::app::runAgent},
      {"koord-manager", manager::app::runManager},
  };
  return kPrograms;
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome run(const Program& p, std::vector<const char*> args) {
  args.insert(args.begin(), p.name);
  std::ostringstream out, err;
  int code = p.run(static_cast<int>(args.size()), args.data(), out, err);
  return {code, out.str(), err.str()};
}

TEST(ProgramsTest, VersionPrintsNameAndVersion) {
  for (const auto& p : programs()) {
    Outcome o = run(p, {"--version"});
    EXPECT_EQ(o.code, 0) << p.name;
    EXPECT_EQ(o.out, std::string(p.name) + " " + kVersion + "\n");
  }
}

TEST(ProgramsTest, HelpListsTheCommonFlags) {
  for (const auto& p : programs()) {
    Outcome o = run(p, {"--help"});
    EXPECT_EQ(o.code, 0) << p.name;
    EXPECT_EQ(o.out.rfind(std::string("Usage: ") + p.name, 0), 0U) << o.out;
    for (const char* flag :
         {"--kubeconfig=VALUE", "--log-level=VALUE", "--log-format=VALUE", "--help", "--version"}) {
      EXPECT_NE(o.out.find(flag), std::string::npos) << p.name << " lacks " << flag;
    }
  }
}

TEST(ProgramsTest, UnknownFlagExitsTwoWithAHint) {
  for (const auto& p : programs()) {
    Outcome o = run(p, {"--no-such-flag"});
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.err, std::string(p.name) + ": unknown flag '--no-such-flag' (see --help)\n");
  }
}

TEST(ProgramsTest, BadLogLevelIsRejectedNamingTheFlag) {
  for (const auto& p : programs()) {
    Outcome o = run(p, {"--log-level=verbose"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("--log-level: failed to parse log level 'verbose'"), std::string::npos)
        << o.err;
    Outcome f = run(p, {"--log-format=xml"});
    EXPECT_EQ(f.code, 2);
    EXPECT_NE(f.err.find("--log-format: "), std::string::npos) << f.err;
  }
}

TEST(ProgramsTest, JsonLoggingWritesOneObjectPerLine) {
  for (const auto& p : programs()) {
    Outcome o = run(p, {"--log-format=json"});
    EXPECT_EQ(o.code, 1);
    EXPECT_EQ(o.err.rfind("{\"ts\":", 0), 0U) << o.err;
    EXPECT_NE(o.err.find("\"level\":\"error\""), std::string::npos) << o.err;
  }
}

TEST(ProgramsTest, ManagerHelpNamesItsControllersAndFlags) {
  Outcome o = run(programs()[2], {"--help"});
  EXPECT_EQ(o.code, 0);
  for (const char* text :
       {"nodeslo", "nodedevice", "Not built yet: docs/compatibility.md", "--leader-elect=VALUE",
        "(default \"koord-manager\")", "(default \"koordinator-system\")", "(default \"15s\")",
        "--listen-address=VALUE"}) {
    EXPECT_NE(o.out.find(text), std::string::npos) << "lacks " << text << ":\n" << o.out;
  }
}

TEST(ProgramsTest, ManagerRejectsBadLeaderElectionFlagsNamingThem) {
  Outcome o = run(programs()[2], {"--leader-elect=maybe", "--leader-elect-retry-period=soon",
                                  "--listen-address=8000"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("invalid --leader-elect 'maybe'"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("invalid --leader-elect-retry-period 'soon'"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("invalid --listen-address '8000'"), std::string::npos) << o.err;
  Outcome d =
      run(programs()[2], {"--leader-elect-lease-duration=5s", "--leader-elect-renew-deadline=6s"});
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.err.find("--leader-elect-lease-duration must be longer than"), std::string::npos)
      << d.err;
}

}  // namespace
}  // namespace koord
