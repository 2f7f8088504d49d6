#include "manager/descheduler/framework/limited_evictor.hpp"

#include <utility>

#include "manager/descheduler/framework/node_fit.hpp"

namespace koord::manager::descheduler::framework {

namespace limitedevictor_detail {

std::string podKey(const api::core::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

uint32_t countOf(const std::map<std::string, uint32_t, std::less<>>& counts,
                 const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

}  // namespace limitedevictor_detail

namespace led = limitedevictor_detail;

std::string evictErrorMessage(EvictError error) {
  switch (error) {
    case EvictError::kNone:
      return "";
    case EvictError::kMissingUid:
      return "pod is missing UID";
    case EvictError::kTotalLimit:
      return "maximum number of evicted pods per a descheduling cycle reached";
    case EvictError::kNodeLimit:
      return "maximum number of evicted pods per node reached";
    case EvictError::kNamespaceLimit:
      return "maximum number of evicted pods per namespace reached";
    case EvictError::kSinkFailed:
      return "eviction failed";
  }
  return "";
}

LimitedEvictor::LimitedEvictor(DefaultEvictor evictor, const ClusterSnapshot* snapshot,
                               EvictionLimits limits, EvictSink sink, NowFunc now,
                               log::Logger logger)
    : evictor_(std::move(evictor)),
      snapshot_(snapshot),
      limits_(limits),
      sink_(std::move(sink)),
      now_(now ? std::move(now) : NowFunc([] { return std::chrono::system_clock::now(); })),
      logger_(std::move(logger)) {}

bool LimitedEvictor::filter(const api::core::Pod& pod) const {
  if (snapshot_ == nullptr)
    return false;
  auto reasons = evictor_.filterReasons(pod, *snapshot_, now_());
  if (reasons.empty())
    return true;
  if (logger_.enabled(log::LogLevel::kDebug)) {
    std::string joined;
    for (const auto& r : reasons)
      joined += (joined.empty() ? "" : ", ") + r;
    const std::string key = led::podKey(pod);
    logger_.debug("Pod fails the following checks", {{"pod", key}, {"checks", joined}});
  }
  return false;
}

bool LimitedEvictor::preEvictionFilter(const api::core::Pod& pod) const {
  if (!evictor_.options().node_fit)
    return true;
  if (snapshot_ == nullptr)
    return false;
  auto nodes = readyNodes(*snapshot_, evictor_.options().node_selector);
  if (!nodes.ok()) {
    logger_.error("unable to list ready nodes", {{"error", nodes.status()}});
    return false;
  }
  if (!podFitsAnyOtherNode(pod, *nodes, *snapshot_)) {
    const std::string key = led::podKey(pod);
    logger_.info(
        "pod does not fit on any other node because of nodeSelector(s), Taint(s), or nodes "
        "marked as unschedulable",
        {{"pod", key}});
    return false;
  }
  return true;
}

bool LimitedEvictor::evict(const api::core::Pod& pod, const EvictOptions& options) {
  const std::string& node = pod.spec.nodeName;
  const std::string& ns = pod.metadata.namespace_;
  if (pod.metadata.uid.empty()) {
    last_error_ = EvictError::kMissingUid;
  } else if (limits_.total && total_ + 1 > *limits_.total) {
    last_error_ = EvictError::kTotalLimit;
  } else if (!node.empty() && limits_.per_node &&
             led::countOf(per_node_, node) + 1 > *limits_.per_node) {
    last_error_ = EvictError::kNodeLimit;
  } else if (limits_.per_namespace &&
             led::countOf(per_namespace_, ns) + 1 > *limits_.per_namespace) {
    last_error_ = EvictError::kNamespaceLimit;
  } else if (!sink_ || !sink_(pod, options)) {
    last_error_ = EvictError::kSinkFailed;
  } else {
    last_error_ = EvictError::kNone;
  }
  const std::string key = led::podKey(pod);
  if (last_error_ != EvictError::kNone) {
    const std::string message = evictErrorMessage(last_error_);
    logger_.error("Error evicting pod", {{"pod", key}, {"node", node}, {"error", message}});
    return false;
  }
  if (!node.empty())
    ++per_node_[node];
  ++per_namespace_[ns];
  ++total_;
  victims_.push_back(Victim{ns, pod.metadata.name, node, options.plugin, options.reason});
  logger_.info(
      "Evicted pod",
      {{"pod", key}, {"reason", options.reason}, {"strategy", options.plugin}, {"node", node}});
  return true;
}

bool LimitedEvictor::nodeLimitExceeded(const api::core::Node& node) const {
  return limits_.per_node && led::countOf(per_node_, node.metadata.name) >= *limits_.per_node;
}

uint32_t LimitedEvictor::nodeEvicted(const std::string& node) const {
  return led::countOf(per_node_, node);
}

void LimitedEvictor::resetCounters() {
  per_node_.clear();
  per_namespace_.clear();
  total_ = 0;
  victims_.clear();
  last_error_ = EvictError::kNone;
}

}  // namespace koord::manager::descheduler::framework
