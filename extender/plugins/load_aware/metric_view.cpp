#include "extender/plugins/load_aware/metric_view.hpp"

#include <algorithm>

#include "koord/api/core/time.hpp"
#include "koord/api/extension/duration.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

std::chrono::seconds clampSeconds(int64_t seconds) {
  return std::chrono::seconds(std::clamp<int64_t>(seconds, -kMaxSeconds, kMaxSeconds));
}

WallTime shifted(WallTime t, std::chrono::nanoseconds d) {
  using Rep = WallTime::duration::rep;
  const auto since = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch());
  Rep out = 0;
  if (__builtin_add_overflow(since.count(), d.count(), &out))
    return d.count() > 0 ? WallTime::max() : WallTime::min();
  return WallTime(std::chrono::duration_cast<WallTime::duration>(std::chrono::nanoseconds(out)));
}

std::shared_ptr<const MetricView> MetricView::build(const api::slo::NodeMetric& metric,
                                                    const ResourceNames& names) {
  auto view = std::make_shared<MetricView>();
  if (metric.status.updateTime) {
    auto parsed = api::core::parseTime(*metric.status.updateTime);
    if (parsed.ok())
      view->update_time = *parsed;
  }
  if (metric.spec.metricCollectPolicy && metric.spec.metricCollectPolicy->reportIntervalSeconds)
    view->report_interval = clampSeconds(*metric.spec.metricCollectPolicy->reportIntervalSeconds);
  view->node_usage = names.zeros();
  view->system_usage = names.zeros();
  if (const auto& info = metric.status.nodeMetric) {
    view->has_node_metric = true;
    view->node_usage = names.fromList(info->nodeUsage.resources);
    view->system_usage = names.fromList(info->systemUsage.resources);
    std::map<std::string, int64_t> longest;
    for (const auto& aggregated : info->aggregatedNodeUsages) {
      auto duration = api::extension::parseDuration(aggregated.duration);
      if (!duration.ok())
        continue;
      const int64_t ns = duration->count();
      for (const auto& [type, usage] : aggregated.usage) {
        if (usage.resources.empty())
          continue;
        view->aggregated[{type, ns}] = names.fromList(usage.resources);
        auto [it, inserted] = longest.try_emplace(type, ns);
        if (!inserted && ns > it->second)
          it->second = ns;
      }
    }
    for (const auto& [type, ns] : longest)
      view->aggregated[{type, 0}] = view->aggregated[{type, ns}];
  }
  for (const auto& pod : metric.status.podsMetric) {
    if (pod.podUsage.resources.empty())
      continue;
    const std::string key = pod.namespace_ + "/" + pod.name;
    view->pod_usages[key] = names.fromList(pod.podUsage.resources);
    if (pod.priority == api::toString(api::PriorityClass::kProd))
      view->prod_pods.insert(key);
  }
  return view;
}

const ResourceVector* MetricView::aggregatedUsage(const std::string& type,
                                                  std::chrono::nanoseconds duration) const {
  auto it = aggregated.find({type, duration.count()});
  if (it != aggregated.end())
    return &it->second;
  if (duration.count() == 0 && has_node_metric)
    return &node_usage;
  return nullptr;
}

bool MetricView::expired(WallTime now, std::chrono::seconds expiration) const {
  if (!update_time)
    return true;
  return expiration.count() > 0 && *update_time <= shifted(now, -expiration);
}

}  // namespace koord::extender::plugins::load_aware
