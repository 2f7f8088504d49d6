#include "extender/plugins/load_aware/estimator.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/extension/annotation.hpp"
#include "koord/api/extension/load_aware.hpp"

namespace koord::extender::plugins::load_aware {

namespace {

// Koordinator's estimatedUsedByResource, for the (translated) resource `name`.
int64_t estimateResource(const resource::ResourceList& requests,
                         const resource::ResourceList& limits, const std::string& name,
                         int64_t factor) {
  const resource::Quantity limit = resource::get(limits, name);
  const resource::Quantity request = resource::get(requests, name);
  const resource::Quantity& quantity = limit > request ? limit : request;
  if (quantity.isZero()) {
    if (name == api::kResourceCPU || name == api::kResourceBatchCPU)
      return kDefaultMilliCPURequest;
    if (name == api::kResourceMemory || name == api::kResourceBatchMemory)
      return kDefaultMemoryRequest;
    return 0;
  }
  const int64_t amount = resourceValue(name, quantity);
  int64_t estimated =
      roundToInt64(static_cast<double>(amount) * static_cast<double>(factor) / 100.0);
  const int64_t cap = resourceValue(name, limit);
  if (cap > 0 && estimated > cap)
    estimated = cap;
  return estimated;
}

}  // namespace

int64_t roundToInt64(double x) {
  const double r = std::round(x);
  if (std::isnan(r))
    return 0;
  if (r >= static_cast<double>(std::numeric_limits<int64_t>::max()))
    return std::numeric_limits<int64_t>::max();
  if (r <= static_cast<double>(std::numeric_limits<int64_t>::min()))
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(r);
}

api::PriorityClass priorityWithDefault(const api::core::Pod& pod) {
  const api::PriorityClass raw = api::priorityClassOf(pod.spec.priority, pod.metadata.labels);
  if (raw != api::PriorityClass::kNone)
    return raw;
  const std::string kube_qos(api::core::qosClassName(api::core::podQosClass(pod)));
  switch (api::qosClassWithDefault(pod.metadata.labels, kube_qos)) {
    case api::QoSClass::kSystem:
    case api::QoSClass::kLSE:
    case api::QoSClass::kLSR:
    case api::QoSClass::kLS:
      return api::PriorityClass::kProd;
    case api::QoSClass::kBE:
      return api::PriorityClass::kBatch;
    case api::QoSClass::kNone:
      break;
  }
  return api::PriorityClass::kNone;
}

bool isDaemonSetPod(const api::core::Pod& pod) {
  for (const auto& owner : pod.metadata.ownerReferences) {
    if (owner.kind == "DaemonSet")
      return true;
  }
  return false;
}

Estimator::Estimator(const LoadAwareArgs& args, ResourceNames names)
    : factors_(args.estimated_scaling_factors),
      allow_customize_(args.allow_customize_estimation),
      names_(std::move(names)) {}

ResourceVector Estimator::estimatePod(const api::core::Pod& pod) const {
  const ResourceAmounts* factors = &factors_;
  ResourceAmounts customized;
  if (allow_customize_) {
    auto it =
        pod.metadata.annotations.find(std::string(api::kAnnotationCustomEstimatedScalingFactors));
    if (it != pod.metadata.annotations.end() && !it->second.empty()) {
      auto custom = api::extension::parseEstimatedScalingFactors(it->second);
      if (custom.ok() && !custom->empty()) {
        customized = factors_;
        for (const auto& [name, factor] : *custom)
          customized[name] = factor;
        factors = &customized;
      }
    }
  }
  // An unreadable pod (a negative or overflowing quantity) is estimated as if it asked for
  // nothing: the defaults.
  auto requests = api::core::podRequests(pod);
  auto limits = api::core::podLimits(pod);
  const resource::ResourceList no_resources;
  const resource::ResourceList& request_list = requests.ok() ? *requests : no_resources;
  const resource::ResourceList& limit_list = limits.ok() ? *limits : no_resources;
  const api::PriorityClass priority = priorityWithDefault(pod);

  ResourceVector out = names_.zeros();
  for (const auto& [name, factor] : *factors) {
    auto index = names_.indexOf(name);
    if (!index)
      continue;
    out[*index] = estimateResource(request_list, limit_list,
                                   api::translateResourceName(priority, name), factor);
  }
  return out;
}

ResourceVector Estimator::allocatable(const api::core::Node& node) const {
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationNodeRawAllocatable));
  if (it == node.metadata.annotations.end())
    return names_.fromList(node.status.allocatable);
  auto raw =
      api::extension::parseResourceListAnnotation(api::kAnnotationNodeRawAllocatable, it->second);
  if (!raw.ok() || raw->empty())
    return names_.fromList(node.status.allocatable);
  resource::ResourceList merged = node.status.allocatable;
  for (const auto& [name, quantity] : *raw)
    merged[name] = quantity;
  return names_.fromList(merged);
}

}  // namespace koord::extender::plugins::load_aware
