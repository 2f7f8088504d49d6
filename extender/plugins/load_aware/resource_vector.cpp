#include "extender/plugins/load_aware/resource_vector.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::load_aware {

int64_t resourceValue(std::string_view name, const resource::Quantity& quantity) {
  return name == api::kResourceCPU ? quantity.milliValue() : quantity.value();
}

ResourceNames::ResourceNames(std::vector<std::string> names) : names_(std::move(names)) {
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
}

ResourceNames ResourceNames::fromArgs(const LoadAwareArgs& args) {
  std::vector<std::string> names = {std::string(api::kResourceCPU),
                                    std::string(api::kResourceMemory)};
  auto take = [&](const ResourceAmounts& amounts) {
    for (const auto& [name, value] : amounts)
      names.push_back(name);
  };
  take(args.resource_weights);
  take(args.usage_thresholds);
  take(args.prod_usage_thresholds);
  take(args.estimated_scaling_factors);
  if (args.aggregated)
    take(args.aggregated->usage_thresholds);
  names.insert(names.end(), args.supported_resources.begin(), args.supported_resources.end());
  return ResourceNames(std::move(names));
}

std::optional<size_t> ResourceNames::indexOf(std::string_view name) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), name);
  if (it == names_.end() || *it != name)
    return std::nullopt;
  return static_cast<size_t>(it - names_.begin());
}

ResourceVector ResourceNames::fromList(const resource::ResourceList& list) const {
  ResourceVector out(names_.size(), 0);
  for (size_t i = 0; i < names_.size(); ++i) {
    auto it = list.find(names_[i]);
    if (it != list.end())
      out[i] = resourceValue(names_[i], it->second);
  }
  return out;
}

ResourceVector ResourceNames::fromAmounts(const ResourceAmounts& amounts) const {
  ResourceVector out(names_.size(), 0);
  for (size_t i = 0; i < names_.size(); ++i) {
    auto it = amounts.find(names_[i]);
    if (it != amounts.end())
      out[i] = it->second;
  }
  return out;
}

bool allZero(const ResourceVector& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

namespace {

// a + b, saturated at the int64 range (amounts come from reports and pods as written).
int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return out;
}

}  // namespace

void addTo(ResourceVector& to, const ResourceVector& from) {
  for (size_t i = 0; i < to.size() && i < from.size(); ++i)
    to[i] = saturatingAdd(to[i], from[i]);
}

bool addDelta(ResourceVector& to, const ResourceVector& x, const ResourceVector* y) {
  bool changed = false;
  for (size_t i = 0; i < to.size() && i < x.size(); ++i) {
    int64_t value = x[i];
    if (y != nullptr && i < y->size())
      value = saturatingAdd(value, (*y)[i] == std::numeric_limits<int64_t>::min()
                                       ? std::numeric_limits<int64_t>::max()
                                       : -(*y)[i]);
    if (value > 0) {
      to[i] = saturatingAdd(to[i], value);
      changed = true;
    }
  }
  return changed;
}

}  // namespace koord::extender::plugins::load_aware
