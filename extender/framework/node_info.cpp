#include "extender/framework/node_info.hpp"

#include <utility>

namespace koord::extender::framework {

NodeInfo::NodeInfo(std::shared_ptr<const api::core::Node> node,
                   std::vector<std::shared_ptr<const PodInfo>> pods)
    : node_(std::move(node)), pods_(std::move(pods)) {
  allocatable_ = Resource::fromList(node_->status.allocatable);
  for (const auto& pod : pods_) {
    requested_.add(pod->requests);
    non_zero_requested_.milli_cpu += pod->non_zero.milli_cpu;
    non_zero_requested_.memory += pod->non_zero.memory;
  }
}

}  // namespace koord::extender::framework
