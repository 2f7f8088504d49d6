#include "manager/nodeslo/spec_patch.hpp"

#include <utility>

namespace koord::manager::nodeslo {

api::Json withoutNulls(api::Json j) {
  if (j.is_object()) {
    api::Json out = api::Json::object();
    for (auto& [key, value] : j.items()) {
      if (!value.is_null()) {
        out[key] = withoutNulls(std::move(value));
      }
    }
    return out;
  }
  if (j.is_array()) {
    for (auto& item : j) {
      item = withoutNulls(std::move(item));
    }
  }
  return j;
}

api::Json mergePatchDiff(const api::Json& from, const api::Json& to) {
  if (!from.is_object() || !to.is_object()) {
    return to;
  }
  api::Json patch = api::Json::object();
  for (const auto& [key, value] : from.items()) {
    if (!to.contains(key)) {
      patch[key] = nullptr;
    }
  }
  for (const auto& [key, value] : to.items()) {
    const auto it = from.find(key);
    if (it == from.end()) {
      patch[key] = value;
    } else if (*it != value) {
      patch[key] = (it->is_object() && value.is_object()) ? mergePatchDiff(*it, value) : value;
    }
  }
  return patch;
}

std::optional<std::string> specPatchBody(const api::Json& current, const api::Json& desired,
                                         const std::string& resource_version) {
  if (current == desired) {
    return std::nullopt;
  }
  api::Json body = api::Json::object();
  if (!resource_version.empty()) {
    body["metadata"] = {{"resourceVersion", resource_version}};
  }
  body["spec"] = mergePatchDiff(current, desired);
  return body.dump();
}

}  // namespace koord::manager::nodeslo
