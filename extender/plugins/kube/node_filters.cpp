#include "extender/plugins/kube/node_filters.hpp"

#include <string>

#include "extender/plugins/common/args_decoder.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"

namespace koord::extender::plugins::kube {

namespace {

constexpr std::string_view kUnschedulableTaintKey = "node.kubernetes.io/unschedulable";

template <typename P>
Result<std::unique_ptr<framework::Plugin>> createWithoutArgs(const api::Json& args,
                                                             std::string_view name) {
  plugins::common::ArgsDecoder decoder(args, std::string(name));
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return std::unique_ptr<framework::Plugin>(std::make_unique<P>());
}

}  // namespace

framework::PluginStatus NodeName::filter(const framework::CycleState& /*state*/,
                                         const framework::PodInfo& pod,
                                         const framework::NodeInfo& node) const {
  const std::string& wanted = pod.pod->spec.nodeName;
  if (wanted.empty() || wanted == node.name()) {
    return framework::PluginStatus::success();
  }
  return framework::PluginStatus::unresolvable("node(s) didn't match the requested node name");
}

framework::PluginStatus NodeUnschedulable::filter(const framework::CycleState& /*state*/,
                                                  const framework::PodInfo& pod,
                                                  const framework::NodeInfo& node) const {
  if (!node.node().spec.unschedulable) {
    return framework::PluginStatus::success();
  }
  api::core::Taint taint;
  taint.key = std::string(kUnschedulableTaintKey);
  taint.effect = api::core::kTaintEffectNoSchedule;
  if (api::core::tolerationsTolerateTaint(pod.pod->spec.tolerations, taint)) {
    return framework::PluginStatus::success();
  }
  return framework::PluginStatus::unresolvable("node(s) were unschedulable");
}

framework::PluginStatus NodeAffinity::filter(const framework::CycleState& /*state*/,
                                             const framework::PodInfo& pod,
                                             const framework::NodeInfo& node) const {
  auto matches = api::core::matchesRequiredNodeAffinity(*pod.pod, node.node());
  if (!matches.ok()) {
    return framework::PluginStatus::unresolvable("invalid node affinity: " +
                                                 matches.status().message());
  }
  if (*matches) {
    return framework::PluginStatus::success();
  }
  return framework::PluginStatus::unresolvable("node(s) didn't match Pod's node affinity/selector");
}

framework::PluginStatus TaintToleration::filter(const framework::CycleState& /*state*/,
                                                const framework::PodInfo& pod,
                                                const framework::NodeInfo& node) const {
  auto taint = api::core::findUntoleratedSchedulingTaint(*pod.pod, node.node());
  if (!taint) {
    return framework::PluginStatus::success();
  }
  return framework::PluginStatus::unresolvable("node(s) had untolerated taint {" + taint->key +
                                               ": " + taint->value + "}");
}

Result<std::unique_ptr<framework::Plugin>> createNodeName(const api::Json& args,
                                                          const framework::Handle& /*handle*/) {
  return createWithoutArgs<NodeName>(args, kNodeNameName);
}

Result<std::unique_ptr<framework::Plugin>> createNodeUnschedulable(
    const api::Json& args, const framework::Handle& /*handle*/) {
  return createWithoutArgs<NodeUnschedulable>(args, kNodeUnschedulableName);
}

Result<std::unique_ptr<framework::Plugin>> createNodeAffinity(const api::Json& args,
                                                              const framework::Handle& /*handle*/) {
  return createWithoutArgs<NodeAffinity>(args, kNodeAffinityName);
}

Result<std::unique_ptr<framework::Plugin>> createTaintToleration(
    const api::Json& args, const framework::Handle& /*handle*/) {
  return createWithoutArgs<TaintToleration>(args, kTaintTolerationName);
}

}  // namespace koord::extender::plugins::kube
