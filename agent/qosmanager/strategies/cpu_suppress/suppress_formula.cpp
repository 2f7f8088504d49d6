#include "agent/qosmanager/strategies/cpu_suppress/suppress_formula.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/well_known.hpp"
#include "koord/cpuset/cpu_set.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::agent::qosmanager::strategies::cpu_suppress {
namespace {

int64_t truncMilli(double cores) {
  return static_cast<int64_t>(cores * 1000);
}

}  // namespace

NodeReservedCpu nodeReservedCpu(const api::core::Node& node) {
  NodeReservedCpu out;
  auto anno = node.metadata.annotations.find(std::string(api::kAnnotationNodeReservation));
  if (anno != node.metadata.annotations.end()) {
    auto reservation = api::extension::parseNodeReservation(anno->second);
    if (!reservation.ok()) {
      out.problem = reservation.status().message();
    } else if (!reservation->reservedCPUs.empty()) {
      auto cpus = cpuset::CpuSet::parse(reservation->reservedCPUs);
      if (cpus.ok()) {
        out.annotation_milli = static_cast<int64_t>(cpus->size()) * 1000;
      } else {
        out.problem = cpus.status().message();
      }
    } else {
      out.annotation_milli = std::max<int64_t>(
          0, resource::get(reservation->resources, api::kResourceCPU).milliValue());
    }
  }
  const auto& capacity = node.status.capacity;
  const auto& allocatable = node.status.allocatable;
  if (capacity.count(api::kResourceCPU) != 0 && allocatable.count(api::kResourceCPU) != 0) {
    out.kubelet_milli =
        std::max<int64_t>(0, resource::get(capacity, api::kResourceCPU).milliValue() -
                                 resource::get(allocatable, api::kResourceCPU).milliValue());
  }
  return out;
}

SuppressFigure suppressFigure(const SuppressInputs& in) {
  SuppressFigure out;
  out.ls_milli = truncMilli(in.ls_usage_cores);
  const double reserved_cores = static_cast<double>(in.node_reserved_milli) / 1000;
  out.system_milli = truncMilli(std::max({in.system_usage_cores, 0.0, reserved_cores}));
  out.milli = in.capacity_milli * in.threshold_percent / 100 - out.ls_milli -
              truncMilli(in.host_app_usage_cores) - out.system_milli;
  if (in.min_percent.has_value()) {
    out.floor = in.capacity_milli * *in.min_percent / 100;
    if (out.milli < *out.floor) {
      out.milli = *out.floor;
      out.floored = true;
    }
  }
  return out;
}

int64_t cpusetTarget(int64_t suppress_milli, int64_t current, int64_t num_cpus,
                     int64_t candidates) {
  int64_t cpus = suppress_milli <= 0 ? 0 : (suppress_milli + 999) / 1000;
  cpus = std::max(cpus, kMinCpusetCpus);
  const int64_t max_increase = (std::max<int64_t>(num_cpus, 0) + 9) / 10;  // ceil(10%)
  if (cpus - current > max_increase) {
    cpus = current + max_increase;
  }
  return std::min(cpus, candidates);
}

QuotaDecision cfsQuotaDecision(int64_t suppress_milli, int64_t current, int64_t capacity_cores) {
  QuotaDecision out;
  out.target = std::max(suppress_milli * kCfsPeriodUs / 1000, kMinQuotaUs);
  const int64_t min_delta = capacity_cores * kCfsPeriodUs / 100;  // 1%
  const int64_t delta = out.target - current;
  if (out.target == current) {
    out.skipped = "quota unchanged";
    return out;
  }
  if (std::llabs(delta) < min_delta && out.target != kMinQuotaUs) {
    out.skipped = "quota change " + std::to_string(delta) + " is below 1% of the node (" +
                  std::to_string(min_delta) + ")";
    return out;
  }
  const int64_t max_increase = capacity_cores * kCfsPeriodUs / 10;  // 10%
  if (current != kUnlimitedQuota && delta > max_increase) {
    out.target = current + max_increase;
    out.step_limited = true;
  }
  out.write = out.target;
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::cpu_suppress
