// Temporary cgroup trees shaped like the real hosts in the captures: cgroup v1 folders hold the
// files sys/cgroup1-files.txt of epyc-2cpu-cgroup1 lists for cpu, cpuset and memory (with the
// kernel's defaults for a new cgroup), and cgroup v2 folders hold the files and initial values of
// sys/cgroup2-child.txt of h200-gpu-cgroup2 (a freshly made child of a real host).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "test/unit/agent/system/fake_sysfs.hpp"

namespace koord::agent::resourceexecutor::testing {

using system::testing::FakeRoot;

// `relative` under the cgroup root of a FakeRoot (SysPaths::under(root).cgroup_root), as a path
// relative to the FakeRoot.
inline std::string cgroupPath(const std::string& relative) {
  return "sys/fs/cgroup/" + relative;
}

// What a new v1 cgroup reads (kernel defaults) for the files the tests look at.
inline std::string v1Default(const std::string& file) {
  static const std::map<std::string, std::string> defaults = {
      {"cpu.shares", "1024"},
      {"cpu.cfs_quota_us", "-1"},
      {"cpu.cfs_period_us", "100000"},
      {"cpu.cfs_burst_us", "0"},
      {"cpuset.cpus", ""},
      {"cpuset.mems", ""},
      {"memory.limit_in_bytes", "9223372036854771712"},
  };
  const auto it = defaults.find(file);
  return it == defaults.end() ? "0" : it->second;
}

// Creates `dir` in the v1 hierarchies cpu (named `cpu_mount`), cpuset and memory under `root`,
// each holding the files the capture lists for that controller.
inline ::testing::AssertionResult makeV1Cgroup(const FakeRoot& root, const std::string& dir,
                                               const std::string& cpu_mount = "cpu") {
  std::ifstream in(system::testing::captureDir("epyc-2cpu-cgroup1") / "sys/cgroup1-files.txt");
  if (!in) {
    return ::testing::AssertionFailure() << "cannot open cgroup1-files.txt";
  }
  std::string line;
  std::string controller;
  int files = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    if (line.rfind("== ", 0) == 0) {
      controller = line.substr(3);
      continue;
    }
    const std::string mount = controller == "cpu" ? cpu_mount : controller;
    root.write(cgroupPath(mount + "/" + dir + "/" + line), v1Default(line) + "\n");
    ++files;
  }
  return files > 0 ? ::testing::AssertionSuccess()
                   : ::testing::AssertionFailure() << "cgroup1-files.txt lists no files";
}

// The v2 child capture: the file names, the initial values ("name<TAB>value") and the values read
// back after writes ("after<TAB>name<TAB>value").
struct V2ChildCapture {
  std::vector<std::string> files;
  std::map<std::string, std::string> initial;
  std::map<std::string, std::string> after;
};

inline V2ChildCapture loadV2ChildCapture() {
  V2ChildCapture capture;
  std::ifstream in(system::testing::captureDir("h200-gpu-cgroup2") / "sys/cgroup2-child.txt");
  std::string line;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      if (!line.empty()) {
        capture.files.push_back(line);
      }
      continue;
    }
    const std::string first = line.substr(0, tab);
    const std::string rest = line.substr(tab + 1);
    if (first == "after") {
      const size_t tab2 = rest.find('\t');
      capture.after[rest.substr(0, tab2)] = tab2 == std::string::npos ? "" : rest.substr(tab2 + 1);
    } else if (rest.find("No such file") == std::string::npos) {
      capture.initial[first] = rest;
    }
  }
  return capture;
}

// Creates `dir` under the v2 root of `root`, holding every file of the capture with its
// initial value (empty when the capture has none).
inline ::testing::AssertionResult makeV2Cgroup(const FakeRoot& root, const std::string& dir) {
  const V2ChildCapture capture = loadV2ChildCapture();
  if (capture.files.empty() || capture.initial.empty()) {
    return ::testing::AssertionFailure() << "cannot load cgroup2-child.txt";
  }
  for (const std::string& file : capture.files) {
    const auto it = capture.initial.find(file);
    root.write(cgroupPath(dir + "/" + file),
               (it == capture.initial.end() ? std::string() : it->second) + "\n");
  }
  return ::testing::AssertionSuccess();
}

// The content of <root>/<relative> without its trailing newline; "<missing>" when absent.
inline std::string readTree(const FakeRoot& root, const std::string& relative) {
  std::ifstream in(root.path() / relative, std::ios::binary);
  if (!in) {
    return "<missing>";
  }
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!content.empty() && content.back() == '\n') {
    content.pop_back();
  }
  return content;
}

}  // namespace koord::agent::resourceexecutor::testing
