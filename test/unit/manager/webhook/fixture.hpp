// Builders shared by the webhook tests: AdmissionRequests around a JSON object, profiles from
// JSON text, fake lookups, and the patched object a JSONPatch response yields.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/admission/review.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/config/cluster_colocation_profile.hpp"
#include "manager/webhook/colocation_profile.hpp"

namespace koord::manager::webhook::testing {

inline api::Json json(std::string_view text) {
  auto parsed = api::parseJson(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
  return parsed.ok() ? *parsed : api::Json();
}

inline api::admission::AdmissionRequest request(std::string operation, std::string resource,
                                                const api::Json& object,
                                                const api::Json& old_object = api::Json(),
                                                std::string group = "") {
  api::admission::AdmissionRequest r;
  r.uid = "0f6b8f4c-uid";
  r.kind = {group, "v1", resource == "pods" ? "Pod" : "Object", {}};
  r.resource = {std::move(group), "v1", std::move(resource), {}};
  r.operation = std::move(operation);
  r.namespace_ = "default";
  r.object = object;
  r.oldObject = old_object;
  return r;
}

inline std::shared_ptr<const api::config::ClusterColocationProfile> profile(std::string_view text) {
  api::config::ClusterColocationProfile p;
  const Status s = fromJson(json(text), p, "");
  EXPECT_TRUE(s.isOk()) << s << "\n" << text;
  return std::make_shared<const api::config::ClusterColocationProfile>(std::move(p));
}

// A cluster for the mutating webhook: profiles, namespaces with labels, PriorityClasses, and a
// random source that returns the queued draws (and records how often it was asked).
struct FakeCluster {
  std::vector<std::shared_ptr<const api::config::ClusterColocationProfile>> profiles;
  std::map<std::string, api::core::StringMap, std::less<>> namespaces = {
      {"default", {{"enable-koordinator-colocation", "true"}}}, {"plain", {}}};
  std::map<std::string, PriorityClassInfo, std::less<>> priority_classes = {
      {"koord-prod", {9000, "PreemptLowerPriority"}},
      {"koord-mid", {7000, ""}},
      {"koord-batch", {5000, "Never"}},
      {"koord-free", {3000, ""}}};
  std::shared_ptr<std::vector<int>> draws = std::make_shared<std::vector<int>>();
  std::shared_ptr<int> draw_calls = std::make_shared<int>(0);

  ColocationProfileSources sources() const {
    ColocationProfileSources s;
    auto list = profiles;
    s.profiles = [list] { return list; };
    auto ns = namespaces;
    s.namespaceLabels = [ns](std::string_view name) -> std::optional<api::core::StringMap> {
      auto it = ns.find(name);
      if (it == ns.end()) {
        return std::nullopt;
      }
      return it->second;
    };
    auto pcs = priority_classes;
    s.priorityClass = [pcs](std::string_view name) -> std::optional<PriorityClassInfo> {
      auto it = pcs.find(name);
      if (it == pcs.end()) {
        return std::nullopt;
      }
      return it->second;
    };
    auto queue = draws;
    auto calls = draw_calls;
    s.randomIntn = [queue, calls](int) {
      ++*calls;
      if (queue->empty()) {
        return 0;
      }
      const int v = queue->front();
      queue->erase(queue->begin());
      return v;
    };
    return s;
  }
};

// The object after applying the response's JSONPatch to `original` (the original when there is
// no patch). Fails the test when the patch does not apply.
inline api::Json patched(const api::Json& original,
                         const api::admission::AdmissionResponse& response) {
  if (response.patch.empty()) {
    return original;
  }
  EXPECT_EQ(response.patchType.value_or(""), "JSONPatch");
  auto ops = api::parseJson(response.patch);
  EXPECT_TRUE(ops.ok()) << ops.status();
  try {
    return original.patch(*ops);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "patch does not apply: " << e.what() << "\n" << response.patch;
    return original;
  }
}

}  // namespace koord::manager::webhook::testing
