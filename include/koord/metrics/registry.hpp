// MetricsRegistry: Prometheus counters, gauges and histograms (prometheus-cpp underneath, private).
//
//   MetricsRegistry registry;
//   auto family = registry.counterFamily("koord_extender_filter_total", "Filter calls.",
//   {"result"}); Counter ok = family->withLabels({"ok"}).value();   // look a series up once, keep
//   the handle ok.inc(); registry.serialize();  // the Prometheus text exposition format (0.0.4)
//
// Names follow Prometheus rules: metric [a-zA-Z_:][a-zA-Z0-9_:]*, label [a-zA-Z_][a-zA-Z0-9_]*
// (not starting with "__"; "le" is reserved for histograms). Registering a family again with the
// same type, help, labels (and buckets) returns the existing family; anything else with that name
// is kAlreadyExists.
//
// Thread safety: every method of the registry, families and handles is thread-safe. Handles are
// small values (a pointer); they stay valid as long as the registry lives and their series is not
// removed. A default-constructed handle does nothing.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::metrics {

namespace detail {
struct CounterCell;
struct GaugeCell;
struct HistogramCell;
template <typename Metric>
struct FamilyCell;
}  // namespace detail

template <typename Metric>
class Family;

// A monotonically increasing value.
class Counter {
 public:
  Counter() = default;
  // Negative and NaN amounts are ignored: a counter never goes down.
  void inc(double amount = 1) const;
  [[nodiscard]] double value() const;

 private:
  friend class Family<Counter>;
  explicit Counter(detail::CounterCell* cell) : cell_(cell) {}
  detail::CounterCell* cell_ = nullptr;
};

// A value that goes up and down.
class Gauge {
 public:
  Gauge() = default;
  void set(double value) const;
  void inc(double amount = 1) const;
  void dec(double amount = 1) const;
  [[nodiscard]] double value() const;

 private:
  friend class Family<Gauge>;
  explicit Gauge(detail::GaugeCell* cell) : cell_(cell) {}
  detail::GaugeCell* cell_ = nullptr;
};

// Observations counted into cumulative buckets (with _sum and _count).
class Histogram {
 public:
  Histogram() = default;
  void observe(double value) const;

 private:
  friend class Family<Histogram>;
  explicit Histogram(detail::HistogramCell* cell) : cell_(cell) {}
  detail::HistogramCell* cell_ = nullptr;
};

// A metric name with its label names; each combination of label values is one series.
template <typename Metric>
class Family {
 public:
  Family() = default;

  // The series for `values` (one per label name, in order), created on first use.
  // kInvalidArgument when the number of values differs from the number of label names.
  [[nodiscard]] Result<Metric> withLabels(const std::vector<std::string>& values) const;
  [[nodiscard]] Result<Metric> withLabels(std::initializer_list<std::string_view> values) const;
  // Deletes a series (for example of a pod that is gone); its handles must no longer be used.
  // kNotFound when it does not exist.
  [[nodiscard]] Status remove(const std::vector<std::string>& values) const;
  [[nodiscard]] const std::vector<std::string>& labelNames() const;

 private:
  friend class MetricsRegistry;
  explicit Family(detail::FamilyCell<Metric>* cell) : cell_(cell) {}
  detail::FamilyCell<Metric>* cell_ = nullptr;
};

extern template class Family<Counter>;
extern template class Family<Gauge>;
extern template class Family<Histogram>;

using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

// Prometheus' default buckets: .005 .01 .025 .05 .1 .25 .5 1 2.5 5 10 (seconds).
std::vector<double> defaultBuckets();
// `count` buckets: start, start*factor, start*factor^2, ...
std::vector<double> exponentialBuckets(double start, double factor, int count);

// The Content-Type of serialize()'s output.
inline constexpr std::string_view kPrometheusTextContentType =
    "text/plain; version=0.0.4; charset=utf-8";

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  [[nodiscard]] Result<CounterFamily> counterFamily(const std::string& name,
                                                    const std::string& help,
                                                    std::vector<std::string> label_names = {});
  [[nodiscard]] Result<GaugeFamily> gaugeFamily(const std::string& name, const std::string& help,
                                                std::vector<std::string> label_names = {});
  // `buckets` are upper bounds, strictly increasing and finite (+Inf is implied).
  [[nodiscard]] Result<HistogramFamily> histogramFamily(const std::string& name,
                                                        const std::string& help,
                                                        std::vector<std::string> label_names,
                                                        std::vector<double> buckets);

  // Shorthands for a family without labels and its single series.
  [[nodiscard]] Result<Counter> counter(const std::string& name, const std::string& help);
  [[nodiscard]] Result<Gauge> gauge(const std::string& name, const std::string& help);
  [[nodiscard]] Result<Histogram> histogram(const std::string& name, const std::string& help,
                                            std::vector<double> buckets);

  // Every family in the Prometheus text format (version 0.0.4), sorted by name.
  [[nodiscard]] std::string serialize() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace koord::metrics
