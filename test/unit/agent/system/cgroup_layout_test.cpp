#include "agent/system/cgroup_layout.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::system {
namespace {

namespace fs = std::filesystem;
using testing::FakeRoot;
using ::testing::HasSubstr;

constexpr const char* kCgroup = "sys/fs/cgroup/";
constexpr const char* kKubeletConfig = "var/lib/kubelet/config.yaml";
constexpr auto kV1 = CgroupVersion::kV1;
constexpr auto kV2 = CgroupVersion::kV2;
constexpr auto kCgroupfs = CgroupDriver::kCgroupfs;
constexpr auto kSystemd = CgroupDriver::kSystemd;

void makeDir(const FakeRoot& root, const std::string& relative) {
  fs::create_directories(root.path() / relative);
}

// Options that read the kubelet config from inside the fake tree (absent unless a test writes it),
// so no test reads the real host's /var/lib/kubelet.
CgroupLayoutOptions hermeticOptions(const FakeRoot& root) {
  CgroupLayoutOptions options;
  options.kubelet_config = root.path() / kKubeletConfig;
  return options;
}

// A v1 host: one folder per controller; the cpu hierarchy's root has cpu.cfs_burst_us when
// `burst`.
void writeV1(const FakeRoot& root, bool burst) {
  for (const char* controller : {"cpuacct", "cpuset", "memory", "blkio", "pids"}) {
    makeDir(root, std::string(kCgroup) + controller);
  }
  root.write(std::string(kCgroup) + "cpu/cpu.cfs_quota_us", "-1\n");
  if (burst) {
    root.write(std::string(kCgroup) + "cpu/cpu.cfs_burst_us", "0\n");
  }
}

// A v2 host: the unified root (no cpu.max) and a system.slice child with cpu.max, plus
// cpu.max.burst when `burst`.
void writeV2(const FakeRoot& root, bool burst) {
  root.write(std::string(kCgroup) + "cgroup.controllers", "cpuset cpu io memory pids\n");
  root.write(std::string(kCgroup) + "cgroup.subtree_control", "cpuset cpu io memory pids\n");
  root.write(std::string(kCgroup) + "system.slice/cpu.max", "max 100000\n");
  if (burst) {
    root.write(std::string(kCgroup) + "system.slice/cpu.max.burst", "0\n");
  }
}

// A kubelet folder (relative to the cpu hierarchy) with the files a kernel with or without burst
// gives it.
void writeKubepods(const FakeRoot& root, CgroupVersion version, const std::string& kubepods,
                   bool burst) {
  const std::string dir = std::string(kCgroup) + (version == kV1 ? "cpu/" : "") + kubepods + "/";
  if (version == kV1) {
    root.write(dir + "cpu.cfs_quota_us", "-1\n");
    if (burst) {
      root.write(dir + "cpu.cfs_burst_us", "0\n");
    }
  } else {
    root.write(dir + "cpu.max", "max 100000\n");
    if (burst) {
      root.write(dir + "cpu.max.burst", "0\n");
    }
  }
}

TEST(CgroupLayoutTest, DetectCgroupVersion) {
  struct Case {
    const char* name;
    std::vector<std::string> dirs;      // folders under the cgroup root
    std::vector<std::string> files;     // empty files under the cgroup root
    std::optional<CgroupVersion> want;  // nullopt: kNotFound
    bool cpu_link = false;              // cpu is a link to cpu,cpuacct, as distributions make it
  };
  const std::vector<std::string> v1 = {"cpu", "cpuacct", "cpuset", "memory"};
  const std::vector<Case> cases = {
      {"v1", v1, {}, kV1},
      {"v1 with cpu,cpuacct and no cpu folder", {"cpu,cpuacct", "cpuset"}, {}, kV1},
      {"v1 with cpu as a link to cpu,cpuacct", {"cpu,cpuacct", "cpuset"}, {}, kV1, true},
      {"hybrid: v1 controllers plus unified", v1, {"unified/cgroup.controllers"}, kV1},
      {"v2", {"system.slice"}, {"cgroup.controllers", "cgroup.subtree_control"}, kV2},
      {"cgroup.controllers beats v1 folders", v1, {"cgroup.controllers"}, kV2},
      {"cpu without cpuset", {"cpu", "memory"}, {}, std::nullopt},
      {"cpuset without cpu", {"cpuset", "cpuacct"}, {}, std::nullopt},
      {"cgroup.controllers as a folder", {"cgroup.controllers"}, {}, std::nullopt},
      {"empty cgroup root", {""}, {}, std::nullopt},
      {"no cgroup root", {}, {}, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    for (const std::string& dir : c.dirs) {
      makeDir(root, kCgroup + dir);
    }
    for (const std::string& file : c.files) {
      root.write(kCgroup + file, "");
    }
    if (c.cpu_link) {
      fs::create_directory_symlink("cpu,cpuacct", root.path() / kCgroup / "cpu");
    }
    const SysPaths paths = SysPaths::under(root.path());
    auto version = detectCgroupVersion(paths);
    if (c.want) {
      ASSERT_TRUE(version.ok()) << version.status();
      EXPECT_EQ(*version, *c.want);
    } else {
      ASSERT_FALSE(version.ok());
      EXPECT_EQ(version.status().code(), StatusCode::kNotFound);
      EXPECT_THAT(version.status().message(), HasSubstr("failed to detect cgroup version of '" +
                                                        paths.cgroup_root.string() + "'"));
      EXPECT_THAT(version.status().message(), HasSubstr("cgroup.controllers"));
    }
  }
}

TEST(CgroupLayoutTest, SubsystemRoot) {
  struct Case {
    const char* name;
    std::vector<std::string> dirs;  // folders under the cgroup root
    CgroupVersion version;
    const char* subsystem;
    const char* want;  // relative to the cgroup root; "" is the root itself
  };
  // The plain v1 names are checked on the epyc capture (EpycCaptureGolden).
  const std::vector<std::string> plain = {"cpu", "cpuacct", "cpuset", "memory", "blkio", "pids"};
  const std::vector<std::string> combined = {"cpu,cpuacct", "cpuset", "net_cls,net_prio"};
  const std::vector<Case> cases = {
      {"v1 cpu", plain, kV1, "cpu", "cpu"},
      {"v1 io is blkio", plain, kV1, "io", "blkio"},
      {"v1 cpu in cpu,cpuacct", combined, kV1, "cpu", "cpu,cpuacct"},
      {"v1 cpuacct in cpu,cpuacct", combined, kV1, "cpuacct", "cpu,cpuacct"},
      {"v1 cpu in cpuacct,cpu", {"cpuacct,cpu"}, kV1, "cpu", "cpuacct,cpu"},
      {"v1 net_prio in net_cls,net_prio", combined, kV1, "net_prio", "net_cls,net_prio"},
      {"v1 missing memory names the canonical folder", combined, kV1, "memory", "memory"},
      {"v1 missing cpu names the canonical folder", {}, kV1, "cpu", "cpu"},
      {"v2 cpu", plain, kV2, "cpu", ""},
      {"v2 io", {}, kV2, "io", ""},
      {"v2 memory", {}, kV2, "memory", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    for (const std::string& dir : c.dirs) {
      makeDir(root, kCgroup + dir);
    }
    const SysPaths paths = SysPaths::under(root.path());
    const fs::path want =
        std::string(c.want).empty() ? paths.cgroup_root : paths.cgroup_root / c.want;
    EXPECT_EQ(subsystemRoot(paths, c.version, c.subsystem), want);
  }
}

TEST(CgroupLayoutTest, CgroupDriverWords) {
  for (CgroupDriver driver : {kCgroupfs, kSystemd}) {
    auto parsed = parseCgroupDriver(toString(driver));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, driver);
  }
  EXPECT_EQ(toString(kCgroupfs), "cgroupfs");
  EXPECT_EQ(toString(kSystemd), "systemd");
  EXPECT_EQ(toString(kV1), "v1");
  EXPECT_EQ(toString(kV2), "v2");
  auto spaced = parseCgroupDriver(" systemd\n");
  ASSERT_TRUE(spaced.ok()) << spaced.status();
  EXPECT_EQ(*spaced, kSystemd);
  for (const char* bad : {"", "Systemd", "cgroup", "systemd cgroupfs"}) {
    SCOPED_TRACE(bad);
    auto parsed = parseCgroupDriver(bad);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message(), "failed to parse cgroup driver '" + std::string(bad) +
                                             "': expected 'cgroupfs' or 'systemd'");
  }
}

TEST(CgroupLayoutTest, KubepodsPath) {
  struct Case {
    CgroupDriver driver;
    const char* cgroup_root;
    const char* want;  // nullptr: kInvalidArgument
  };
  const std::vector<Case> cases = {
      {kCgroupfs, "/", "kubepods"},
      {kCgroupfs, "", "kubepods"},
      {kCgroupfs, "/custom", "custom/kubepods"},
      {kCgroupfs, "custom/", "custom/kubepods"},
      {kCgroupfs, "/a//b", "a/b/kubepods"},
      {kSystemd, "/", "kubepods.slice"},
      {kSystemd, "/custom", "custom.slice/custom-kubepods.slice"},
      {kSystemd, "/a/b", "a.slice/a-b.slice/a-b-kubepods.slice"},
      {kSystemd, "/my-root", "my_root.slice/my_root-kubepods.slice"},
      {kCgroupfs, "/a/../b", nullptr},
      {kSystemd, "..", nullptr},
      {kCgroupfs, "/./a", nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(toString(c.driver)) + " '" + c.cgroup_root + "'");
    auto path = kubepodsPath(c.driver, c.cgroup_root);
    if (c.want != nullptr) {
      ASSERT_TRUE(path.ok()) << path.status();
      EXPECT_EQ(*path, fs::path(c.want));
    } else {
      ASSERT_FALSE(path.ok());
      EXPECT_EQ(path.status().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(path.status().message(),
                  HasSubstr("failed to parse cgroup root '" + std::string(c.cgroup_root) + "'"));
    }
  }
}

// One discoverCgroupLayout() case: a v1 or v2 tree (writeV1/writeV2 with `burst`), the kubelet
// folders `kubepods` (relative to the cpu hierarchy), the kubelet config file, and the options.
struct DiscoverCase {
  const char* name = "";
  CgroupVersion tree = kV1;
  bool burst = true;
  std::vector<std::string> kubepods = {};
  const char* config = nullptr;  // the kubelet config file's content; nullptr: no file
  std::optional<CgroupDriver> driver = std::nullopt;
  std::optional<std::string> cgroup_root = std::nullopt;
  std::function<void(const FakeRoot&, CgroupLayoutOptions*)> tweak = nullptr;  // after the rest
  CgroupLayout want = {};                                                      // when code is kOk
  StatusCode code = StatusCode::kOk;
  std::vector<std::string> message_parts = {};  // substrings of the error; "{root}": the fake root
};

std::string expand(const std::string& text, const fs::path& root) {
  const std::string token = "{root}";
  const size_t at = text.find(token);
  return at == std::string::npos
             ? text
             : text.substr(0, at) + root.string() + text.substr(at + token.size());
}

void runDiscoverCases(const std::vector<DiscoverCase>& cases) {
  for (const DiscoverCase& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    if (c.tree == kV1) {
      writeV1(root, c.burst);
    } else {
      writeV2(root, c.burst);
    }
    for (const std::string& kubepods : c.kubepods) {
      writeKubepods(root, c.tree, kubepods, c.burst);
    }
    if (c.config != nullptr) {
      root.write(kKubeletConfig, c.config);
    }
    CgroupLayoutOptions options = hermeticOptions(root);
    options.driver = c.driver;
    options.cgroup_root = c.cgroup_root;
    if (c.tweak) {
      c.tweak(root, &options);
    }
    auto layout = discoverCgroupLayout(SysPaths::under(root.path()), options);
    if (c.code == StatusCode::kOk) {
      ASSERT_TRUE(layout.ok()) << layout.status();
      EXPECT_EQ(layout->version, c.want.version);
      EXPECT_EQ(layout->driver, c.want.driver);
      EXPECT_EQ(layout->cgroup_root, c.want.cgroup_root);
      EXPECT_EQ(layout->kubepods, c.want.kubepods);
      EXPECT_EQ(layout->cfs_burst, c.want.cfs_burst);
    } else {
      ASSERT_FALSE(layout.ok());
      EXPECT_EQ(layout.status().code(), c.code) << layout.status();
      for (const std::string& part : c.message_parts) {
        EXPECT_THAT(layout.status().message(), HasSubstr(expand(part, root.path())));
      }
    }
  }
}

TEST(CgroupLayoutTest, DiscoverProbesTheDriver) {
  runDiscoverCases({
      {.name = "v1 cgroupfs",
       .kubepods = {"kubepods"},
       .want = {kV1, kCgroupfs, "/", "kubepods", true}},
      {.name = "v1 systemd",
       .kubepods = {"kubepods.slice"},
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "v1 without burst",
       .burst = false,
       .kubepods = {"kubepods"},
       .want = {kV1, kCgroupfs, "/", "kubepods", false}},
      {.name = "v1 cgroupfs under cpu,cpuacct",
       .burst = false,
       .tweak =
           [](const FakeRoot& r, CgroupLayoutOptions*) {
             r.remove(std::string(kCgroup) + "cpu");
             makeDir(r, std::string(kCgroup) + "cpu,cpuacct/kubepods");
           },
       .want = {kV1, kCgroupfs, "/", "kubepods", false}},
      {.name = "v2 cgroupfs",
       .tree = kV2,
       .kubepods = {"kubepods"},
       .want = {kV2, kCgroupfs, "/", "kubepods", true}},
      {.name = "v2 systemd",
       .tree = kV2,
       .kubepods = {"kubepods.slice"},
       .want = {kV2, kSystemd, "/", "kubepods.slice", true}},
      {.name = "v2 without burst",
       .tree = kV2,
       .burst = false,
       .kubepods = {"kubepods.slice"},
       .want = {kV2, kSystemd, "/", "kubepods.slice", false}},
      {.name = "v1 custom cgroup root, cgroupfs (a kubepods.slice at the top is not ours)",
       .kubepods = {"custom/kubepods", "kubepods.slice"},
       .cgroup_root = "/custom/",
       .want = {kV1, kCgroupfs, "/custom", "custom/kubepods", true}},
      {.name = "v2 custom cgroup root, systemd",
       .tree = kV2,
       .kubepods = {"custom.slice/custom-kubepods.slice"},
       .cgroup_root = "/custom",
       .want = {kV2, kSystemd, "/custom", "custom.slice/custom-kubepods.slice", true}},
      {.name = "both kubepods folders",
       .kubepods = {"kubepods", "kubepods.slice"},
       .code = StatusCode::kFailedPrecondition,
       .message_parts = {"failed to detect the kubelet cgroup driver from "
                         "'{root}/sys/fs/cgroup/cpu'",
                         "both 'kubepods' (cgroupfs) and 'kubepods.slice' (systemd) exist there",
                         "set the kubelet cgroup driver option (cgroupfs or systemd)"}},
      {.name = "no kubepods folder (v1)",
       .code = StatusCode::kNotFound,
       .message_parts = {"failed to detect the kubelet cgroup driver from "
                         "'{root}/sys/fs/cgroup/cpu'",
                         "neither 'kubepods' (cgroupfs) nor 'kubepods.slice' (systemd) exists",
                         "set the kubelet cgroup driver option"}},
      {.name = "no kubepods folder (v2)",
       .tree = kV2,
       .code = StatusCode::kNotFound,
       .message_parts = {"from '{root}/sys/fs/cgroup': neither 'kubepods' (cgroupfs)"}},
      {.name = "no kubepods folder at the custom root",
       .tree = kV2,
       .kubepods = {"kubepods"},
       .cgroup_root = "/custom",
       .code = StatusCode::kNotFound,
       .message_parts = {"'custom/kubepods' (cgroupfs)",
                         "'custom.slice/custom-kubepods.slice' (systemd)"}},
      {.name = "no cgroup tree",
       .tweak = [](const FakeRoot& r, CgroupLayoutOptions*) { r.remove("sys"); },
       .code = StatusCode::kNotFound,
       .message_parts = {"failed to detect cgroup version of '{root}/sys/fs/cgroup'"}},
      {.name = "invalid cgroup root option",
       .kubepods = {"kubepods"},
       .cgroup_root = "/../etc",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to parse cgroup root '/../etc'"}},
  });
}

TEST(CgroupLayoutTest, DiscoverPrecedence) {
  const std::string config_file = "'{root}/var/lib/kubelet/config.yaml'";
  // Every tree says systemd (only kubepods.slice exists) unless a case adds kubepods.
  runDiscoverCases({
      {.name = "config file beats probing",
       .kubepods = {"kubepods.slice"},
       .config = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
                 "cgroupDriver: cgroupfs\n",
       .want = {kV1, kCgroupfs, "/", "kubepods", true}},
      {.name = "config file settles an ambiguous tree",
       .kubepods = {"kubepods.slice", "kubepods"},
       .config = "cgroupDriver: \"systemd\"  # kubeadm's default\n",
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "config file cgroupRoot",
       .tree = kV2,
       .kubepods = {"custom/kubepods"},
       .config = "cgroupDriver: cgroupfs\ncgroupRoot: /custom\n",
       .want = {kV2, kCgroupfs, "/custom", "custom/kubepods", true}},
      {.name = "config file cgroupRoot, driver probed there",
       .tree = kV2,
       .kubepods = {"custom.slice/custom-kubepods.slice", "kubepods"},
       .config = "cgroupRoot: /custom\n",
       .want = {kV2, kSystemd, "/custom", "custom.slice/custom-kubepods.slice", true}},
      {.name = "options beat the config file and probing",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: systemd\ncgroupRoot: /other\n",
       .driver = kCgroupfs,
       .cgroup_root = "/",
       .want = {kV1, kCgroupfs, "/", "kubepods", true}},
      {.name = "driver option, cgroupRoot from the config file",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: cgroupfs\ncgroupRoot: /other\n",
       .driver = kSystemd,
       .want = {kV1, kSystemd, "/other", "other.slice/other-kubepods.slice", true}},
      {.name = "both options: the config file is not read, even a broken one",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: [\n",
       .driver = kSystemd,
       .cgroup_root = "/",
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "config file without the keys: probing and root /",
       .kubepods = {"kubepods.slice"},
       .config = "kind: KubeletConfiguration\ncgroupDriver: null\nmaxPods: 110\n",
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "empty config file",
       .kubepods = {"kubepods.slice"},
       .config = "",
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "no config path: the file is not read",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: cgroupfs\n",
       .tweak = [](const FakeRoot&, CgroupLayoutOptions* o) { o->kubelet_config.clear(); },
       .want = {kV1, kSystemd, "/", "kubepods.slice", true}},
      {.name = "bad cgroupDriver in the config file",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: systemd-ish\n",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to parse kubelet config " + config_file,
                         "cgroupDriver: expected 'cgroupfs' or 'systemd', got 'systemd-ish'"}},
      {.name = "non-string cgroupRoot in the config file",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: systemd\ncgroupRoot:\n  - a\n",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to parse kubelet config " + config_file,
                         "line 2: cgroupRoot: expected a string"}},
      {.name = "config file that is not a mapping",
       .kubepods = {"kubepods.slice"},
       .config = "- cgroupDriver: systemd\n",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to parse kubelet config " + config_file, "expected a mapping"}},
      {.name = "config file that is not YAML",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupDriver: [systemd\n",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {config_file}},
      {.name = "config path that is a folder",
       .kubepods = {"kubepods.slice"},
       .tweak = [](const FakeRoot& r, CgroupLayoutOptions*) { makeDir(r, kKubeletConfig); },
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to read " + config_file}},
      {.name = "invalid cgroupRoot in the config file",
       .kubepods = {"kubepods.slice"},
       .config = "cgroupRoot: /a/..\n",
       .code = StatusCode::kInvalidArgument,
       .message_parts = {"failed to parse cgroup root '/a/..'"}},
  });
}

// A builder for a v1 or v2 tree whose cpu hierarchy has the burst file when `burst`, with a
// `kubepods` folder ("" for none) that has it when `kubepods_burst`.
std::function<void(const FakeRoot&)> burstTree(CgroupVersion version, bool burst,
                                               const std::string& kubepods, bool kubepods_burst) {
  return [=](const FakeRoot& r) {
    if (version == kV1) {
      writeV1(r, burst);
    } else {
      writeV2(r, burst);
    }
    if (!kubepods.empty()) {
      writeKubepods(r, version, kubepods, kubepods_burst);
    }
  };
}

TEST(CgroupLayoutTest, CfsBurst) {
  struct Case {
    const char* name;
    CgroupVersion version;
    std::function<void(const FakeRoot&)> build;
    const char* kubepods;  // the layout's
    bool want;
  };
  const std::string cg = kCgroup;
  const std::vector<Case> cases = {
      {"v1 kubepods has cfs_burst_us", kV1, burstTree(kV1, true, "kubepods", true), "kubepods",
       true},
      {"v1 kubepods lacks cfs_burst_us: the root's does not count", kV1,
       burstTree(kV1, true, "kubepods", false), "kubepods", false},
      {"v1 no kubepods folder: the cpu root has cfs_burst_us", kV1, burstTree(kV1, true, "", false),
       "kubepods.slice", true},
      {"v1 no kubepods folder: the cpu root lacks cfs_burst_us", kV1,
       burstTree(kV1, false, "", false), "kubepods", false},
      {"v1 burst under cpu,cpuacct", kV1,
       [&](const FakeRoot& r) { r.write(cg + "cpu,cpuacct/cpu.cfs_burst_us", "0\n"); }, "kubepods",
       true},
      {"v2 kubepods has cpu.max.burst", kV2, burstTree(kV2, false, "kubepods.slice", true),
       "kubepods.slice", true},
      {"v2 kubepods lacks cpu.max.burst: other children do not count", kV2,
       burstTree(kV2, true, "kubepods", false), "kubepods", false},
      {"v2 no kubepods folder: a child has cpu.max.burst", kV2, burstTree(kV2, true, "", false),
       "kubepods", true},
      {"v2 no kubepods folder: no child has cpu.max.burst", kV2, burstTree(kV2, false, "", false),
       "kubepods", false},
      {"v2 a cpu.max.burst file in the root itself does not count", kV2,
       [&](const FakeRoot& r) { r.write(cg + "cpu.max.burst", "0\n"); }, "kubepods", false},
      {"v2 a child folder named cpu.max.burst does not count", kV2,
       [&](const FakeRoot& r) { makeDir(r, cg + "a/cpu.max.burst"); }, "kubepods", false},
      {"no cgroup tree", kV2, [](const FakeRoot&) {}, "kubepods", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeRoot root;
    c.build(root);
    CgroupLayout layout;
    layout.version = c.version;
    layout.kubepods = c.kubepods;
    EXPECT_EQ(detectCfsBurst(SysPaths::under(root.path()), layout), c.want);
  }
}

std::vector<std::string> captureLines(const std::string& capture, const std::string& file) {
  std::ifstream in(testing::captureDir(capture) / file);
  EXPECT_TRUE(in) << "cannot open " << (testing::captureDir(capture) / file);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
  }
  return lines;
}

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// Lays a capture's cgroup tree out under <root>/sys/fs/cgroup from the files that describe it:
//  - sys/cgroup.controllers is the root's file (a `cat` error where the host has none);
//  - sys/mounts-cgroup.txt: a folder per mount below /sys/fs/cgroup; a cgroup2 mount there (the
//    hybrid host's controller-less `unified`) gets an empty cgroup.controllers;
//  - sys/cgroup1-files.txt: "== <controller>" then the names of the files of its root;
//  - sys/cgroup2-root.txt: "== <file>" then the file's content, for files of the root;
//  - sys/cgroup2-child.txt: the names of a child's files, then "<file><TAB><value>" lines; the
//    child is named after the path in the `cat` error it holds.
::testing::AssertionResult loadCgroupCapture(const FakeRoot& root, const std::string& capture) {
  const std::string cg = kCgroup;
  const fs::path dir = testing::captureDir(capture);
  std::ifstream controllers(dir / "sys/cgroup.controllers");
  if (!controllers) {
    return ::testing::AssertionFailure() << "no sys/cgroup.controllers in " << capture;
  }
  std::stringstream content;
  content << controllers.rdbuf();
  if (!startsWith(content.str(), "cat:")) {
    root.write(cg + "cgroup.controllers", content.str());
  }
  makeDir(root, cg);
  for (const std::string& line : captureLines(capture, "sys/mounts-cgroup.txt")) {
    std::istringstream words(line);
    std::string source;
    std::string on;
    std::string target;
    std::string type_word;
    std::string type;
    words >> source >> on >> target >> type_word >> type;
    if (!startsWith(target, "/sys/fs/cgroup/")) {
      continue;
    }
    const std::string sub = target.substr(std::string("/sys/fs/cgroup/").size());
    makeDir(root, cg + sub);
    if (type == "cgroup2") {
      root.write(cg + sub + "/cgroup.controllers", "");
    }
  }
  if (fs::exists(dir / "sys/cgroup1-files.txt")) {
    std::string controller;
    for (const std::string& line : captureLines(capture, "sys/cgroup1-files.txt")) {
      if (startsWith(line, "#") || line.empty()) {
        continue;
      }
      if (startsWith(line, "== ")) {
        controller = line.substr(3);
      } else if (!controller.empty()) {
        root.write(cg + controller + "/" + line, "");
      }
    }
  }
  if (fs::exists(dir / "sys/cgroup2-root.txt")) {
    std::string file;
    for (const std::string& line : captureLines(capture, "sys/cgroup2-root.txt")) {
      if (startsWith(line, "== ")) {
        file = line.substr(3);
        root.write(cg + file, "");
      } else if (!file.empty()) {
        root.write(cg + file, line + "\n", /*append=*/true);
      }
    }
  }
  if (fs::exists(dir / "sys/cgroup2-child.txt")) {
    const std::vector<std::string> lines = captureLines(capture, "sys/cgroup2-child.txt");
    std::string child = "child";
    for (const std::string& line : lines) {
      const size_t at = line.find("/sys/fs/cgroup/");
      if (at != std::string::npos) {
        const std::string rest = line.substr(at + std::string("/sys/fs/cgroup/").size());
        child = rest.substr(0, rest.find('/'));
        break;
      }
    }
    for (const std::string& line : lines) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) {
        root.write(cg + child + "/" + line, "");
      } else if (!startsWith(line, "after\t") && !startsWith(line.substr(tab + 1), "cat:")) {
        root.write(cg + child + "/" + line.substr(0, tab), line.substr(tab + 1) + "\n");
      }
    }
  }
  return ::testing::AssertionSuccess();
}

bool captureListsFile(const std::string& capture, const std::string& file,
                      const std::string& name) {
  for (const std::string& line : captureLines(capture, file)) {
    if (line == name || startsWith(line, name + "\t")) {
      return true;
    }
  }
  return false;
}

// The epyc VM: v1 controllers plus a controller-less unified mount (hybrid), the v1 cpu hierarchy
// has cpu.cfs_burst_us, and no kubelet ran there (no kubepods folder).
TEST(CgroupLayoutTest, EpycCaptureGolden) {
  const std::string capture = "epyc-2cpu-cgroup1";
  ASSERT_TRUE(captureListsFile(capture, "sys/cgroup1-files.txt", "cpu.cfs_burst_us"));
  FakeRoot root;
  ASSERT_TRUE(loadCgroupCapture(root, capture));
  const SysPaths paths = SysPaths::under(root.path());
  ASSERT_TRUE(fs::exists(paths.cgroup_root / "unified/cgroup.controllers"));
  ASSERT_FALSE(fs::exists(paths.cgroup_root / "cgroup.controllers"));

  auto version = detectCgroupVersion(paths);
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(*version, kV1);
  for (const char* subsystem : {"cpu", "cpuacct", "cpuset", "memory", "blkio", "pids"}) {
    EXPECT_EQ(subsystemRoot(paths, kV1, subsystem), paths.cgroup_root / subsystem);
  }
  EXPECT_EQ(subsystemRoot(paths, kV1, "io"), paths.cgroup_root / "blkio");

  CgroupLayoutOptions options = hermeticOptions(root);
  auto probed = discoverCgroupLayout(paths, options);
  ASSERT_FALSE(probed.ok());
  EXPECT_EQ(probed.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(probed.status().message(), HasSubstr((paths.cgroup_root / "cpu").string()));

  options.driver = kCgroupfs;
  auto layout = discoverCgroupLayout(paths, options);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(*layout, (CgroupLayout{kV1, kCgroupfs, "/", "kubepods", true}));
}

// The H200 host: cgroup v2 only; the root has no cpu.max, the child made for the capture has
// cpu.max.burst (and took a burst of 20000), so the kernel offers burst; no kubelet ran there.
TEST(CgroupLayoutTest, H200CaptureGolden) {
  const std::string capture = "h200-gpu-cgroup2";
  ASSERT_TRUE(captureListsFile(capture, "sys/cgroup2-child.txt", "cpu.max.burst"));
  ASSERT_FALSE(captureListsFile(capture, "sys/cgroup2-root.txt", "== cpu.max.burst"));
  FakeRoot root;
  ASSERT_TRUE(loadCgroupCapture(root, capture));
  const SysPaths paths = SysPaths::under(root.path());
  ASSERT_TRUE(fs::exists(paths.cgroup_root / "hwprobe.slice/cpu.max.burst"));
  ASSERT_FALSE(fs::exists(paths.cgroup_root / "cpu.max.burst"));

  auto version = detectCgroupVersion(paths);
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(*version, kV2);
  for (const char* subsystem : {"cpu", "cpuacct", "cpuset", "memory", "io", "pids"}) {
    EXPECT_EQ(subsystemRoot(paths, kV2, subsystem), paths.cgroup_root);
  }

  CgroupLayoutOptions options = hermeticOptions(root);
  auto probed = discoverCgroupLayout(paths, options);
  ASSERT_FALSE(probed.ok());
  EXPECT_EQ(probed.status().code(), StatusCode::kNotFound);

  options.driver = kSystemd;
  auto layout = discoverCgroupLayout(paths, options);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(*layout, (CgroupLayout{kV2, kSystemd, "/", "kubepods.slice", true}));

  // Without the child, nothing on the host shows cpu.max.burst.
  root.remove(std::string(kCgroup) + "hwprobe.slice");
  auto without_child = discoverCgroupLayout(paths, options);
  ASSERT_TRUE(without_child.ok()) << without_child.status();
  EXPECT_FALSE(without_child->cfs_burst);
}

}  // namespace
}  // namespace koord::agent::system
