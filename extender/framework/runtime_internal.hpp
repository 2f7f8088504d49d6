// Runtime internals shared by runtime.cpp (create, filter, score) and runtime_bind.cpp (bind,
// preempt). Not for plugins.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extender/framework/runtime.hpp"

namespace koord::extender::framework {

// Runs one call of a plugin at one extension point (`point`: "reserve", "permit", ...). An
// exception it throws becomes kError "<point> threw: <what>" naming the plugin, as a returned error
// would.
template <typename Call>
PluginStatus guardedCall(const std::string& plugin, std::string_view point, Call&& call) {
  try {
    return call();
  } catch (const std::exception& e) {
    return PluginStatus::error(std::string(point) + " threw: " + e.what()).withPlugin(plugin);
  } catch (...) {
    return PluginStatus::error(std::string(point) + " threw").withPlugin(plugin);
  }
}

// One plugin at one extension point, with its metric series.
template <class P>
struct PluginEntry {
  P* plugin = nullptr;
  size_t index = 0;  // position in the config (the skip mask's index)
  const std::string* name = nullptr;
  int64_t weight = 1;
  metrics::Histogram duration;
  metrics::Histogram second_duration;  // normalize_score (score) or unreserve (reserve)
};

struct Runtime::Impl {
  using SteadyClock = std::chrono::steady_clock;

  const Handle* handle = nullptr;
  std::vector<std::unique_ptr<Plugin>> plugins;
  std::vector<std::string> names;
  std::vector<PluginEntry<PreFilterPlugin>> pre_filter;
  std::vector<PluginEntry<FilterPlugin>> filter;
  std::vector<PluginEntry<ScorePlugin>> score;
  std::vector<PluginEntry<ReservePlugin>> reserve;
  std::vector<PluginEntry<PermitPlugin>> permit;
  std::vector<PluginEntry<PreBindPlugin>> pre_bind;
  std::vector<PluginEntry<PreemptPlugin>> preempt;
  metrics::Histogram verb_filter;
  metrics::Histogram verb_prioritize;
  metrics::Histogram verb_bind;
  metrics::Histogram verb_preempt;
  std::unique_ptr<ThreadPool> pool;
  int64_t min_parallel_work = 0;
  std::chrono::milliseconds max_permit_wait{0};
  std::chrono::milliseconds bind_timeout{0};
  int plugin_metrics_sample_percent = 100;
  mutable std::atomic<uint64_t> filter_calls{0};
  mutable std::atomic<uint64_t> score_calls{0};

  // Whether this call of a verb (counted in `calls`) times its plugins per node: call n is timed
  // when n * percent mod 100 < percent, which takes call 0 and spreads the rest evenly.
  [[nodiscard]] bool timesPlugins(std::atomic<uint64_t>& calls) const {
    const auto percent = static_cast<uint64_t>(plugin_metrics_sample_percent);
    const uint64_t n = calls.fetch_add(1, std::memory_order_relaxed);
    return (n % 100) * percent % 100 < percent;
  }

  // Runs every preFilter plugin in order. Marks skipped[index] for kSkip; returns the first
  // rejection or error (tagged with its plugin), else success.
  PluginStatus runPreFilter(CycleState& state, const PodInfo& pod,
                            std::vector<char>& skipped) const;
  // Every filter plugin not skipped, in order, on one node, untimed (bind's re-check).
  PluginStatus runFilters(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                          const std::vector<char>& skipped) const;
  // Calls fn(begin, end) over [0, n) in chunks, on the pool when n * calls_per_item is big
  // enough. kError when a chunk threw.
  PluginStatus forChunks(size_t n, size_t calls_per_item,
                         const std::function<void(size_t, size_t)>& fn) const;
};

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace koord::extender::framework
