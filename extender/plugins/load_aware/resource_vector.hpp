// ResourceNames and ResourceVector: the resources LoadAwareScheduling accounts, as a fixed, sorted
// list of names (Koordinator's ResourceVectorizer), and amounts as one int64 per name: cpu in
// milli-cores, every other resource as Quantity::value() (bytes for memory; batch-cpu in its own
// unit, milli-cores). Names outside the list are ignored wherever amounts are read.
//
// The list: cpu, memory, every resource named in the args (weights, thresholds, scaling factors)
// and supportedResources. Immutable; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extender/plugins/load_aware/load_aware_args.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::extender::plugins::load_aware {

using ResourceVector = std::vector<int64_t>;

// cpu: milliValue(); anything else: value().
[[nodiscard]] int64_t resourceValue(std::string_view name, const resource::Quantity& quantity);

class ResourceNames {
 public:
  // Sorted and made unique.
  explicit ResourceNames(std::vector<std::string> names);
  [[nodiscard]] static ResourceNames fromArgs(const LoadAwareArgs& args);

  [[nodiscard]] size_t size() const { return names_.size(); }
  [[nodiscard]] const std::string& name(size_t i) const { return names_[i]; }
  [[nodiscard]] std::optional<size_t> indexOf(std::string_view name) const;

  [[nodiscard]] ResourceVector zeros() const { return ResourceVector(names_.size(), 0); }
  // The amounts of `list` (missing names: 0).
  [[nodiscard]] ResourceVector fromList(const resource::ResourceList& list) const;
  // The integers of `amounts` as they are (missing names: 0).
  [[nodiscard]] ResourceVector fromAmounts(const ResourceAmounts& amounts) const;

 private:
  std::vector<std::string> names_;
};

// True when every amount is 0 (Koordinator's ResourceVector.Empty).
[[nodiscard]] bool allZero(const ResourceVector& v);
// to[i] += from[i] (saturated at the int64 range, as addDelta).
void addTo(ResourceVector& to, const ResourceVector& from);
// to[i] += max(0, x[i] - y[i]) (y == nullptr: y is 0); whether anything was added.
bool addDelta(ResourceVector& to, const ResourceVector& x, const ResourceVector* y);

}  // namespace koord::extender::plugins::load_aware
