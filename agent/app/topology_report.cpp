#include "agent/app/topology_report.hpp"

#include <memory>
#include <vector>

#include "agent/devices/dlopen_nvml.hpp"
#include "agent/devices/gpu_discovery.hpp"
#include "agent/reporters/device_report.hpp"
#include "agent/reporters/kubelet_state.hpp"
#include "agent/reporters/node_topology.hpp"
#include "agent/reporters/object_sync.hpp"
#include "koord/api/extension/cpu_topology.hpp"
#include "koord/api/well_known.hpp"

namespace koord::agent::app {

namespace {

// The union of a pools annotation's cpusets; empty when the annotation is missing or bad.
cpuset::CpuSet poolCpus(const api::topology::NodeResourceTopology& nrt, std::string_view key) {
  cpuset::CpuSet out;
  auto it = nrt.metadata.annotations.find(std::string(key));
  if (it == nrt.metadata.annotations.end()) {
    return out;
  }
  auto pools = api::extension::parseCPUSharedPools(it->second);
  if (!pools.ok()) {
    return out;
  }
  for (const auto& pool : *pools) {
    out = out.unionWith(cpuset::CpuSet::parse(pool.cpuset).valueOr({}));
  }
  return out;
}

}  // namespace

TopologyReport::TopologyReport(const DaemonOptions& options, const Host& host, k8s::Client& client,
                               const statesinformer::StatesInformer& states,
                               const ReportCounter& counter, reporters::ProblemEvents& events,
                               log::Logger logger)
    : options_(options),
      host_(host),
      client_(client),
      states_(states),
      counter_(counter),
      events_(events),
      logger_(std::move(logger)) {}

void TopologyReport::run(Clock::TimePoint now, qosmanager::framework::NodeCpus& cpus) {
  auto node = states_.node();
  if (node == nullptr) {
    logger_.warn("the Node is not in the cache yet", {{"node", options_.node_name}});
    return;
  }
  reporters::NodeTopologyInputs in;
  in.node = node;
  in.cpus = host_.cpus;
  in.memory = host_.memory;
  in.pods = states_.pods();
  auto state = reporters::readKubeletCpuState(options_.kubelet_root_dir / "cpu_manager_state");
  if (state.ok()) {
    in.kubelet_state = *state;
  } else {
    logger_.warn("cannot read the kubelet's CPU manager state", {{"error", state.status()}});
  }
  auto config = reporters::readKubeletConfig(kubeletConfigPath(options_));
  if (config.ok()) {
    in.kubelet_config = *config;
  }
  std::vector<reporters::ObjectProblem> problems;
  auto nrt = reporters::buildNodeResourceTopology(in, &problems);
  events_.report("cpuset", problems);
  cpus.shared_pool = poolCpus(nrt, api::kAnnotationNodeCPUSharedPools);
  cpus.be_pool = poolCpus(nrt, api::kAnnotationNodeBECPUSharedPools);
  auto topology = reporters::syncNodeResourceTopology(client_, nrt);
  counter_.count("NodeResourceTopology", topology);
  Result<reporters::SyncOutcome> device = reporters::SyncOutcome::Unchanged;
  if (host_.has_nvml) {
    // NVML is loaded for this report only (host.hpp says why).
    auto gpus = [&]() -> Result<std::vector<devices::GpuDevice>> {
      KOORD_ASSIGN_OR_RETURN(std::unique_ptr<devices::Nvml> nvml,
                             devices::DlopenNvml::create(options_.nvml_library));
      return devices::discoverGpus(nvml.get(), options_.paths);
    }();
    if (gpus.ok()) {
      device = reporters::syncDevice(client_, reporters::buildDevice(*node, *gpus, host_.cpus));
      counter_.count("Device", device);
    } else {
      logger_.warn("GPU discovery failed", {{"error", gpus.status()}});
    }
  }
  for (const auto* result : {&topology, &device}) {
    if (!result->ok()) {
      logger_.warn("report failed; retrying with backoff", {{"error", result->status()}});
      backoff_.failed(now);
      return;
    }
  }
  backoff_.succeeded();
}

}  // namespace koord::agent::app
