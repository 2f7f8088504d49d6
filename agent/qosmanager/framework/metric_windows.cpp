#include "agent/qosmanager/framework/metric_windows.hpp"

namespace koord::agent::qosmanager::framework {

std::optional<metriccache::AggregateResult> MetricWindows::window(
    metriccache::MetricKind kind, std::string_view id, std::chrono::milliseconds window) const {
  if (window.count() < 0) {
    return std::nullopt;
  }
  return cache_.aggregate(kind, id, now_ - window, now_);
}

}  // namespace koord::agent::qosmanager::framework
