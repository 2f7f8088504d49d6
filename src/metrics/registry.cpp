#include "koord/metrics/registry.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

namespace koord::metrics {

namespace detail {

struct CounterCell {
  prometheus::Counter* metric;
};
struct GaugeCell {
  prometheus::Gauge* metric;
};
struct HistogramCell {
  prometheus::Histogram* metric;
};

template <typename Metric>
struct Traits;
template <>
struct Traits<Counter> {
  using Prom = prometheus::Counter;
  using Cell = CounterCell;
  static constexpr std::string_view kType = "counter";
};
template <>
struct Traits<Gauge> {
  using Prom = prometheus::Gauge;
  using Cell = GaugeCell;
  static constexpr std::string_view kType = "gauge";
};
template <>
struct Traits<Histogram> {
  using Prom = prometheus::Histogram;
  using Cell = HistogramCell;
  static constexpr std::string_view kType = "histogram";
};

template <typename Metric>
struct FamilyCell {
  using Prom = typename Traits<Metric>::Prom;
  using Cell = typename Traits<Metric>::Cell;

  prometheus::Family<Prom>* family = nullptr;
  std::string name;
  std::string help;
  std::vector<std::string> label_names;
  std::vector<double> buckets;  // histograms only

  std::mutex mu;
  std::map<std::vector<std::string>, std::unique_ptr<Cell>> series;
};

}  // namespace detail

namespace {

bool isMetricName(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
      return false;
    }
  }
  return true;
}

bool isLabelName(std::string_view name) {
  if (name.empty() || name.substr(0, 2) == "__") {
    return false;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
      return false;
    }
  }
  return true;
}

Status registerError(const std::string& name, const std::string& cause) {
  return Status::invalidArgument("failed to register metric '" + name + "': " + cause);
}

Status validateFamily(const std::string& name, const std::vector<std::string>& label_names,
                      bool histogram) {
  if (!isMetricName(name)) {
    return registerError(name, "invalid metric name");
  }
  std::set<std::string> seen;
  for (const std::string& label : label_names) {
    if (!isLabelName(label)) {
      return registerError(name, "invalid label name '" + label + "'");
    }
    if (histogram && label == "le") {
      return registerError(name, "label name 'le' is reserved for histogram buckets");
    }
    if (!seen.insert(label).second) {
      return registerError(name, "label name '" + label + "' given twice");
    }
  }
  return Status::ok();
}

Status validateBuckets(const std::string& name, const std::vector<double>& buckets) {
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!std::isfinite(buckets[i])) {
      return registerError(name, "bucket bounds must be finite");
    }
    if (i > 0 && buckets[i] <= buckets[i - 1]) {
      return registerError(name, "bucket bounds must be strictly increasing");
    }
  }
  return Status::ok();
}

template <typename Metric>
prometheus::Family<typename detail::Traits<Metric>::Prom>& buildFamily(
    prometheus::Registry& registry, const std::string& name, const std::string& help) {
  if constexpr (std::is_same_v<Metric, Counter>) {
    return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
  } else if constexpr (std::is_same_v<Metric, Gauge>) {
    return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
  } else {
    return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
  }
}

}  // namespace

struct MetricsRegistry::Impl {
  prometheus::Registry registry;
  std::mutex mu;
  std::map<std::string, std::string_view> types;  // name -> "counter" | "gauge" | "histogram"
  std::map<std::string, std::unique_ptr<detail::FamilyCell<Counter>>> counters;
  std::map<std::string, std::unique_ptr<detail::FamilyCell<Gauge>>> gauges;
  std::map<std::string, std::unique_ptr<detail::FamilyCell<Histogram>>> histograms;

  template <typename Metric>
  std::map<std::string, std::unique_ptr<detail::FamilyCell<Metric>>>& cells() {
    if constexpr (std::is_same_v<Metric, Counter>) {
      return counters;
    } else if constexpr (std::is_same_v<Metric, Gauge>) {
      return gauges;
    } else {
      return histograms;
    }
  }

  template <typename Metric>
  Result<Family<Metric>> family(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names, std::vector<double> buckets) {
    constexpr bool kHistogram = std::is_same_v<Metric, Histogram>;
    KOORD_RETURN_IF_ERROR(validateFamily(name, label_names, kHistogram));
    if constexpr (kHistogram) {
      KOORD_RETURN_IF_ERROR(validateBuckets(name, buckets));
    }
    std::lock_guard<std::mutex> lock(mu);
    const auto type = types.find(name);
    if (type != types.end()) {
      if (type->second != detail::Traits<Metric>::kType) {
        return Status::alreadyExists("failed to register metric '" + name +
                                     "': already registered as a " + std::string(type->second));
      }
      detail::FamilyCell<Metric>& existing = *cells<Metric>().at(name);
      if (existing.help != help || existing.label_names != label_names ||
          existing.buckets != buckets) {
        return Status::alreadyExists("failed to register metric '" + name +
                                     "': already registered with other help, labels or buckets");
      }
      return Family<Metric>(&existing);
    }
    auto cell = std::make_unique<detail::FamilyCell<Metric>>();
    try {
      cell->family = &buildFamily<Metric>(registry, name, help);
    } catch (const std::exception& e) {
      return registerError(name, e.what());
    }
    cell->name = name;
    cell->help = help;
    cell->label_names = std::move(label_names);
    cell->buckets = std::move(buckets);
    Family<Metric> handle(cell.get());
    types.emplace(name, detail::Traits<Metric>::kType);
    cells<Metric>().emplace(name, std::move(cell));
    return handle;
  }
};

void Counter::inc(double amount) const {
  if (cell_ != nullptr && amount > 0) {
    cell_->metric->Increment(amount);
  }
}
double Counter::value() const {
  return cell_ != nullptr ? cell_->metric->Value() : 0;
}

void Gauge::set(double value) const {
  if (cell_ != nullptr) {
    cell_->metric->Set(value);
  }
}
void Gauge::inc(double amount) const {
  if (cell_ != nullptr) {
    cell_->metric->Increment(amount);
  }
}
void Gauge::dec(double amount) const {
  if (cell_ != nullptr) {
    cell_->metric->Decrement(amount);
  }
}
double Gauge::value() const {
  return cell_ != nullptr ? cell_->metric->Value() : 0;
}

void Histogram::observe(double value) const {
  if (cell_ != nullptr) {
    cell_->metric->Observe(value);
  }
}

template <typename Metric>
Result<Metric> Family<Metric>::withLabels(const std::vector<std::string>& values) const {
  if (cell_ == nullptr) {
    return Status::failedPrecondition("failed to get metric series: the family is not registered");
  }
  if (values.size() != cell_->label_names.size()) {
    return Status::invalidArgument("failed to get series of '" + cell_->name + "': got " +
                                   std::to_string(values.size()) + " label values for " +
                                   std::to_string(cell_->label_names.size()) + " labels");
  }
  std::lock_guard<std::mutex> lock(cell_->mu);
  auto& slot = cell_->series[values];
  if (slot == nullptr) {
    prometheus::Labels labels;
    for (size_t i = 0; i < values.size(); ++i) {
      labels.emplace(cell_->label_names[i], values[i]);
    }
    try {
      if constexpr (std::is_same_v<Metric, Histogram>) {
        slot = std::make_unique<typename detail::Traits<Metric>::Cell>(
            typename detail::Traits<Metric>::Cell{&cell_->family->Add(labels, cell_->buckets)});
      } else {
        slot = std::make_unique<typename detail::Traits<Metric>::Cell>(
            typename detail::Traits<Metric>::Cell{&cell_->family->Add(labels)});
      }
    } catch (const std::exception& e) {
      cell_->series.erase(values);
      return Status::invalidArgument("failed to get series of '" + cell_->name + "': " + e.what());
    }
  }
  return Metric(slot.get());
}

template <typename Metric>
Result<Metric> Family<Metric>::withLabels(std::initializer_list<std::string_view> values) const {
  return withLabels(std::vector<std::string>(values.begin(), values.end()));
}

template <typename Metric>
Status Family<Metric>::remove(const std::vector<std::string>& values) const {
  if (cell_ == nullptr) {
    return Status::failedPrecondition(
        "failed to remove metric series: the family is not registered");
  }
  std::lock_guard<std::mutex> lock(cell_->mu);
  const auto it = cell_->series.find(values);
  if (it == cell_->series.end()) {
    return Status::notFound("failed to remove series of '" + cell_->name + "': no such series");
  }
  cell_->family->Remove(it->second->metric);
  cell_->series.erase(it);
  return Status::ok();
}

template <typename Metric>
const std::vector<std::string>& Family<Metric>::labelNames() const {
  static const std::vector<std::string> kNone;
  return cell_ != nullptr ? cell_->label_names : kNone;
}

template class Family<Counter>;
template class Family<Gauge>;
template class Family<Histogram>;

std::vector<double> defaultBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

std::vector<double> exponentialBuckets(double start, double factor, int count) {
  std::vector<double> buckets;
  double bound = start;
  for (int i = 0; i < count; ++i) {
    buckets.push_back(bound);
    bound *= factor;
  }
  return buckets;
}

MetricsRegistry::MetricsRegistry() : impl_(std::make_unique<Impl>()) {}
MetricsRegistry::~MetricsRegistry() = default;

Result<CounterFamily> MetricsRegistry::counterFamily(const std::string& name,
                                                     const std::string& help,
                                                     std::vector<std::string> label_names) {
  return impl_->family<Counter>(name, help, std::move(label_names), {});
}

Result<GaugeFamily> MetricsRegistry::gaugeFamily(const std::string& name, const std::string& help,
                                                 std::vector<std::string> label_names) {
  return impl_->family<Gauge>(name, help, std::move(label_names), {});
}

Result<HistogramFamily> MetricsRegistry::histogramFamily(const std::string& name,
                                                         const std::string& help,
                                                         std::vector<std::string> label_names,
                                                         std::vector<double> buckets) {
  return impl_->family<Histogram>(name, help, std::move(label_names), std::move(buckets));
}

Result<Counter> MetricsRegistry::counter(const std::string& name, const std::string& help) {
  KOORD_ASSIGN_OR_RETURN(CounterFamily family, counterFamily(name, help));
  return family.withLabels(std::vector<std::string>{});
}

Result<Gauge> MetricsRegistry::gauge(const std::string& name, const std::string& help) {
  KOORD_ASSIGN_OR_RETURN(GaugeFamily family, gaugeFamily(name, help));
  return family.withLabels(std::vector<std::string>{});
}

Result<Histogram> MetricsRegistry::histogram(const std::string& name, const std::string& help,
                                             std::vector<double> buckets) {
  KOORD_ASSIGN_OR_RETURN(HistogramFamily family,
                         histogramFamily(name, help, {}, std::move(buckets)));
  return family.withLabels(std::vector<std::string>{});
}

std::string MetricsRegistry::serialize() const {
  std::vector<prometheus::MetricFamily> families = impl_->registry.Collect();
  std::sort(families.begin(), families.end(),
            [](const prometheus::MetricFamily& a, const prometheus::MetricFamily& b) {
              return a.name < b.name;
            });
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace koord::metrics
