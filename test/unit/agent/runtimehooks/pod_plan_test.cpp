#include "agent/runtimehooks/pod_plan.hpp"

#include <gtest/gtest.h>

#include "koord/api/well_known.hpp"

namespace koord::agent::runtimehooks {
namespace {

using resourceexecutor::CgroupResource;

struct PodSpecForTest {
  std::string name;
  std::string koord_qos;  // label value; "" for none
  std::string kube_qos = "Burstable";
  std::string resource_status;
  std::vector<std::tuple<std::string, std::string, std::string, std::string>>
      containers;  // name, batch-cpu request, batch-cpu limit, batch-memory limit ("" = none)
  std::string phase = "Running";
};

std::shared_ptr<const api::core::Pod> makePod(const PodSpecForTest& spec) {
  auto pod = std::make_shared<api::core::Pod>();
  pod->metadata.namespace_ = "default";
  pod->metadata.name = spec.name;
  pod->metadata.uid = "1234-" + spec.name;
  if (!spec.koord_qos.empty()) {
    pod->metadata.labels[std::string(api::kLabelPodQoS)] = spec.koord_qos;
  }
  if (!spec.resource_status.empty()) {
    pod->metadata.annotations[std::string(api::kAnnotationResourceStatus)] = spec.resource_status;
  }
  pod->status.qosClass = spec.kube_qos;
  pod->status.phase = spec.phase;
  pod->status.containerStatuses = api::Json::array();
  for (const auto& [name, request, limit, memory] : spec.containers) {
    api::core::Container container;
    container.name = name;
    if (!request.empty()) {
      container.resources.requests[std::string(api::kResourceBatchCPU)] =
          *resource::Quantity::parse(request);
    }
    if (!limit.empty()) {
      container.resources.limits[std::string(api::kResourceBatchCPU)] =
          *resource::Quantity::parse(limit);
    }
    if (!memory.empty()) {
      container.resources.limits[std::string(api::kResourceBatchMemory)] =
          *resource::Quantity::parse(memory);
    }
    pod->spec.containers.push_back(container);
    pod->status.containerStatuses.push_back(
        {{"name", name}, {"containerID", "containerd://" + spec.name + name}});
  }
  return pod;
}

// The cgroup v1 file of a resource, to read plans the way an operator reads cgroups.
std::string fileOf(CgroupResource resource) {
  switch (resource) {
    case CgroupResource::kCpuShares:
      return "cpu.shares";
    case CgroupResource::kCpuCfsQuota:
      return "cpu.cfs_quota_us";
    case CgroupResource::kCpusetCpus:
      return "cpuset.cpus";
    case CgroupResource::kMemoryLimit:
      return "memory.limit_in_bytes";
    default:
      return std::string(resourceexecutor::cgroupResourceName(resource));
  }
}

std::vector<std::string> render(const PodPlan& plan) {
  std::vector<std::string> out;
  for (const auto& update : plan.updates) {
    out.push_back(fileOf(update.resource) + " " + update.dir.string() + " " + update.value);
  }
  return out;
}

// The pods' cgroup folders under `naming` (the cgroupfs driver by default).
resourceexecutor::PodCgroups cgroupsOf(
    const std::vector<std::shared_ptr<const api::core::Pod>>& pods,
    resourceexecutor::KubeletCgroupNaming naming = {}) {
  return resourceexecutor::PodCgroups::resolve(naming, pods);
}

PodPlanInputs inputsFor(const std::vector<PodSpecForTest>& pods,
                        resourceexecutor::KubeletCgroupNaming naming = {}) {
  PodPlanInputs in;
  std::vector<std::shared_ptr<const api::core::Pod>> list;
  for (const auto& spec : pods) {
    list.push_back(makePod(spec));
  }
  in.pods = cgroupsOf(list, naming);
  in.cpus.shared_pool = cpuset::CpuSet::range(2, 7);
  in.cpus.be_pool = cpuset::CpuSet::range(0, 7);
  return in;
}

TEST(PodPlan, BePodGetsBatchLimitsOnContainersAndPod) {
  auto plan = planPodResources(inputsFor(
      {{"be", "BE", "BestEffort", "", {{"a", "500", "500", "1Gi"}, {"b", "250", "1000", ""}}}}));
  EXPECT_TRUE(plan.problems.empty());
  const std::string pod = "kubepods/besteffort/pod1234-be";
  const std::vector<std::string> pod_level = {
      "cpu.shares " + pod + " 768",
      "cpu.cfs_quota_us " + pod + " 150000",
      "memory.limit_in_bytes " + pod + " -1",
  };
  std::vector<std::string> want = pod_level;
  for (const std::string& line : std::vector<std::string>{
           "cpuset.cpus " + pod + "/bea 0-7",
           "cpu.shares " + pod + "/bea 512",
           "cpu.cfs_quota_us " + pod + "/bea 50000",
           "memory.limit_in_bytes " + pod + "/bea 1073741824",
           "cpuset.cpus " + pod + "/beb 0-7",
           "cpu.shares " + pod + "/beb 256",
           "cpu.cfs_quota_us " + pod + "/beb 100000",
           "memory.limit_in_bytes " + pod + "/beb -1",
       }) {
    want.push_back(line);
  }
  want.insert(want.end(), pod_level.begin(), pod_level.end());
  EXPECT_EQ(render(plan), want);
}

TEST(PodPlan, LsrPodIsPinnedAndItsQuotaUnset) {
  auto plan = planPodResources(
      inputsFor({{"lsr", "LSR", "Guaranteed", R"({"cpuset":"0-1"})", {{"app", "", "", ""}}}}));
  EXPECT_EQ(render(plan), (std::vector<std::string>{
                              "cpu.cfs_quota_us kubepods/pod1234-lsr -1",
                              "cpuset.cpus kubepods/pod1234-lsr/lsrapp 0-1",
                              "cpu.cfs_quota_us kubepods/pod1234-lsr/lsrapp -1",
                              "cpu.cfs_quota_us kubepods/pod1234-lsr -1",
                          }));
}

TEST(PodPlan, LsPodGetsTheSharedPoolAndUnlabelledBestEffortIsBe) {
  auto plan = planPodResources(inputsFor({{"ls", "", "Burstable", "", {{"app", "", "", ""}}},
                                          {"be", "", "BestEffort", "", {{"app", "", "", ""}}}}));
  auto lines = render(plan);
  EXPECT_EQ(lines[0], "cpuset.cpus kubepods/burstable/pod1234-ls/lsapp 2-7");
  // The unlabelled BestEffort pod is BE: the BE pool, minimal shares, no quota or memory limit.
  EXPECT_NE(
      std::find(lines.begin(), lines.end(), "cpuset.cpus kubepods/besteffort/pod1234-be/beapp 0-7"),
      lines.end());
  EXPECT_NE(
      std::find(lines.begin(), lines.end(), "cpu.shares kubepods/besteffort/pod1234-be/beapp 2"),
      lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "cpu.cfs_quota_us kubepods/besteffort/pod1234-be/beapp -1"),
            lines.end());
}

// issue 36: a node with cpu-bind-policy FullPCPUsOnly gives an LS pod a cpuset too; the agent pins
// it like an LSR pod instead of putting it in the shared pool.
TEST(PodPlan, LsPodWithACpusetIsPinnedLikeLsr) {
  auto plan = planPodResources(
      inputsFor({{"ls", "LS", "Burstable", R"({"cpuset":"4-5"})", {{"app", "", "", ""}}}}));
  auto lines = render(plan);
  EXPECT_NE(
      std::find(lines.begin(), lines.end(), "cpuset.cpus kubepods/burstable/pod1234-ls/lsapp 4-5"),
      lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "cpu.cfs_quota_us kubepods/burstable/pod1234-ls/lsapp -1"),
            lines.end());
}

TEST(PodPlan, SystemdNamesAndContainerRuntimes) {
  resourceexecutor::KubeletCgroupNaming systemd;
  systemd.driver = system::CgroupDriver::kSystemd;
  PodPlanInputs in = inputsFor({{"ls", "LS", "Burstable", "", {{"app", "", "", ""}}}}, systemd);
  auto plan = planPodResources(in);
  ASSERT_EQ(plan.updates.size(), 1U);
  EXPECT_EQ(plan.updates[0].dir.string(),
            "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_ls.slice/"
            "cri-containerd-lsapp.scope");
}

TEST(PodPlan, SkipsWhatItCannotPlaceAndSaysWhy) {
  PodPlanInputs in = inputsFor({
      {"done", "BE", "BestEffort", "", {{"app", "500", "500", ""}}, "Succeeded"},
      {"sys", "SYSTEM", "Burstable", "", {{"app", "", "", ""}}},
      {"badqos", "LS", "Platinum", "", {{"app", "", "", ""}}},
      {"badstatus", "LSE", "Guaranteed", "{not json", {{"app", "", "", ""}}},
  });
  auto plan = planPodResources(in);
  EXPECT_TRUE(plan.updates.empty()) << render(plan).front();
  ASSERT_EQ(plan.problems.size(), 2U);
  EXPECT_EQ(plan.problems[0].rfind("default/badqos: ", 0), 0U) << plan.problems[0];
  EXPECT_EQ(plan.problems[1].rfind("default/badstatus: ", 0), 0U) << plan.problems[1];
}

TEST(PodPlan, ContainersThatHaveNotStartedAreSkipped) {
  PodPlanInputs in = inputsFor({{"be", "BE", "BestEffort", "", {{"app", "500", "500", ""}}}});
  auto pod = std::make_shared<api::core::Pod>(*in.pods.pods()[0].pod);
  pod->status.containerStatuses = api::Json::array();
  in.pods = cgroupsOf({pod});
  auto lines = render(planPodResources(in));
  // Only the pod-level settings (twice: before and after the containers).
  ASSERT_EQ(lines.size(), 6U);
  EXPECT_EQ(lines[1], "cpu.cfs_quota_us kubepods/besteffort/pod1234-be 50000");
}

// issue 31: a resource-status cpuset "0-8191" on a 2-CPU node: the LSR pod gets the node's CPUs
// it names, never CPUs the node does not have.
TEST(PodPlan, PinnedCpusetIsCutToTheNodesCpus) {
  PodPlanInputs in = inputsFor({
      {"hostile", "LSR", "Guaranteed", R"({"cpuset":"0-8191"})", {{"app", "", "", ""}}},
      {"elsewhere", "LSE", "Guaranteed", R"({"cpuset":"4096-8191"})", {{"app", "", "", ""}}},
      {"web", "LS", "Burstable", "", {{"app", "", "", ""}}},
  });
  in.cpus.online = cpuset::CpuSet::range(0, 1);
  in.cpus.shared_pool = cpuset::CpuSet::range(0, 0);
  in.cpus.be_pool = cpuset::CpuSet::range(0, 1);
  auto plan = planPodResources(in);
  EXPECT_EQ(render(plan), (std::vector<std::string>{
                              "cpu.cfs_quota_us kubepods/pod1234-hostile -1",
                              "cpuset.cpus kubepods/pod1234-hostile/hostileapp 0-1",
                              "cpu.cfs_quota_us kubepods/pod1234-hostile/hostileapp -1",
                              "cpu.cfs_quota_us kubepods/pod1234-hostile -1",
                              "cpuset.cpus kubepods/burstable/pod1234-web/webapp 0",
                          }));
  ASSERT_EQ(plan.problems.size(), 1U);
  EXPECT_EQ(plan.problems[0],
            "default/elsewhere: resource-status cpuset '4096-8191' names no CPU of this node "
            "(0-1); its cpuset is left alone");
}

TEST(PodPlan, NeverWritesAnEmptyCpuset) {
  PodPlanInputs in =
      inputsFor({{"web", "LS", "Burstable", "", {{"app", "", "", ""}}},
                 {"be", "BE", "BestEffort", "", {{"app", "", "", ""}}},
                 {"lsr", "LSR", "Guaranteed", R"({"cpuset":""})", {{"app", "", "", ""}}}});
  // Pools of CPUs the node does not have are as good as empty.
  in.cpus.online = cpuset::CpuSet::range(0, 1);
  in.cpus.shared_pool = cpuset::CpuSet::range(8, 9);
  in.cpus.be_pool = cpuset::CpuSet();
  for (const auto& update : planPodResources(in).updates) {
    if (update.resource == CgroupResource::kCpusetCpus) {
      ADD_FAILURE() << "cpuset.cpus written: '" << update.value << "' in " << update.dir;
    }
  }
}

}  // namespace
}  // namespace koord::agent::runtimehooks
