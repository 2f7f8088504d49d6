#include "koord/api/extender/types.hpp"

#include <string_view>

#include "koord/api/extender/equal_fold.hpp"

namespace koord::api::extender {

namespace {

using detail::equalFold;

// Reads an object the way Go's encoding/json fills a struct without tags: a key matches a field
// exactly or, failing that, case-insensitively; unknown keys are ignored; null leaves the default.
class FoldDecoder {
 public:
  FoldDecoder(const Json& j, std::string path) : json_(&j), path_(std::move(path)) {
    if (!j.is_null() && !j.is_object()) {
      status_ = typeError(path_, "object", j);
    }
  }

  template <typename T>
  FoldDecoder& field(std::string_view key, T& out) {
    const Json* v = lookup(key);
    if (v != nullptr && !v->is_null()) {
      using api::fromJson;
      status_ = fromJson(*v, out, childPath(path_, key));
    }
    return *this;
  }

  // An optional is decoded here rather than through the codec's optional<T> overload, which
  // cannot see the vector and map overloads for optional<vector<...>> and optional<map<...>>.
  template <typename T>
  FoldDecoder& field(std::string_view key, std::optional<T>& out) {
    const Json* v = lookup(key);
    if (v != nullptr && !v->is_null()) {
      using api::fromJson;
      T value{};
      status_ = fromJson(*v, value, childPath(path_, key));
      if (status_.isOk()) {
        out = std::move(value);
      }
    }
    return *this;
  }

  [[nodiscard]] Status status() const { return status_; }

 private:
  const Json* lookup(std::string_view key) const {
    if (!status_.isOk() || !json_->is_object()) {
      return nullptr;
    }
    auto exact = json_->find(key);
    if (exact != json_->end()) {
      return &*exact;
    }
    for (auto it = json_->begin(); it != json_->end(); ++it) {
      if (equalFold(it.key(), key)) {
        return &*it;
      }
    }
    return nullptr;
  }

  const Json* json_;
  std::string path_;
  Status status_;
};

// Go's encoding of a nil-able value: null when unset.
template <typename T>
Json orNull(const std::optional<T>& v) {
  if (!v) {
    return nullptr;
  }
  using api::toJson;
  return toJson(*v);
}

// Go's encoding of a map or slice that this model cannot tell nil from empty: null when empty.
template <typename C>
Json nullIfEmpty(const C& c) {
  if (c.empty()) {
    return nullptr;
  }
  using api::toJson;
  return toJson(c);
}

}  // namespace

Status fromJson(const Json& j, ExtenderArgs& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Pod", out.pod).field("Nodes", out.nodes).field("NodeNames", out.nodeNames);
  return d.status();
}

Json toJson(const ExtenderArgs& v) {
  return Json{
      {"Pod", core::toJson(v.pod)}, {"Nodes", orNull(v.nodes)}, {"NodeNames", orNull(v.nodeNames)}};
}

Status fromJson(const Json& j, ExtenderFilterResult& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Nodes", out.nodes)
      .field("NodeNames", out.nodeNames)
      .field("FailedNodes", out.failedNodes)
      .field("FailedAndUnresolvableNodes", out.failedAndUnresolvableNodes)
      .field("Error", out.error);
  return d.status();
}

Json toJson(const ExtenderFilterResult& v) {
  return Json{{"Nodes", orNull(v.nodes)},
              {"NodeNames", orNull(v.nodeNames)},
              {"FailedNodes", nullIfEmpty(v.failedNodes)},
              {"FailedAndUnresolvableNodes", nullIfEmpty(v.failedAndUnresolvableNodes)},
              {"Error", v.error}};
}

Status fromJson(const Json& j, HostPriority& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Host", out.host).field("Score", out.score);
  return d.status();
}

Json toJson(const HostPriority& v) {
  return Json{{"Host", v.host}, {"Score", v.score}};
}

Status fromJson(const Json& j, HostPriorityList& out, const std::string& path) {
  return api::fromJson(j, out, path);
}

Json toJson(const HostPriorityList& v) {
  return api::toJson(v);
}

Status fromJson(const Json& j, ExtenderBindingArgs& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("PodName", out.podName)
      .field("PodNamespace", out.podNamespace)
      .field("PodUID", out.podUID)
      .field("Node", out.node);
  return d.status();
}

Json toJson(const ExtenderBindingArgs& v) {
  return Json{{"PodName", v.podName},
              {"PodNamespace", v.podNamespace},
              {"PodUID", v.podUID},
              {"Node", v.node}};
}

Status fromJson(const Json& j, ExtenderBindingResult& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Error", out.error);
  return d.status();
}

Json toJson(const ExtenderBindingResult& v) {
  return Json{{"Error", v.error}};
}

Status fromJson(const Json& j, MetaPod& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("UID", out.uid);
  return d.status();
}

Json toJson(const MetaPod& v) {
  return Json{{"UID", v.uid}};
}

Status fromJson(const Json& j, Victims& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Pods", out.pods).field("NumPDBViolations", out.numPDBViolations);
  return d.status();
}

Json toJson(const Victims& v) {
  return Json{{"Pods", nullIfEmpty(v.pods)}, {"NumPDBViolations", v.numPDBViolations}};
}

Status fromJson(const Json& j, MetaVictims& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Pods", out.pods).field("NumPDBViolations", out.numPDBViolations);
  return d.status();
}

Json toJson(const MetaVictims& v) {
  return Json{{"Pods", nullIfEmpty(v.pods)}, {"NumPDBViolations", v.numPDBViolations}};
}

Status fromJson(const Json& j, ExtenderPreemptionArgs& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("Pod", out.pod)
      .field("NodeNameToVictims", out.nodeNameToVictims)
      .field("NodeNameToMetaVictims", out.nodeNameToMetaVictims);
  return d.status();
}

Json toJson(const ExtenderPreemptionArgs& v) {
  return Json{{"Pod", core::toJson(v.pod)},
              {"NodeNameToVictims", orNull(v.nodeNameToVictims)},
              {"NodeNameToMetaVictims", orNull(v.nodeNameToMetaVictims)}};
}

Status fromJson(const Json& j, ExtenderPreemptionResult& out, const std::string& path) {
  FoldDecoder d(j, path);
  d.field("NodeNameToMetaVictims", out.nodeNameToMetaVictims);
  return d.status();
}

Json toJson(const ExtenderPreemptionResult& v) {
  return Json{{"NodeNameToMetaVictims", orNull(v.nodeNameToMetaVictims)}};
}

}  // namespace koord::api::extender
