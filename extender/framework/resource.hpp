// Resource: the scheduling arithmetic of one pod or node in plain integers, after the Kubernetes
// framework's Resource: cpu in milli-cores, memory and ephemeral-storage in bytes, the pod
// count, and every other resource ("scalar": kubernetes.io/batch-cpu in its own integer unit,
// milli-cores; koordinator.sh/gpu-core in percent; ...) by name as Quantity::value(). Converting
// once on the way in keeps filter at a few integer comparisons per node.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "koord/resource/resource_list.hpp"

namespace koord::extender::framework {

struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t pods = 0;  // allowed pods (node) or 1 (pod)
  // Sorted by name; no zero entries.
  std::vector<std::pair<std::string, int64_t>> scalar;

  // From a ResourceList ("cpu" by milliValue, "pods" into `pods`, the rest by value()).
  [[nodiscard]] static Resource fromList(const resource::ResourceList& list);
  [[nodiscard]] resource::ResourceList toList() const;

  // The amount of `name` ("cpu" in milli-cores), 0 when absent.
  [[nodiscard]] int64_t get(std::string_view name) const;
  void set(std::string_view name, int64_t value);
  // Field by field (scalars merged by name, zero results dropped); saturate at the int64 limits.
  void add(const Resource& other);
  void subtract(const Resource& other);

  bool operator==(const Resource&) const = default;
};

}  // namespace koord::extender::framework
