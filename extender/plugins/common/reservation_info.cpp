#include "extender/plugins/common/reservation_info.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include "koord/api/core/pod_helpers.hpp"
#include "koord/api/extension/numa_aware.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::common {
namespace {

namespace sched = api::scheduling;

int64_t orderOf(const sched::Reservation& r) {
  auto it = r.metadata.labels.find(std::string(api::kLabelReservationOrder));
  if (it == r.metadata.labels.end())
    return 0;
  int64_t value = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() ? value : 0;
}

}  // namespace

Resource ReservationInfo::remaining() const {
  Resource out;
  out.milli_cpu = std::max<int64_t>(0, allocatable.milli_cpu - allocated.milli_cpu);
  out.memory = std::max<int64_t>(0, allocatable.memory - allocated.memory);
  out.ephemeral_storage =
      std::max<int64_t>(0, allocatable.ephemeral_storage - allocated.ephemeral_storage);
  for (const auto& [resource_name, value] : allocatable.scalar) {
    const int64_t left = value - allocated.get(resource_name);
    if (left > 0)
      out.scalar.emplace_back(resource_name, left);
  }
  return out;
}

bool holdsCapacity(const sched::Reservation& r) {
  return r.status.phase == sched::kReservationAvailable && !r.status.nodeName.empty();
}

std::shared_ptr<api::core::Pod> reservePod(const sched::Reservation& r) {
  std::optional<api::core::PodTemplateSpec> tmpl = sched::effectiveTemplate(r);
  if (!tmpl)
    return nullptr;
  auto pod = std::make_shared<api::core::Pod>();
  pod->apiVersion = "v1";
  pod->kind = "Pod";
  pod->metadata = tmpl->metadata;
  pod->metadata.name = r.metadata.name;
  pod->metadata.namespace_.clear();
  pod->metadata.uid = r.metadata.uid;
  pod->metadata.creationTimestamp = r.metadata.creationTimestamp;
  pod->metadata.annotations[std::string(api::kAnnotationReservePod)] = "true";
  pod->metadata.labels[std::string(api::kLabelReservationIgnored)] = "true";
  pod->metadata.annotations[std::string(kAnnotationReserveAllocatePolicy)] =
      r.spec.allocatePolicy == api::scheduling::ReservationAllocatePolicy::kAligned ? "Aligned"
      : r.spec.allocatePolicy == api::scheduling::ReservationAllocatePolicy::kRestricted
          ? "Restricted"
          : "";
  pod->spec = tmpl->spec;
  pod->spec.nodeName = r.status.nodeName;
  return pod;
}

Result<std::shared_ptr<const ReservationInfo>> ReservationInfo::create(
    std::shared_ptr<const sched::Reservation> reservation) {
  if (reservation == nullptr) {
    return Status::invalidArgument("failed to read reservation '': no reservation given");
  }
  const sched::Reservation& r = *reservation;
  const std::string prefix = "failed to read reservation '" + r.metadata.name + "': ";
  auto info = std::make_shared<ReservationInfo>();
  info->name = r.metadata.name;
  info->uid = r.metadata.uid;
  info->node = r.status.nodeName;
  if (!r.status.allocatable.empty()) {
    info->allocatable = Resource::fromList(r.status.allocatable);
  } else {
    auto pod = reservePod(r);
    if (pod == nullptr) {
      return Status::invalidArgument(prefix + "it has neither spec.template nor spec.resources");
    }
    auto requests = api::core::podRequests(*pod);
    if (!requests.ok()) {
      return Status::invalidArgument(prefix + requests.status().message());
    }
    info->allocatable = Resource::fromList(*requests);
  }
  info->allocatable.pods = 0;
  info->policy = r.spec.allocatePolicy;
  info->allocate_once = r.spec.allocateOnce.value_or(true);
  info->pre_allocation = r.spec.preAllocation;
  auto it = r.metadata.annotations.find(std::string(api::kAnnotationReservationRestrictedOptions));
  if (it != r.metadata.annotations.end()) {
    auto options = api::extension::parseReservationRestrictedOptions(it->second);
    if (!options.ok()) {
      return Status::invalidArgument(prefix + options.status().message());
    }
    info->restricted = std::move(options->resources);
  }
  info->order = orderOf(r);
  if (auto status = r.metadata.annotations.find(std::string(api::kAnnotationResourceStatus));
      status != r.metadata.annotations.end()) {
    // Unreadable, it holds its capacity still (losing that would let other pods take it), but no
    // particular CPUs or NUMA resources; CPUAllocationSource reports the error.
    auto parsed = api::extension::parseResourceStatus(status->second);
    if (!parsed.ok()) {
      info->resource_status_error = parsed.status().message();
    } else {
      auto cpus = cpuset::CpuSet::parse(parsed->cpuset);
      if (!cpus.ok()) {
        info->resource_status_error =
            std::string(api::kAnnotationResourceStatus) + " cpuset: " + cpus.status().message();
      } else {
        info->cpus = std::move(*cpus);
        for (const auto& share : parsed->numaNodeResources)
          info->numa[share.node].add(Resource::fromList(share.resources));
      }
    }
  }
  std::vector<std::vector<std::pair<std::string, std::string>>> label_sets;
  bool simple = !r.spec.owners.empty();
  for (const auto& owner : r.spec.owners) {
    if (owner.object || owner.controller || !owner.labelSelector ||
        !owner.labelSelector->matchExpressions.empty()) {
      simple = false;
      break;
    }
    label_sets.emplace_back(owner.labelSelector->matchLabels.begin(),
                            owner.labelSelector->matchLabels.end());
  }
  if (simple)
    info->owner_labels = std::move(label_sets);
  info->reservation = std::move(reservation);
  return std::shared_ptr<const ReservationInfo>(std::move(info));
}

}  // namespace koord::extender::plugins::common
