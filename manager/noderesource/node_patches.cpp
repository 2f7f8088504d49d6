#include "manager/noderesource/node_patches.hpp"

#include "koord/api/codec.hpp"
#include "koord/api/well_known.hpp"

namespace koord::manager::noderesource {

const std::array<std::string_view, 4>& ownedResourceNames() {
  static constexpr std::array<std::string_view, 4> kNames = {
      api::kResourceBatchCPU, api::kResourceBatchMemory, api::kResourceMidCPU,
      api::kResourceMidMemory};
  return kNames;
}

resource::ResourceList ownedResources(const resource::ResourceList& list) {
  resource::ResourceList out;
  for (std::string_view name : ownedResourceNames()) {
    if (auto it = list.find(name); it != list.end()) {
      out.emplace(std::string(name), it->second);
    }
  }
  return out;
}

std::string resourceStatusPatch(const resource::ResourceList& desired) {
  api::Json values = api::Json::object();
  for (std::string_view name : ownedResourceNames()) {
    auto it = desired.find(name);
    values[std::string(name)] =
        it == desired.end() ? api::Json(nullptr) : api::Json(it->second.toString());
  }
  api::Json patch;
  patch["status"]["capacity"] = values;
  patch["status"]["allocatable"] = values;
  return patch.dump();
}

std::string annotationPatch(const std::map<std::string, std::optional<std::string>>& annotations) {
  api::Json values = api::Json::object();
  for (const auto& [key, value] : annotations) {
    values[key] = value ? api::Json(*value) : api::Json(nullptr);
  }
  api::Json patch;
  patch["metadata"]["annotations"] = values;
  return patch.dump();
}

}  // namespace koord::manager::noderesource
