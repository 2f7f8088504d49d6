// Handle: what a plugin may use besides its arguments: a read view of the cluster, the clock and
// a logger. The runtime (koord-extender) and the simulator each provide one.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/node_info.hpp"
#include "extender/framework/pod_info.hpp"
#include "koord/common/clock.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::framework {

// The cluster as the scheduler sees it now (informer caches plus assumed pods). Thread-safe.
class ClusterView {
 public:
  virtual ~ClusterView() = default;
  // nullptr when the node is unknown.
  [[nodiscard]] virtual std::shared_ptr<const NodeInfo> nodeInfo(std::string_view name) const = 0;
  // Every node, sorted by name.
  [[nodiscard]] virtual std::vector<std::shared_ptr<const NodeInfo>> nodeInfos() const = 0;
  // A pod by "namespace/name" (bound, assumed or pending); nullptr when unknown.
  [[nodiscard]] virtual std::shared_ptr<const PodInfo> pod(std::string_view key) const = 0;
};

class Handle {
 public:
  virtual ~Handle() = default;
  [[nodiscard]] virtual const ClusterView& cluster() const = 0;
  [[nodiscard]] virtual const Clock& clock() const = 0;
  [[nodiscard]] virtual const log::Logger& logger() const = 0;
};

}  // namespace koord::extender::framework
