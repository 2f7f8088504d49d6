// ResourceList: resource name -> Quantity (core/v1 ResourceList), with the arithmetic the
// schedulers use. A key missing from a list counts as zero everywhere below.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/resource/quantity.hpp"

namespace koord::resource {

using ResourceList = std::map<std::string, Quantity, std::less<>>;

// a + b, key by key (the union of keys). kOutOfRange on overflow.
[[nodiscard]] Result<ResourceList> add(const ResourceList& a, const ResourceList& b);
// a - b, key by key (the union of keys; results may be negative). kOutOfRange on overflow.
[[nodiscard]] Result<ResourceList> subtract(const ResourceList& a, const ResourceList& b);
// Key-by-key maximum over the union of keys.
[[nodiscard]] ResourceList max(const ResourceList& a, const ResourceList& b);
// True when every request is <= the matching available quantity (missing available = zero).
// A zero or negative request always fits (kube-scheduler checks only positive requests).
[[nodiscard]] bool fits(const ResourceList& request, const ResourceList& available);
// The names of the resources in `request` that do not fit `available`, sorted.
[[nodiscard]] std::vector<std::string> insufficient(const ResourceList& request,
                                                    const ResourceList& available);
// The quantity for `name`, zero when missing.
[[nodiscard]] Quantity get(const ResourceList& list, std::string_view name);
// True when every quantity is zero (or the list is empty).
[[nodiscard]] bool isZero(const ResourceList& list);
// Keeps only the given names (names missing from the list stay missing).
[[nodiscard]] ResourceList filter(const ResourceList& list, const std::vector<std::string>& names);

}  // namespace koord::resource
