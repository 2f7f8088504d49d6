#include "extender/plugins/kube/node_resources_fit.hpp"

#include <algorithm>
#include <utility>

#include "extender/plugins/common/args_decoder.hpp"

namespace koord::extender::plugins::kube {

Result<NodeResourcesFitArgs> decodeNodeResourcesFitArgs(const api::Json& args) {
  NodeResourcesFitArgs out;
  plugins::common::ArgsDecoder decoder(args, std::string(kNodeResourcesFitName));
  decoder.optionalStringList("ignoredResources", out.ignored_resources);
  decoder.optionalStringList("ignoredResourceGroups", out.ignored_resource_groups);
  for (size_t i = 0; i < out.ignored_resource_groups.size(); ++i) {
    const std::string& group = out.ignored_resource_groups[i];
    if (group.empty() || group.find('/') != std::string::npos) {
      decoder.addError(api::indexPath("ignoredResourceGroups", i),
                       "must be a domain prefix without '/', got \"" + group + "\"");
    }
  }
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

bool NodeResourcesFit::ignored(const std::string& resource) const {
  if (std::find(args_.ignored_resources.begin(), args_.ignored_resources.end(), resource) !=
      args_.ignored_resources.end()) {
    return true;
  }
  const size_t slash = resource.find('/');
  if (slash == std::string::npos) {
    return false;
  }
  const std::string_view group(resource.data(), slash);
  return std::find(args_.ignored_resource_groups.begin(), args_.ignored_resource_groups.end(),
                   group) != args_.ignored_resource_groups.end();
}

framework::PluginStatus NodeResourcesFit::filter(const framework::CycleState& /*state*/,
                                                 const framework::PodInfo& pod,
                                                 const framework::NodeInfo& node) const {
  std::vector<std::string> reasons;
  const framework::Resource& alloc = node.allocatable();
  const framework::Resource& used = node.requested();
  const framework::Resource& req = pod.requests;
  if (static_cast<int64_t>(node.pods().size()) + 1 > alloc.pods) {
    reasons.emplace_back("Too many pods");
  }
  if (req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - used.milli_cpu) {
    reasons.emplace_back("Insufficient cpu");
  }
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) {
    reasons.emplace_back("Insufficient memory");
  }
  if (req.ephemeral_storage > 0 &&
      req.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage) {
    reasons.emplace_back("Insufficient ephemeral-storage");
  }
  for (const auto& [name, amount] : req.scalar) {
    if (amount <= 0 || ignored(name)) {
      continue;
    }
    if (amount > alloc.get(name) - used.get(name)) {
      reasons.push_back("Insufficient " + name);
    }
  }
  if (reasons.empty()) {
    return framework::PluginStatus::success();
  }
  return {framework::Code::kUnschedulable, std::move(reasons)};
}

Result<std::unique_ptr<framework::Plugin>> createNodeResourcesFit(
    const api::Json& args, const framework::Handle& /*handle*/) {
  KOORD_ASSIGN_OR_RETURN(NodeResourcesFitArgs decoded, decodeNodeResourcesFitArgs(args));
  return std::unique_ptr<framework::Plugin>(std::make_unique<NodeResourcesFit>(std::move(decoded)));
}

}  // namespace koord::extender::plugins::kube
