#include "agent/reporters/kubelet_state.hpp"

#include <gtest/gtest.h>

namespace koord::agent::reporters {
namespace {

TEST(KubeletCpuState, ParsesTheCheckpointTheKubeletWrites) {
  auto state = parseKubeletCpuState(
      R"({"policyName":"static","defaultCpuSet":"0,3-7","entries":{"uid-1":{"app":"1-2"}},)"
      R"("checksum":1234})",
      "cpu_manager_state");
  ASSERT_TRUE(state.ok()) << state.status().toString();
  EXPECT_EQ(state->policy_name, "static");
  EXPECT_EQ(state->default_cpuset.toString(), "0,3-7");
  EXPECT_EQ(state->entries.at("uid-1").at("app").toString(), "1-2");
}

TEST(KubeletCpuState, NonePolicyHasNoEntries) {
  auto state =
      parseKubeletCpuState(R"({"policyName":"none","defaultCpuSet":"","checksum":1})", "f");
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->policy_name, "none");
  EXPECT_TRUE(state->entries.empty());
}

TEST(KubeletCpuState, BadInputNamesTheFileAndField) {
  struct Case {
    const char* json;
    const char* want;
  } cases[] = {
      {"[]", "not a JSON object"},
      {"{", "not a JSON object"},
      {R"({"defaultCpuSet":"0-a"})", "defaultCpuSet"},
      {R"({"entries":{"u":{"c":7}}})", "entries.u.c is not a string"},
      {R"({"entries":[1]})", "entries is not an object"},
  };
  for (const Case& c : cases) {
    auto state = parseKubeletCpuState(c.json, "/var/lib/kubelet/cpu_manager_state");
    ASSERT_FALSE(state.ok()) << c.json;
    EXPECT_NE(state.status().message().find("/var/lib/kubelet/cpu_manager_state"),
              std::string::npos);
    EXPECT_NE(state.status().message().find(c.want), std::string::npos) << state.status().message();
  }
}

TEST(KubeletConfig, ReadsTheFieldsTheTopologyReportNeeds) {
  auto config = parseKubeletConfig(R"(apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
cpuManagerPolicy: static
cpuManagerPolicyOptions:
  full-pcpus-only: "true"
reservedSystemCPUs: "0-1"
topologyManagerPolicy: single-numa-node
topologyManagerScope: pod
)",
                                   "config.yaml");
  ASSERT_TRUE(config.ok()) << config.status().toString();
  EXPECT_EQ(config->cpu_manager_policy, "static");
  EXPECT_EQ(config->cpu_manager_policy_options.at("full-pcpus-only"), "true");
  EXPECT_EQ(config->reserved_system_cpus, "0-1");
  EXPECT_EQ(topologyPolicyWord(*config), "SingleNUMANodePodLevel");
}

TEST(KubeletConfig, DefaultsAreTheKubeletsOwn) {
  auto config = readKubeletConfig("/nonexistent/kubelet/config.yaml");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->cpu_manager_policy, "none");
  EXPECT_EQ(topologyPolicyWord(*config), "None");
}

TEST(KubeletConfig, PolicyWords) {
  struct Case {
    const char* policy;
    const char* scope;
    const char* want;
  } cases[] = {
      {"none", "container", "None"},
      {"best-effort", "container", "BestEffortContainerLevel"},
      {"best-effort", "pod", "BestEffortPodLevel"},
      {"restricted", "container", "RestrictedContainerLevel"},
      {"restricted", "pod", "RestrictedPodLevel"},
      {"single-numa-node", "container", "SingleNUMANodeContainerLevel"},
      {"bogus", "pod", "None"},
  };
  for (const Case& c : cases) {
    KubeletConfigInfo info;
    info.topology_manager_policy = c.policy;
    info.topology_manager_scope = c.scope;
    EXPECT_EQ(topologyPolicyWord(info), c.want) << c.policy << "/" << c.scope;
  }
}

TEST(KubeletConfig, MalformedYamlIsAnError) {
  auto config = parseKubeletConfig("cpuManagerPolicy: [static", "config.yaml");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("config.yaml"), std::string::npos);
}

TEST(KubeletConfig, TextThatIsNotUtf8IsAnErrorNotACrash) {
  // Found by agent_host_files_fuzz: such text used to throw from the JSON encoder.
  struct Case {
    std::string yaml;
    const char* want;
  } cases[] = {
      {"cpuManagerPolicy: \"st\xff"
       "atic\"\n",
       "cpuManagerPolicy is not valid UTF-8"},
      {"cpuManagerPolicyOptions:\n  full-pcpus-only: \"\xc3\x28\"\n",
       "cpuManagerPolicyOptions holds text that is not valid UTF-8"},
  };
  for (const Case& c : cases) {
    auto config = parseKubeletConfig(c.yaml, "config.yaml");
    ASSERT_FALSE(config.ok()) << c.want;
    EXPECT_NE(config.status().message().find(c.want), std::string::npos)
        << config.status().message();
  }
  auto fine = parseKubeletConfig(
      "cpuManagerPolicyOptions:\n  note: \"caf\xc3\xa9 \xf0\x9f\x98\x80\"\n", "config.yaml");
  ASSERT_TRUE(fine.ok()) << fine.status().toString();
  EXPECT_EQ(fine->cpu_manager_policy_options.at("note"), "caf\xc3\xa9 \xf0\x9f\x98\x80");
  // A nested value is kept as its JSON text, with what is not UTF-8 replaced by U+FFFD.
  auto nested = parseKubeletConfig("cpuManagerPolicyOptions:\n  nested: {\"k\xed\xa0\x80\": 1}\n",
                                   "config.yaml");
  ASSERT_TRUE(nested.ok()) << nested.status().toString();
  EXPECT_NE(nested->cpu_manager_policy_options.at("nested").find("\xef\xbf\xbd"),
            std::string::npos);
}

}  // namespace
}  // namespace koord::agent::reporters
