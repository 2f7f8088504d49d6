#include "extender/framework/runtime.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "extender/framework/runtime_internal.hpp"
#include "koord/common/cpu_budget.hpp"

namespace koord::extender::framework {
namespace {

constexpr int64_t kDefaultMinParallelWork = 2048;
constexpr size_t kMinChunk = 32;

// Splits `message` into its lines (a factory reports one error per line).
std::vector<std::string> lines(const std::string& message) {
  std::vector<std::string> out;
  std::istringstream in(message);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty())
      out.push_back(std::move(line));
  }
  return out;
}

struct Families {
  metrics::HistogramFamily plugin;
  metrics::HistogramFamily verb;
};

Result<Families> makeFamilies(metrics::MetricsRegistry& registry) {
  Families out;
  KOORD_ASSIGN_OR_RETURN(
      out.plugin, registry.histogramFamily(
                      "koord_extender_plugin_duration_seconds",
                      "Time spent in one plugin at one extension point (filter and score: summed "
                      "over the nodes of one verb call).",
                      {"plugin", "extension_point"}, metrics::exponentialBuckets(1e-5, 2, 20)));
  KOORD_ASSIGN_OR_RETURN(
      out.verb, registry.histogramFamily("koord_extender_verb_duration_seconds",
                                         "Time the extender runtime spent in one verb call.",
                                         {"verb"}, metrics::exponentialBuckets(5e-5, 2, 20)));
  return out;
}

metrics::Histogram series(const Families* families, const std::string& plugin,
                          std::string_view point) {
  if (families == nullptr)
    return {};
  return families->plugin.withLabels({plugin, point}).valueOr({});
}

template <class P>
void addEntry(std::vector<PluginEntry<P>>& list, Plugin* plugin, size_t index,
              const std::string* name, int64_t weight, const Families* families,
              std::string_view point, std::string_view second_point = {}) {
  auto* typed = dynamic_cast<P*>(plugin);
  if (typed == nullptr)
    return;
  PluginEntry<P> entry;
  entry.plugin = typed;
  entry.index = index;
  entry.name = name;
  entry.weight = weight;
  entry.duration = series(families, *name, point);
  if (!second_point.empty())
    entry.second_duration = series(families, *name, second_point);
  list.push_back(entry);
}

}  // namespace

PluginStatus Runtime::Impl::runPreFilter(CycleState& state, const PodInfo& pod,
                                         std::vector<char>& skipped) const {
  skipped.assign(plugins.size(), 0);
  for (const auto& entry : pre_filter) {
    const auto start = SteadyClock::now();
    PluginStatus status =
        guardedCall(*entry.name, "preFilter", [&] { return entry.plugin->preFilter(state, pod); });
    entry.duration.observe(secondsSince(start));
    if (status.isSkip()) {
      skipped[entry.index] = 1;
    } else if (!status.isSuccess()) {
      if (status.code() == Code::kWait) {
        status = PluginStatus::error("preFilter returned Wait, which only permit may return");
      }
      return status.withPlugin(*entry.name);
    }
  }
  return PluginStatus::success();
}

PluginStatus Runtime::Impl::runFilters(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node,
                                       const std::vector<char>& skipped) const {
  for (const auto& entry : filter) {
    if (skipped[entry.index])
      continue;
    PluginStatus status =
        guardedCall(*entry.name, "filter", [&] { return entry.plugin->filter(state, pod, node); });
    if (!status.isSuccess() && !status.isSkip()) {
      return status.withPlugin(*entry.name);
    }
  }
  return PluginStatus::success();
}

PluginStatus Runtime::Impl::forChunks(size_t n, size_t calls_per_item,
                                      const std::function<void(size_t, size_t)>& fn) const {
  size_t chunks = 1;
  const size_t threads = pool->workers() + 1;
  if (threads > 1 && static_cast<int64_t>(n * calls_per_item) >= min_parallel_work) {
    chunks = std::clamp<size_t>(n / kMinChunk, 1, threads * 4);
  }
  const size_t per_chunk = (n + chunks - 1) / std::max<size_t>(chunks, 1);
  Status status = pool->parallelFor(chunks, [&](size_t c) {
    const size_t begin = c * per_chunk;
    const size_t end = std::min(n, begin + per_chunk);
    if (begin < end)
      fn(begin, end);
  });
  if (!status.isOk()) {
    return PluginStatus::error("a plugin threw: " + status.message());
  }
  return PluginStatus::success();
}

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

Result<std::unique_ptr<Runtime>> Runtime::create(const Registry& registry, const Handle& handle,
                                                 RuntimeOptions options,
                                                 metrics::MetricsRegistry* metrics) {
  std::vector<std::string> errors;
  std::optional<Families> families;
  if (metrics != nullptr) {
    auto made = makeFamilies(*metrics);
    if (made.ok()) {
      families = std::move(made).value();
    } else {
      errors.push_back("failed to register the runtime metrics: " + made.status().message());
    }
  }
  auto impl = std::make_unique<Impl>();
  impl->handle = &handle;
  if (options.plugin_metrics_sample_percent < 0 || options.plugin_metrics_sample_percent > 100) {
    errors.push_back("plugin_metrics_sample_percent: must be within 0..100, got " +
                     std::to_string(options.plugin_metrics_sample_percent));
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < options.plugins.size(); ++i) {
    auto& config = options.plugins[i];
    const std::string path = "plugins[" + std::to_string(i) + "]";
    if (config.name.empty()) {
      errors.push_back(path + ".name: must not be empty");
      continue;
    }
    if (!seen.insert(config.name).second) {
      errors.push_back(path + ".name: plugin '" + config.name + "' is configured twice");
      continue;
    }
    if (config.weight <= 0) {
      errors.push_back(path + ".weight: must be positive, got " + std::to_string(config.weight));
    }
    const PluginFactory* factory = registry.find(config.name);
    if (factory == nullptr) {
      std::string known;
      for (const auto& name : registry.names()) {
        known += (known.empty() ? "" : ", ") + name;
      }
      errors.push_back(path + ".name: unknown plugin '" + config.name + "' (known: " + known + ")");
      continue;
    }
    Result<std::unique_ptr<Plugin>> plugin = Status::internal("factory not called");
    try {
      plugin = (*factory)(config.args, handle);
    } catch (const std::exception& e) {
      plugin = Status::internal(std::string("the factory threw: ") + e.what());
    }
    if (!plugin.ok()) {
      for (const auto& line : lines(plugin.status().message())) {
        errors.push_back(path + " (" + config.name + ").args: " + line);
      }
      continue;
    }
    if (*plugin == nullptr) {
      errors.push_back(path + " (" + config.name + "): the factory made no plugin");
      continue;
    }
    impl->names.push_back(config.name);
    impl->plugins.push_back(std::move(plugin).value());
  }
  if (!errors.empty()) {
    std::string message;
    for (const auto& error : errors) {
      message += (message.empty() ? "" : "\n") + error;
    }
    return Status::invalidArgument(std::move(message));
  }
  const Families* fam = families ? &*families : nullptr;
  for (size_t i = 0; i < impl->plugins.size(); ++i) {
    Plugin* p = impl->plugins[i].get();
    const std::string* name = &impl->names[i];
    const int64_t weight = options.plugins[i].weight;
    addEntry(impl->pre_filter, p, i, name, weight, fam, "pre_filter");
    addEntry(impl->filter, p, i, name, weight, fam, "filter");
    addEntry(impl->score, p, i, name, weight, fam, "score", "normalize_score");
    addEntry(impl->reserve, p, i, name, weight, fam, "reserve", "unreserve");
    addEntry(impl->permit, p, i, name, weight, fam, "permit");
    addEntry(impl->pre_bind, p, i, name, weight, fam, "pre_bind");
    addEntry(impl->preempt, p, i, name, weight, fam, "select_victims");
  }
  if (fam != nullptr) {
    impl->verb_filter = fam->verb.withLabels({"filter"}).valueOr({});
    impl->verb_prioritize = fam->verb.withLabels({"prioritize"}).valueOr({});
    impl->verb_bind = fam->verb.withLabels({"bind"}).valueOr({});
    impl->verb_preempt = fam->verb.withLabels({"preempt"}).valueOr({});
  }
  int threads = options.parallelism;
  if (threads <= 0) {
    threads = availableCpus();  // the container's CPUs: its cpuset and CPU limit
  }
  impl->pool = std::make_unique<ThreadPool>(threads - 1);
  impl->min_parallel_work =
      options.min_parallel_work > 0 ? options.min_parallel_work : kDefaultMinParallelWork;
  impl->max_permit_wait = options.max_permit_wait;
  impl->bind_timeout = options.bind_timeout;
  impl->plugin_metrics_sample_percent = options.plugin_metrics_sample_percent;
  return std::unique_ptr<Runtime>(new Runtime(std::move(impl)));
}

std::chrono::milliseconds Runtime::bindTimeout() const {
  return impl_->bind_timeout;
}

bool Runtime::scores() const {
  return !impl_->score.empty();
}

std::vector<std::string> Runtime::pluginNames() const {
  return impl_->names;
}

Runtime::FilterResult Runtime::filter(const PodInfo& pod,
                                      const std::vector<std::shared_ptr<const NodeInfo>>& nodes,
                                      const std::vector<std::string>* names) const {
  const auto verb_start = Impl::SteadyClock::now();
  const auto name_of = [&](size_t i) -> const std::string& {
    return names != nullptr ? (*names)[i] : nodes[i]->name();
  };
  FilterResult result;
  CycleState state;
  std::vector<char> skipped;
  PluginStatus pre = impl_->runPreFilter(state, pod, skipped);
  if (pre.code() == Code::kError) {
    result.error = std::move(pre);
  } else if (pre.isRejected()) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      result.failed.emplace(name_of(i), pre);
    }
  } else if (std::all_of(impl_->filter.begin(), impl_->filter.end(),
                         [&](const auto& entry) { return skipped[entry.index] != 0; })) {
    // No filter plugin has anything to check for this pod: every node passes, and no per-node
    // status, call or timing is needed.
    if (names != nullptr) {
      result.feasible = *names;
    } else {
      result.feasible.reserve(nodes.size());
      for (const auto& node : nodes) {
        result.feasible.push_back(node->name());
      }
    }
  } else {
    const auto& filters = impl_->filter;
    const bool timed = impl_->timesPlugins(impl_->filter_calls);
    std::vector<PluginStatus> statuses(nodes.size());
    std::vector<std::atomic<int64_t>> spent(filters.size());
    PluginStatus run = impl_->forChunks(
        nodes.size(), std::max<size_t>(filters.size(), 1), [&](size_t begin, size_t end) {
          std::vector<int64_t> local(filters.size(), 0);
          constexpr size_t kDataAhead = 2;  // plugins' node data of the node two places on
          for (size_t i = begin; i < end; ++i) {
            if (i + kDataAhead < end)
              nodes[i + kDataAhead]->prefetchData();
            auto t = timed ? Impl::SteadyClock::now() : Impl::SteadyClock::time_point{};
            for (size_t k = 0; k < filters.size(); ++k) {
              const auto& entry = filters[k];
              if (skipped[entry.index])
                continue;
              PluginStatus status = guardedCall(*entry.name, "filter", [&] {
                return entry.plugin->filter(state, pod, *nodes[i]);
              });
              if (timed) {
                const auto t2 = Impl::SteadyClock::now();
                local[k] += (t2 - t).count();
                t = t2;
              }
              if (!status.isSuccess() && !status.isSkip()) {
                statuses[i] = std::move(status.withPlugin(*entry.name));
                break;
              }
            }
          }
          for (size_t k = 0; k < filters.size() && timed; ++k) {
            spent[k].fetch_add(local[k], std::memory_order_relaxed);
          }
        });
    for (size_t k = 0; k < filters.size() && timed; ++k) {
      if (!skipped[filters[k].index]) {
        filters[k].duration.observe(
            std::chrono::duration<double>(Impl::SteadyClock::duration(spent[k].load())).count());
      }
    }
    if (!run.isSuccess()) {
      result.error = std::move(run);
    } else {
      result.feasible.reserve(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        PluginStatus& status = statuses[i];
        if (status.isSuccess()) {
          result.feasible.push_back(name_of(i));
        } else if (status.isRejected()) {
          result.failed.emplace(name_of(i), std::move(status));
        } else if (result.error.isSuccess()) {
          if (status.code() != Code::kError) {
            status =
                PluginStatus(Code::kError, {"filter returned an invalid code: " + status.message()})
                    .withPlugin(status.plugin());
          }
          result.error = std::move(status);
        }
      }
      if (!result.error.isSuccess()) {
        result.feasible.clear();
        result.failed.clear();
      }
    }
  }
  impl_->verb_filter.observe(secondsSince(verb_start));
  return result;
}

std::vector<int64_t> Runtime::score(
    const PodInfo& pod, const std::vector<std::shared_ptr<const NodeInfo>>& nodes) const {
  const auto verb_start = Impl::SteadyClock::now();
  std::vector<int64_t> totals(nodes.size(), 0);
  CycleState state;
  std::vector<char> skipped;
  const auto& scorers = impl_->score;
  std::vector<size_t> active;
  if (impl_->runPreFilter(state, pod, skipped).isSuccess()) {
    for (size_t k = 0; k < scorers.size(); ++k) {
      if (!skipped[scorers[k].index] && scorers[k].plugin->scores(state, pod)) {
        active.push_back(k);
      }
    }
  }
  if (!active.empty() && !nodes.empty()) {
    const bool timed = impl_->timesPlugins(impl_->score_calls);
    std::vector<std::vector<int64_t>> scores(active.size(), std::vector<int64_t>(nodes.size()));
    std::vector<std::atomic<int64_t>> spent(active.size());
    PluginStatus run = impl_->forChunks(nodes.size(), active.size(), [&](size_t begin, size_t end) {
      std::vector<int64_t> local(active.size(), 0);
      for (size_t i = begin; i < end; ++i) {
        auto t = timed ? Impl::SteadyClock::now() : Impl::SteadyClock::time_point{};
        for (size_t a = 0; a < active.size(); ++a) {
          scores[a][i] = scorers[active[a]].plugin->score(state, pod, *nodes[i]);
          if (timed) {
            const auto t2 = Impl::SteadyClock::now();
            local[a] += (t2 - t).count();
            t = t2;
          }
        }
      }
      for (size_t a = 0; a < active.size() && timed; ++a) {
        spent[a].fetch_add(local[a], std::memory_order_relaxed);
      }
    });
    if (run.isSuccess()) {
      std::vector<const NodeInfo*> raw(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i)
        raw[i] = nodes[i].get();
      int64_t counted_weight = 0;
      for (size_t a = 0; a < active.size(); ++a) {
        const auto& entry = scorers[active[a]];
        if (timed) {
          entry.duration.observe(
              std::chrono::duration<double>(Impl::SteadyClock::duration(spent[a].load())).count());
        }
        const auto start = Impl::SteadyClock::now();
        entry.plugin->normalizeScores(state, pod, raw, scores[a]);
        entry.second_duration.observe(secondsSince(start));
        if (scores[a].size() != nodes.size()) {
          continue;  // a plugin that resized its scores contributes nothing
        }
        // A plugin that scores every node 0 has no preference for this pod (Reservation for a pod
        // that owns none): leaving it out of the average keeps it from compressing the others.
        if (std::all_of(scores[a].begin(), scores[a].end(), [](int64_t v) { return v <= 0; })) {
          continue;
        }
        counted_weight += entry.weight;
        for (size_t i = 0; i < nodes.size(); ++i) {
          totals[i] += entry.weight * std::clamp<int64_t>(scores[a][i], 0, 100);
        }
      }
      for (auto& total : totals)
        total = counted_weight > 0 ? total / counted_weight : 0;
    } else {
      std::fill(totals.begin(), totals.end(), 0);
    }
  }
  impl_->verb_prioritize.observe(secondsSince(verb_start));
  return totals;
}

}  // namespace koord::extender::framework
