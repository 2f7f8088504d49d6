#include "extender/simulator/basic/node_resources_fit.hpp"

#include <algorithm>
#include <utility>

#include "extender/plugins/common/args_decoder.hpp"

namespace koord::extender::simulator::basic {

namespace {

constexpr int64_t kDefaultMilliCpuRequest = 100;
constexpr int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;
constexpr int64_t kMaxNodeScore = 100;

// kube-scheduler's leastRequestedScore: (capacity - requested) * 100 / capacity.
int64_t leastRequested(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) {
    return 0;
  }
  return (capacity - requested) * kMaxNodeScore / capacity;
}

}  // namespace

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

int64_t NodeResourcesFit::score(const framework::CycleState& /*state*/,
                                const framework::PodInfo& pod,
                                const framework::NodeInfo& node) const {
  const int64_t cpu = pod.requests.milli_cpu > 0 ? pod.requests.milli_cpu : kDefaultMilliCpuRequest;
  const int64_t memory = pod.requests.memory > 0 ? pod.requests.memory : kDefaultMemoryRequest;
  const int64_t cpu_score =
      leastRequested(node.requested().milli_cpu + cpu, node.allocatable().milli_cpu);
  const int64_t memory_score =
      leastRequested(node.requested().memory + memory, node.allocatable().memory);
  return (cpu_score + memory_score) / 2;
}

Result<std::unique_ptr<framework::Plugin>> createNodeResourcesFit(
    const api::Json& args, const framework::Handle& /*handle*/) {
  KOORD_ASSIGN_OR_RETURN(NodeResourcesFitArgs decoded, decodeNodeResourcesFitArgs(args));
  return std::unique_ptr<framework::Plugin>(std::make_unique<NodeResourcesFit>(std::move(decoded)));
}

}  // namespace koord::extender::simulator::basic
