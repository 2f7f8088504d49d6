#include "extender/plugins/node_reservation/node_reservation.hpp"

#include <string>
#include <utility>
#include <vector>

#include "extender/plugins/common/args_decoder.hpp"
#include "koord/api/extension/node_reservation.hpp"
#include "koord/api/well_known.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_reservation {

namespace {

constexpr std::string_view kCpu = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr std::string_view kEphemeralStorage = "ephemeral-storage";

bool requestsOnlyPodSlot(const framework::Resource& r) {
  return r.milli_cpu == 0 && r.memory == 0 && r.ephemeral_storage == 0 && r.scalar.empty();
}

// Appends the reason when `request` no longer fits in allocatable - reserved - requested.
void checkDimension(std::string_view name, int64_t request, int64_t reserved, int64_t allocatable,
                    int64_t requested, std::vector<std::string>& reasons) {
  if (request <= 0 || reserved <= 0) {
    return;
  }
  if (request > allocatable - reserved - requested) {
    reasons.push_back("Insufficient " + std::string(name) + " (node reservation)");
  }
}

}  // namespace

Result<Args> decodeArgs(const api::Json& args) {
  Args out;
  common::ArgsDecoder decoder(args, std::string(kName));
  std::string policy = "Ignore";
  decoder.optionalString("invalidAnnotationPolicy", policy);
  if (policy == "Ignore") {
    out.invalid_annotation_policy = InvalidAnnotationPolicy::kIgnore;
  } else if (policy == "Reject") {
    out.invalid_annotation_policy = InvalidAnnotationPolicy::kReject;
  } else {
    decoder.addError("invalidAnnotationPolicy",
                     "must be \"Ignore\" or \"Reject\", got \"" + policy + "\"");
  }
  KOORD_RETURN_IF_ERROR(decoder.finish());
  return out;
}

Result<framework::Resource> reservedResources(const api::core::Node& node) {
  framework::Resource reserved;
  const auto& annotations = node.metadata.annotations;
  auto it = annotations.find(std::string(api::kAnnotationNodeReservation));
  if (it == annotations.end() || it->second.empty()) {
    return reserved;
  }
  KOORD_ASSIGN_OR_RETURN(api::extension::NodeReservation reservation,
                         api::extension::parseNodeReservation(it->second));
  int64_t cpus = 0;
  if (!reservation.reservedCPUs.empty()) {
    auto cpu_set = cpuset::CpuSet::parse(reservation.reservedCPUs);
    if (!cpu_set.ok()) {
      return Status::invalidArgument("failed to parse annotation '" +
                                     std::string(api::kAnnotationNodeReservation) +
                                     "': reservedCPUs: " + cpu_set.status().message());
    }
    cpus = static_cast<int64_t>(cpu_set->size());
  } else {
    cpus = api::extension::reservedCPUCount(reservation);
  }
  if (reservation.applyPolicy.value_or(api::extension::NodeReservationApplyPolicy::kDefault) ==
      api::extension::NodeReservationApplyPolicy::kReservedCPUsOnly) {
    return reserved;
  }
  reserved = framework::Resource::fromList(reservation.resources);
  reserved.milli_cpu = cpus * 1000;
  reserved.pods = 0;
  return reserved;
}

framework::PluginStatus NodeReservationPlugin::preFilter(framework::CycleState& /*state*/,
                                                         const framework::PodInfo& pod) const {
  if (requestsOnlyPodSlot(pod.requests) || (annotated_ != nullptr && annotated_->count() == 0)) {
    return framework::PluginStatus::skip();
  }
  return framework::PluginStatus::success();
}

framework::PluginStatus NodeReservationPlugin::filter(const framework::CycleState& /*state*/,
                                                      const framework::PodInfo& pod,
                                                      const framework::NodeInfo& node) const {
  if (annotated_ != nullptr ? !annotated_->carries(node) : !carriesNodeReservation(node.node())) {
    return framework::PluginStatus::success();  // reserves nothing: the common case, at no cost
  }
  // Parsed once per Node object: the annotation is JSON, and this runs for every candidate node of
  // every pod.
  auto reserved =
      memo_.get(node.nodePtr(), [](const api::core::Node& n) { return reservedResources(n); });
  if (!reserved.ok()) {
    if (args_.invalid_annotation_policy == InvalidAnnotationPolicy::kReject) {
      return framework::PluginStatus::unresolvable("invalid " +
                                                   std::string(api::kAnnotationNodeReservation) +
                                                   " annotation: " + reserved.status().message());
    }
    return framework::PluginStatus::success();
  }
  const framework::Resource& alloc = node.allocatable();
  const framework::Resource& used = node.requested();
  const framework::Resource& req = pod.requests;
  std::vector<std::string> reasons;
  checkDimension(kCpu, req.milli_cpu, reserved->milli_cpu, alloc.milli_cpu, used.milli_cpu,
                 reasons);
  checkDimension(kMemory, req.memory, reserved->memory, alloc.memory, used.memory, reasons);
  checkDimension(kEphemeralStorage, req.ephemeral_storage, reserved->ephemeral_storage,
                 alloc.ephemeral_storage, used.ephemeral_storage, reasons);
  for (const auto& [name, amount] : reserved->scalar) {
    checkDimension(name, req.get(name), amount, alloc.get(name), used.get(name), reasons);
  }
  if (reasons.empty()) {
    return framework::PluginStatus::success();
  }
  return {framework::Code::kUnschedulable, std::move(reasons)};
}

Result<std::unique_ptr<framework::Plugin>> create(const api::Json& args,
                                                  const framework::Handle& handle) {
  KOORD_ASSIGN_OR_RETURN(Args decoded, decodeArgs(args));
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<NodeReservationPlugin>(decoded, handle));
}

}  // namespace koord::extender::plugins::node_reservation
