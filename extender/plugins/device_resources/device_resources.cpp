#include "extender/plugins/device_resources/device_resources.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "extender/plugins/common/args_decoder.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::device_resources {

namespace {

// The names checked against the node, in the order reasons are given.
constexpr std::array<std::string_view, 4> kChecked = {
    api::kResourceGPUCore, api::kResourceGPUMemory, api::kResourceGPUMemoryRatio,
    api::kResourceRDMA};

// What `requests` asks of `name`, koordinator.sh/gpu counted into gpu-core and gpu-memory-ratio.
int64_t demand(const framework::Resource& requests, std::string_view name) {
  int64_t amount = requests.get(name);
  if (name == api::kResourceGPUCore || name == api::kResourceGPUMemoryRatio) {
    const int64_t gpu = requests.get(api::kResourceGPU);
    amount = gpu > 0 && amount > INT64_MAX - gpu ? INT64_MAX : amount + gpu;
  }
  return amount;
}

}  // namespace

framework::PluginStatus DeviceResourcesPlugin::preFilter(framework::CycleState& /*state*/,
                                                         const framework::PodInfo& pod) const {
  for (std::string_view name : kChecked) {
    if (demand(pod.requests, name) > 0) {
      return framework::PluginStatus::success();
    }
  }
  return framework::PluginStatus::skip();
}

framework::PluginStatus DeviceResourcesPlugin::filter(const framework::CycleState& /*state*/,
                                                      const framework::PodInfo& pod,
                                                      const framework::NodeInfo& node) const {
  std::vector<std::string> reasons;
  for (std::string_view name : kChecked) {
    const int64_t request = demand(pod.requests, name);
    if (request <= 0) {
      continue;
    }
    const int64_t free = node.allocatable().get(name) - demand(node.requested(), name);
    if (request > free) {
      reasons.push_back("Insufficient " + std::string(name));
    }
  }
  if (reasons.empty()) {
    return framework::PluginStatus::success();
  }
  return {framework::Code::kUnschedulable, std::move(reasons)};
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& /*handle*/) {
  common::ArgsDecoder decoder(args, std::string(kName));
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return std::unique_ptr<framework::Plugin>(std::make_unique<DeviceResourcesPlugin>());
}

}  // namespace koord::extender::plugins::device_resources
