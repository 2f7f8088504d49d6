// The merge patches (RFC 7386, application/merge-patch+json) the node resource controller sends.
// They name only the keys it owns, so that what other writers keep in the same maps (the kubelet's
// cpu, memory and pods, device plugins' resources, other controllers' annotations) is never
// overwritten. Pure; thread-safe.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "koord/resource/resource_list.hpp"

namespace koord::manager::noderesource {

// The four resources the controller owns: kubernetes.io/batch-cpu, batch-memory, mid-cpu,
// mid-memory.
[[nodiscard]] const std::array<std::string_view, 4>& ownedResourceNames();

// The owned resources of `list` (the node's current values).
[[nodiscard]] resource::ResourceList ownedResources(const resource::ResourceList& list);

// For the Node's status subresource:
//   {"status":{"allocatable":{"kubernetes.io/batch-cpu":"9200",...},"capacity":{...}}}
// each owned resource set to its value in `desired`, or null (removed) when `desired` lacks it.
[[nodiscard]] std::string resourceStatusPatch(const resource::ResourceList& desired);

// For the Node itself: {"metadata":{"annotations":{"<key>":"<value>"|null,...}}} (nullopt removes
// the key).
[[nodiscard]] std::string annotationPatch(
    const std::map<std::string, std::optional<std::string>>& annotations);

}  // namespace koord::manager::noderesource
