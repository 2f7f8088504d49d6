#include "agent/system/resctrl.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::system {
namespace {

namespace fs = std::filesystem;
using testing::FakeRoot;
using ::testing::HasSubstr;

constexpr const char* kResctrl = "sys/fs/resctrl/";

std::string readCapture(const std::string& capture, const std::string& file) {
  std::ifstream in(testing::captureDir(capture) / file);
  EXPECT_TRUE(in) << "cannot open " << (testing::captureDir(capture) / file);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

bool hasWord(const std::string& text, const std::string& word) {
  std::istringstream words(text);
  std::string each;
  while (words >> each) {
    if (each == word) {
      return true;
    }
  }
  return false;
}

// Two processors, as /proc/cpuinfo prints them; `flags` is the first one's flag list.
std::string cpuinfo(const std::string& vendor_id, const std::string& flags) {
  std::string out;
  for (int cpu = 0; cpu < 2; ++cpu) {
    out += "processor\t: " + std::to_string(cpu) + "\nvendor_id\t: " + vendor_id +
           "\ncpu family\t: 6\nmodel name\t: Test CPU\nflags\t\t: " +
           (cpu == 0 ? flags : std::string("fpu")) + "\nbugs\t\t: spectre_v1\n\n";
  }
  return out;
}

// A mounted resctrl tree: schemata, and info/L3 and info/MB with the given values ("" leaves the
// file out).
void writeResctrl(const FakeRoot& root, const std::string& schemata, const std::string& num_closids,
                  const std::string& cbm_mask, const std::string& min_bandwidth) {
  const std::string dir = kResctrl;
  root.write(dir + "schemata", schemata);
  root.write(dir + "tasks", "1\n");
  const std::vector<std::pair<std::string, std::string>> files = {
      {"info/L3/num_closids", num_closids},
      {"info/L3/cbm_mask", cbm_mask},
      {"info/MB/min_bandwidth", min_bandwidth},
  };
  for (const auto& [file, value] : files) {
    if (!value.empty()) {
      root.write(dir + file, value + "\n");
    }
  }
}

// Neither captured host has resctrl mounted (sys/resctrl.txt is `ls`'s error) nor any RDT flag
// (sys/rdt-flags.txt, the RDT words of the flags line, is empty); the epyc's flags hold `rdtscp`,
// which is not `rdt_a`.
TEST(ResctrlTest, CapturesGolden) {
  struct Case {
    const char* capture;
    const char* vendor;
  };
  for (const Case& c : {Case{"epyc-2cpu-cgroup1", "AMD"}, Case{"h200-gpu-cgroup2", "Intel"}}) {
    SCOPED_TRACE(c.capture);
    const std::string rdt_flags = readCapture(c.capture, "sys/rdt-flags.txt");
    const std::string resctrl = readCapture(c.capture, "sys/resctrl.txt");
    ASSERT_THAT(resctrl, HasSubstr("cannot access '/sys/fs/resctrl'"));
    FakeRoot root;
    root.write("proc/cpuinfo", readCapture(c.capture, "proc/cpuinfo"));
    auto support = discoverResctrl(SysPaths::under(root.path()));
    ASSERT_TRUE(support.ok()) << support.status();
    EXPECT_EQ(support->vendor, c.vendor);
    EXPECT_EQ(support->cpu_rdt, hasWord(rdt_flags, "rdt_a"));
    EXPECT_EQ(support->cpu_cat_l3, hasWord(rdt_flags, "cat_l3"));
    EXPECT_EQ(support->cpu_mba, hasWord(rdt_flags, "mba"));
    EXPECT_EQ(*support, (ResctrlSupport{c.vendor, false, false, false, false, 0, "", 0}));
    EXPECT_FALSE(support->supported());
  }
}

TEST(ResctrlTest, MountedSynthetic) {
  struct Case {
    const char* name;
    std::function<void(const FakeRoot&)> build;
    ResctrlSupport want;
    bool supported = false;
  };
  const std::vector<Case> cases = {
      {"Intel with CAT and MBA",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo",
                 cpuinfo("GenuineIntel", "fpu rdtscp cat_l3 cdp_l3 rdt_a mba cqm_llc"));
         writeResctrl(r, "L3:0=7ff;1=7ff\nMB:0=100;1=100\n", "16", "7ff", "10");
       },
       {"Intel", true, true, true, true, 16, "7ff", 10},
       true},
      {"AMD with L3 allocation and no rdt_a",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("AuthenticAMD", "fpu cat_l3 cdp_l3 mba cqm_mbm_total"));
         writeResctrl(r, "L3:0=ffff\nMB:0=2048\n", "16", "ffff", "0");
       },
       {"AMD", true, true, false, true, 16, "ffff", 0},
       true},
      {"L3 allocation only, no MB info",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "cat_l3 rdt_a"));
         writeResctrl(r, "L3:0=fffff\n", "15", "fffff", "");
       },
       {"Intel", true, false, true, true, 15, "fffff", 0},
       true},
      {"MBA only, no L3 info",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "rdt_a mba"));
         writeResctrl(r, "MB:0=100\n", "", "", "10");
       },
       {"Intel", false, true, true, true, 0, "", 10},
       true},
      {"mounted, but the CPU offers neither flag",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "rdt_a cqm_llc"));
         writeResctrl(r, "", "", "", "");
       },
       {"Intel", false, false, true, true, 0, "", 0},
       false},
      {"flags, but not mounted (empty mount point)",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "rdt_a cat_l3 mba"));
         fs::create_directories(r.path() / kResctrl / "info/L3");
         r.write(std::string(kResctrl) + "info/L3/num_closids", "16\n");
       },
       {"Intel", true, true, true, false, 0, "", 0},
       false},
      {"flags are whole words",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "rdt_ab xcat_l3 mba_x rdtscp"));
         writeResctrl(r, "", "", "", "");
       },
       {"Intel", false, false, false, true, 0, "", 0},
       false},
      {"only the first processor counts",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo", cpuinfo("AuthenticAMD", "fpu") +
                                     "processor\t: 2\nvendor_id\t: GenuineIntel\nflags\t: "
                                     "cat_l3 mba\n");
         writeResctrl(r, "L3:0=ff\n", "", "", "");
       },
       {"AMD", false, false, false, true, 0, "", 0},
       false},
      {"other vendors are kept as written",
       [](const FakeRoot& r) { r.write("proc/cpuinfo", cpuinfo("HygonGenuine", "cat_l3")); },
       {"HygonGenuine", true, false, false, false, 0, "", 0},
       false},
      {"no vendor_id (arm64)",
       [](const FakeRoot& r) {
         r.write("proc/cpuinfo",
                 "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: "
                 "0x41\n\n");
       },
       {"", false, false, false, false, 0, "", 0},
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    c.build(root);
    auto support = discoverResctrl(SysPaths::under(root.path()));
    ASSERT_TRUE(support.ok()) << support.status();
    EXPECT_EQ(support->vendor, c.want.vendor);
    EXPECT_EQ(support->cpu_cat_l3, c.want.cpu_cat_l3);
    EXPECT_EQ(support->cpu_mba, c.want.cpu_mba);
    EXPECT_EQ(support->cpu_rdt, c.want.cpu_rdt);
    EXPECT_EQ(support->mounted, c.want.mounted);
    EXPECT_EQ(support->num_closids, c.want.num_closids);
    EXPECT_EQ(support->l3_cbm_mask, c.want.l3_cbm_mask);
    EXPECT_EQ(support->mba_min_bandwidth, c.want.mba_min_bandwidth);
    EXPECT_EQ(support->supported(), c.supported);
  }
}

TEST(ResctrlTest, ErrorsNameTheFile) {
  struct Case {
    const char* name;
    std::function<void(const FakeRoot&)> build;
    StatusCode code;
    const char* file;  // relative to the fake root
    const char* cause;
  };
  const auto intel = [](const FakeRoot& r) {
    r.write("proc/cpuinfo", cpuinfo("GenuineIntel", "rdt_a cat_l3 mba"));
  };
  const std::vector<Case> cases = {
      {"no cpuinfo", [](const FakeRoot& r) { writeResctrl(r, "L3:0=ff\n", "16", "ff", "10"); },
       StatusCode::kNotFound, "proc/cpuinfo", "No such file or directory"},
      {"num_closids not a number",
       [&](const FakeRoot& r) {
         intel(r);
         writeResctrl(r, "L3:0=ff\n", "sixteen", "ff", "10");
       },
       StatusCode::kInvalidArgument, "sys/fs/resctrl/info/L3/num_closids",
       "expected an integer, got 'sixteen'"},
      {"min_bandwidth not a number",
       [&](const FakeRoot& r) {
         intel(r);
         writeResctrl(r, "L3:0=ff\n", "16", "ff", "10%");
       },
       StatusCode::kInvalidArgument, "sys/fs/resctrl/info/MB/min_bandwidth",
       "expected an integer, got '10%'"},
      {"cbm_mask is a folder",
       [&](const FakeRoot& r) {
         intel(r);
         writeResctrl(r, "L3:0=ff\n", "16", "", "10");
         fs::create_directories(r.path() / kResctrl / "info/L3/cbm_mask");
       },
       StatusCode::kInvalidArgument, "sys/fs/resctrl/info/L3/cbm_mask", "is a directory"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    c.build(root);
    auto support = discoverResctrl(SysPaths::under(root.path()));
    ASSERT_FALSE(support.ok());
    EXPECT_EQ(support.status().code(), c.code);
    EXPECT_THAT(support.status().message(), HasSubstr("'" + (root.path() / c.file).string() + "'"));
    EXPECT_THAT(support.status().message(), HasSubstr(c.cause));
  }
}

}  // namespace
}  // namespace koord::agent::system
