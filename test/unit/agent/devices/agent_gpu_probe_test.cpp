// agent_gpu_probe, run as an operator runs it on a GPU node, over the stand-in NVML: what it
// prints is what test/device/gpu_host_check.py compares with nvidia-smi on a real GPU host.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

struct ProbeRun {
  int status = -1;
  std::string out;  // stdout as printed
  std::vector<nlohmann::json> lines;
};

// Runs the probe with `args` and parses each stdout line as JSON.
ProbeRun probe(const std::string& args) {
  const std::string command = std::string(AGENT_GPU_PROBE_PATH) + " " + args;
  FILE* pipe = ::popen(command.c_str(), "r");
  ProbeRun run;
  if (pipe == nullptr) {
    return run;
  }
  std::string out;
  std::array<char, 4096> buffer{};
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    out.append(buffer.data(), n);
  }
  run.status = ::pclose(pipe);
  run.out = out;
  for (size_t begin = 0, end; (end = out.find('\n', begin)) != std::string::npos; begin = end + 1) {
    run.lines.push_back(nlohmann::json::parse(out.substr(begin, end - begin), nullptr, false));
  }
  return run;
}

// The probe's flags that load the stand-in NVML.
std::string fake() {
  return std::string("--library ") + FAKE_NVML_PATH;
}

TEST(AgentGpuProbeTest, PrintsEachGpuDiscoveryFound) {
  const ProbeRun run = probe(fake());
  ASSERT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 2U);
  EXPECT_EQ(run.lines[0]["model"], "NVIDIA H200");
  EXPECT_EQ(run.lines[0]["uuid"], "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29");
  EXPECT_EQ(run.lines[0]["memory_total_bytes"], uint64_t{143771} * 1024 * 1024);
  EXPECT_EQ(run.lines[0]["healthy"], true);
  EXPECT_EQ(run.lines[1]["healthy"], false);
  EXPECT_EQ(run.lines[1]["utilization"]["gpu_percent"], 87);
}

TEST(AgentGpuProbeTest, DevicePrintsTheObjectTheAgentReports) {
  const ProbeRun run = probe(fake() + " --device gpu-node-1");
  ASSERT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 1U);
  const nlohmann::json& device = run.lines[0];
  EXPECT_EQ(device["kind"], "Device");
  EXPECT_EQ(device["metadata"]["name"], "gpu-node-1");
  EXPECT_EQ(device["metadata"]["labels"]["node.koordinator.sh/gpu-model"], "H200");
  const nlohmann::json& gpus = device["spec"]["devices"];
  ASSERT_EQ(gpus.size(), 2U);
  EXPECT_EQ(gpus[0]["id"], "GPU-4a27d843-9b16-5495-b4b0-5dd99cfaaa29");
  EXPECT_EQ(gpus[0]["resources"]["koordinator.sh/gpu-memory"], "143771Mi");
  EXPECT_EQ(gpus[0]["health"], true);
  EXPECT_EQ(gpus[1]["health"], false);
}

TEST(AgentGpuProbeTest, NodeWithoutNvmlPrintsWhyAndSucceeds) {
  const ProbeRun run = probe("--library /nonexistent/libnvidia-ml.so.1");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.rfind("no NVML: failed to load '/nonexistent/libnvidia-ml.so.1'", 0), 0U)
      << run.out;
}

TEST(AgentGpuProbeTest, BadCommandLineExitsTwo) {
  const ProbeRun run = probe("--device 2>/dev/null");
  ASSERT_TRUE(WIFEXITED(run.status));
  EXPECT_EQ(WEXITSTATUS(run.status), 2);
}

}  // namespace
