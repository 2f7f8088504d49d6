#include "extender/framework/node_info.hpp"

#include <utility>

namespace koord::extender::framework {

NodeInfo::NodeInfo(std::shared_ptr<const api::core::Node> node,
                   std::vector<std::shared_ptr<const PodInfo>> pods,
                   const std::vector<std::shared_ptr<const ReservationInfo>>& reservations)
    : node_(std::move(node)), pods_(std::move(pods)) {
  allocatable_ = Resource::fromList(node_->status.allocatable);
  for (const auto& pod : pods_) {
    requested_.add(pod->requests);
  }
  reservations_.reserve(reservations.size());
  for (const auto& base : reservations) {
    auto info = std::make_shared<ReservationInfo>(*base);
    for (const auto& pod : pods_) {
      if (!pod->reservation_uid.empty() && pod->reservation_uid == info->uid) {
        info->allocated.add(pod->requests);
        info->owners.push_back(pod->key);
      }
    }
    if (!info->consumed())
      reserved_.add(info->remaining());
    reservations_.push_back(std::move(info));
  }
}

}  // namespace koord::extender::framework
