#include "manager/noderesource/node_inputs.hpp"

#include <algorithm>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::manager::noderesource {

namespace {

// Priority classes ordered from the highest: prod (and none) > mid > batch > free.
int rank(api::PriorityClass p) {
  switch (p) {
    case api::PriorityClass::kMid:
      return 1;
    case api::PriorityClass::kBatch:
      return 2;
    case api::PriorityClass::kFree:
      return 3;
    case api::PriorityClass::kProd:
    case api::PriorityClass::kNone:
      return 0;
  }
  return 0;
}

}  // namespace

std::string_view resourceName(Resource r) {
  return r == Resource::kCPU ? api::kResourceCPU : api::kResourceMemory;
}

int64_t amountOf(const resource::ResourceList& list, Resource r) {
  resource::Quantity q = resource::get(list, resourceName(r));
  return r == Resource::kCPU ? q.milliValue() : q.value();
}

std::string formatAmount(Resource r, int64_t amount) {
  if (r == Resource::kCPU) {
    return std::to_string(amount) + "m";
  }
  return resource::Quantity::fromInt(amount, resource::QuantityFormat::kBinarySI).toString();
}

int64_t percentOf(int64_t value, int64_t percent) {
  // value = 100 q + r with |r| < 100: q * percent is exact, r * percent / 100 truncates, and both
  // parts have the same sign, so the sum truncates toward zero as value * percent / 100 would.
  return (value / 100) * percent + (value % 100) * percent / 100;
}

Reservations reservationsOf(const api::core::Node& node, Resource r,
                            std::vector<std::string>& notes) {
  Reservations out;
  out.kubeletReserved = std::max<int64_t>(
      amountOf(node.status.capacity, r) - amountOf(node.status.allocatable, r), 0);
  auto it = node.metadata.annotations.find(std::string(api::kAnnotationNodeReservation));
  if (it != node.metadata.annotations.end()) {
    auto reservation = api::extension::parseNodeReservation(it->second);
    if (!reservation.ok()) {
      notes.push_back(reservation.status().message() + " (nothing reserved by it)");
    } else if (r == Resource::kMemory) {
      out.annoReserved = std::max<int64_t>(amountOf(reservation->resources, r), 0);
    } else if (!reservation->reservedCPUs.empty()) {
      auto cpus = cpuset::CpuSet::parse(reservation->reservedCPUs);
      if (cpus.ok()) {
        out.annoReserved = static_cast<int64_t>(cpus->size()) * 1000;
      } else {
        notes.push_back("node annotation " + std::string(api::kAnnotationNodeReservation) + ": " +
                        cpus.status().message() + " (no CPUs reserved by it)");
      }
    } else {
      out.annoReserved = api::extension::reservedCPUCount(*reservation) * 1000;
    }
  }
  out.nodeReserved = std::max(out.kubeletReserved, out.annoReserved);
  return out;
}

SystemUsage systemUsageOf(const api::slo::NodeMetric& metric, Resource r,
                          api::PriorityClass lowest_excluded) {
  SystemUsage out;
  if (metric.status.nodeMetric) {
    out.systemUsage = amountOf(metric.status.nodeMetric->systemUsage.resources, r);
  }
  for (const auto& app : metric.status.hostApplicationMetric) {
    if (rank(api::parsePriorityClass(app.priority)) >= rank(lowest_excluded)) {
      continue;
    }
    out.hostAppUsed += amountOf(app.usage.resources, r);
  }
  out.systemUsed = out.systemUsage + out.hostAppUsed;
  return out;
}

std::string formatDuration(int64_t seconds) {
  if (seconds == 0) {
    return "0s";
  }
  std::string sign = seconds < 0 ? "-" : "";
  uint64_t s = seconds < 0 ? 0 - static_cast<uint64_t>(seconds) : static_cast<uint64_t>(seconds);
  std::string out;
  if (s >= 3600) {
    out += std::to_string(s / 3600) + "h";
  }
  if (s % 3600 >= 60) {
    out += std::to_string(s % 3600 / 60) + "m";
  }
  if (s % 60 != 0) {
    out += std::to_string(s % 60) + "s";
  }
  return sign + out;
}

std::optional<std::string> degradeReason(const api::slo::NodeMetric* metric,
                                         const ColocationStrategy& strategy, TimePoint now) {
  if (!strategy.enable) {
    return "colocation disabled";
  }
  if (metric == nullptr) {
    return "NodeMetric missing";
  }
  if (!metric->status.updateTime) {
    return "NodeMetric missing: status.updateTime is not set";
  }
  auto updated = api::core::parseTime(*metric->status.updateTime);
  if (!updated.ok()) {
    return "NodeMetric updateTime \"" + *metric->status.updateTime + "\" is not RFC 3339";
  }
  int64_t age = std::chrono::duration_cast<std::chrono::seconds>(now - *updated).count();
  auto age_exact = now - *updated;
  if (age_exact > std::chrono::minutes(strategy.degradeTimeMinutes)) {
    return "NodeMetric stale: updated " + formatDuration(age) + " ago, degradeTimeMinutes " +
           std::to_string(strategy.degradeTimeMinutes);
  }
  return std::nullopt;
}

PodRefs podRefs(const std::vector<api::core::Pod>& pods) {
  PodRefs out;
  out.reserve(pods.size());
  for (const auto& pod : pods) {
    out.push_back(&pod);
  }
  return out;
}

PodView viewOf(const api::core::Pod& pod, std::vector<std::string>& notes) {
  PodView out;
  out.key = pod.metadata.namespace_ + "/" + pod.metadata.name;
  out.active = pod.status.phase == "Running" || pod.status.phase == "Pending";
  std::string kube_qos(api::core::qosClassName(api::core::podQosClass(pod)));
  out.qos = api::qosClassWithDefault(pod.metadata.labels, kube_qos);
  out.priority = api::priorityClassOf(pod.spec.priority, pod.metadata.labels);
  if (out.priority == api::PriorityClass::kNone) {
    out.priority = out.qos == api::QoSClass::kBE     ? api::PriorityClass::kBatch
                   : out.qos == api::QoSClass::kNone ? api::PriorityClass::kNone
                                                     : api::PriorityClass::kProd;
  }
  auto requests = api::core::podRequests(pod);
  if (requests.ok()) {
    out.requestCPU = amountOf(*requests, Resource::kCPU);
    out.requestMemory = amountOf(*requests, Resource::kMemory);
  } else {
    notes.push_back("pod " + out.key + ": " + requests.status().message() +
                    " (its requests count as zero)");
  }
  return out;
}

std::map<std::string, const api::slo::PodMetricInfo*> visitActivePods(
    const PodRefs& pods, const api::slo::NodeMetric& metric, std::vector<std::string>& notes,
    const ActivePodVisitor& visit) {
  std::map<std::string, const api::slo::PodMetricInfo*> metrics;
  for (const auto& pod_metric : metric.status.podsMetric) {
    metrics[metricKey(pod_metric)] = &pod_metric;
  }
  std::map<std::string, const api::slo::PodMetricInfo*> dangling = metrics;
  for (const api::core::Pod* pod : pods) {
    const PodView view = viewOf(*pod, notes);
    if (!view.active) {
      continue;
    }
    auto it = metrics.find(view.key);
    const api::slo::PodMetricInfo* pod_metric = it == metrics.end() ? nullptr : it->second;
    if (pod_metric != nullptr) {
      dangling.erase(view.key);
    }
    visit(*pod, view, pod_metric);
  }
  return dangling;
}

void dedupeNotes(std::vector<std::string>& notes) {
  std::vector<std::string> unique;
  for (auto& note : notes) {
    if (std::find(unique.begin(), unique.end(), note) == unique.end()) {
      unique.push_back(std::move(note));
    }
  }
  notes = std::move(unique);
}

std::string metricKey(const api::slo::PodMetricInfo& metric) {
  return metric.namespace_ + "/" + metric.name;
}

}  // namespace koord::manager::noderesource
