#include "agent/app/topology_report.hpp"

#include <memory>
#include <vector>

#include "agent/devices/dlopen_nvml.hpp"
#include "agent/devices/gpu_discovery.hpp"
#include "agent/reporters/cpu_allocation.hpp"
#include "agent/reporters/device_report.hpp"
#include "agent/reporters/kubelet_state.hpp"
#include "agent/reporters/node_topology.hpp"
#include "agent/reporters/object_sync.hpp"

namespace koord::agent::app {

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

void TopologyReport::run(Clock::TimePoint now, system::CpuPools& cpus) {
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
  // The allocation is computed once: the annotations are formatted from it and the strategies
  // get its pools.
  std::vector<reporters::ObjectProblem> problems;
  reporters::NodeCpuAllocation allocation = reporters::allocateNodeCpus(in, &problems);
  events_.report("cpuset", problems);
  auto nrt = reporters::buildNodeResourceTopology(in, allocation);
  cpus = std::move(allocation.pools);
  auto topology = reporters::syncNodeResourceTopology(client_, nrt);
  counter_.count("NodeResourceTopology", topology);
  Result<reporters::SyncOutcome> device = reporters::SyncOutcome::kUnchanged;
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
