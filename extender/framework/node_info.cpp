#include "extender/framework/node_info.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "koord/api/well_known.hpp"

namespace koord::extender::framework {

NodeInfo::NodeInfo(std::shared_ptr<const api::core::Node> node,
                   std::vector<std::shared_ptr<const PodInfo>> pods,
                   const std::vector<std::shared_ptr<const ReservationInfo>>& reservations)
    : node_(std::move(node)), pods_(std::move(pods)) {
  allocatable_ = Resource::fromList(node_->status.allocatable);
  const auto& annotations = node_->metadata.annotations;
  const auto annotation = annotations.find(std::string(api::kAnnotationNodeReservation));
  has_node_reservation_ = annotation != annotations.end() && !annotation->second.empty();
  for (const auto& pod : pods_) {
    requested_.add(pod->requests);
    non_zero_requested_.milli_cpu += pod->non_zero.milli_cpu;
    non_zero_requested_.memory += pod->non_zero.memory;
  }
  reservations_.reserve(reservations.size());
  std::vector<std::shared_ptr<ReservationInfo>> pre_allocated;
  for (const auto& base : reservations) {
    auto info = std::make_shared<ReservationInfo>(*base);
    for (const auto& pod : pods_) {
      if (!pod->reservation_uid.empty() && pod->reservation_uid == info->uid) {
        info->allocated.add(pod->requests);
        info->owners.push_back(pod->key);
      }
    }
    info->held = info->consumed() ? Resource{} : info->remaining();
    if (info->pre_allocation) {
      pre_allocated.push_back(info);
    } else {
      reserved_.add(info->held);
    }
    reservations_.push_back(std::move(info));
  }
  // Pre-allocated reservations hold only what is free after the pods and the other reservations.
  for (auto& info : pre_allocated) {
    Resource capped;
    const auto cap = [&](std::string_view name, int64_t want) {
      const int64_t free = allocatable_.get(name) - requested_.get(name) - reserved_.get(name);
      const int64_t take = std::min(want, std::max<int64_t>(free, 0));
      if (take > 0)
        capped.set(name, take);
    };
    cap("cpu", info->held.milli_cpu);
    cap("memory", info->held.memory);
    cap("ephemeral-storage", info->held.ephemeral_storage);
    for (const auto& [resource_name, value] : info->held.scalar)
      cap(resource_name, value);
    info->held = std::move(capped);
    reserved_.add(info->held);
  }
}

}  // namespace koord::extender::framework
