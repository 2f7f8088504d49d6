#include "extender/plugins/batch_resources/batch_resources.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "extender/plugins/common/args_decoder.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::batch_resources {

namespace {

constexpr std::array<std::string_view, 4> kKnownResources = {
    api::kResourceBatchCPU, api::kResourceBatchMemory, api::kResourceMidCPU,
    api::kResourceMidMemory};

}  // namespace

Result<Args> decodeArgs(const api::Json& args) {
  Args out;
  out.resources.assign(kKnownResources.begin(), kKnownResources.end());
  common::ArgsDecoder decoder(args, std::string(kName));
  std::vector<std::string> given;
  bool present = false;
  decoder.optionalStringList("resources", given, &present);
  if (present) {
    if (given.empty()) {
      decoder.addError("resources", "must not be empty");
    }
    std::set<std::string, std::less<>> seen;
    for (size_t i = 0; i < given.size(); ++i) {
      const std::string field = api::indexPath("resources", i);
      if (std::find(kKnownResources.begin(), kKnownResources.end(), given[i]) ==
          kKnownResources.end()) {
        decoder.addError(field, "unsupported resource \"" + given[i] +
                                    "\" (want kubernetes.io/batch-cpu, batch-memory, mid-cpu "
                                    "or mid-memory)");
      } else if (!seen.insert(given[i]).second) {
        decoder.addError(field, "duplicate resource \"" + given[i] + "\"");
      }
    }
    out.resources = std::move(given);
  }
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

framework::PluginStatus BatchResourcesPlugin::preFilter(framework::CycleState& /*state*/,
                                                        const framework::PodInfo& pod) const {
  for (const auto& name : args_.resources) {
    if (pod.requests.get(name) > 0) {
      return framework::PluginStatus::success();
    }
  }
  return framework::PluginStatus::skip();
}

framework::PluginStatus BatchResourcesPlugin::filter(const framework::CycleState& /*state*/,
                                                     const framework::PodInfo& pod,
                                                     const framework::NodeInfo& node) const {
  std::vector<std::string> reasons;
  for (const auto& name : args_.resources) {
    const int64_t request = pod.requests.get(name);
    if (request <= 0) {
      continue;
    }
    if (request > node.allocatable().get(name) - node.requested().get(name)) {
      reasons.push_back("Insufficient " + name);
    }
  }
  if (reasons.empty()) {
    return framework::PluginStatus::success();
  }
  return {framework::Code::kUnschedulable, std::move(reasons)};
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& /*handle*/) {
  KOORD_ASSIGN_OR_RETURN(Args decoded, decodeArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<BatchResourcesPlugin>(std::move(decoded)));
}

}  // namespace koord::extender::plugins::batch_resources
