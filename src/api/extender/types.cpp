#include "koord/api/extender/types.hpp"

#include <string_view>

#include "koord/api/extender/equal_fold.hpp"
#include "koord/api/fields.hpp"

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

// fromJson from a field list, read the way Go's encoding/json fills a struct without tags (see
// FoldDecoder). These types keep no `extra`: unknown keys are dropped, as Go does.
template <typename T, typename... F>
Status decodeFold(const Json& j, T& out, const std::string& path, const std::tuple<F...>& fields) {
  FoldDecoder d(j, path);
  readFields(d, out, fields);
  return d.status();
}

}  // namespace

// Every field is written, as encoding/json writes a struct without omitempty: a nil pointer as null
// (.always() on an optional), and a map or slice this model cannot tell nil from empty as null when
// empty (.nullIfEmpty()).

constexpr auto kExtenderArgsFields = std::tuple{
    field("Pod", &ExtenderArgs::pod).always(),
    field("Nodes", &ExtenderArgs::nodes).always(),
    field("NodeNames", &ExtenderArgs::nodeNames).always(),
};

Status fromJson(const Json& j, ExtenderArgs& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderArgsFields);
}

Json toJson(const ExtenderArgs& v) {
  return encodeFields(v, kExtenderArgsFields);
}

constexpr auto kExtenderFilterResultFields = std::tuple{
    field("Nodes", &ExtenderFilterResult::nodes).always(),
    field("NodeNames", &ExtenderFilterResult::nodeNames).always(),
    field("FailedNodes", &ExtenderFilterResult::failedNodes).nullIfEmpty(),
    field("FailedAndUnresolvableNodes", &ExtenderFilterResult::failedAndUnresolvableNodes)
        .nullIfEmpty(),
    field("Error", &ExtenderFilterResult::error).always(),
};

Status fromJson(const Json& j, ExtenderFilterResult& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderFilterResultFields);
}

Json toJson(const ExtenderFilterResult& v) {
  return encodeFields(v, kExtenderFilterResultFields);
}

constexpr auto kHostPriorityFields = std::tuple{
    field("Host", &HostPriority::host).always(),
    field("Score", &HostPriority::score).always(),
};

Status fromJson(const Json& j, HostPriority& out, const std::string& path) {
  return decodeFold(j, out, path, kHostPriorityFields);
}

Json toJson(const HostPriority& v) {
  return encodeFields(v, kHostPriorityFields);
}

Status fromJson(const Json& j, HostPriorityList& out, const std::string& path) {
  return api::fromJson(j, out, path);
}

Json toJson(const HostPriorityList& v) {
  return api::toJson(v);
}

constexpr auto kExtenderBindingArgsFields = std::tuple{
    field("PodName", &ExtenderBindingArgs::podName).always(),
    field("PodNamespace", &ExtenderBindingArgs::podNamespace).always(),
    field("PodUID", &ExtenderBindingArgs::podUID).always(),
    field("Node", &ExtenderBindingArgs::node).always(),
};

Status fromJson(const Json& j, ExtenderBindingArgs& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderBindingArgsFields);
}

Json toJson(const ExtenderBindingArgs& v) {
  return encodeFields(v, kExtenderBindingArgsFields);
}

constexpr auto kExtenderBindingResultFields = std::tuple{
    field("Error", &ExtenderBindingResult::error).always(),
};

Status fromJson(const Json& j, ExtenderBindingResult& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderBindingResultFields);
}

Json toJson(const ExtenderBindingResult& v) {
  return encodeFields(v, kExtenderBindingResultFields);
}

constexpr auto kMetaPodFields = std::tuple{
    field("UID", &MetaPod::uid).always(),
};

Status fromJson(const Json& j, MetaPod& out, const std::string& path) {
  return decodeFold(j, out, path, kMetaPodFields);
}

Json toJson(const MetaPod& v) {
  return encodeFields(v, kMetaPodFields);
}

constexpr auto kVictimsFields = std::tuple{
    field("Pods", &Victims::pods).nullIfEmpty(),
    field("NumPDBViolations", &Victims::numPDBViolations).always(),
};

Status fromJson(const Json& j, Victims& out, const std::string& path) {
  return decodeFold(j, out, path, kVictimsFields);
}

Json toJson(const Victims& v) {
  return encodeFields(v, kVictimsFields);
}

constexpr auto kMetaVictimsFields = std::tuple{
    field("Pods", &MetaVictims::pods).nullIfEmpty(),
    field("NumPDBViolations", &MetaVictims::numPDBViolations).always(),
};

Status fromJson(const Json& j, MetaVictims& out, const std::string& path) {
  return decodeFold(j, out, path, kMetaVictimsFields);
}

Json toJson(const MetaVictims& v) {
  return encodeFields(v, kMetaVictimsFields);
}

constexpr auto kExtenderPreemptionArgsFields = std::tuple{
    field("Pod", &ExtenderPreemptionArgs::pod).always(),
    field("NodeNameToVictims", &ExtenderPreemptionArgs::nodeNameToVictims).always(),
    field("NodeNameToMetaVictims", &ExtenderPreemptionArgs::nodeNameToMetaVictims).always(),
};

Status fromJson(const Json& j, ExtenderPreemptionArgs& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderPreemptionArgsFields);
}

Json toJson(const ExtenderPreemptionArgs& v) {
  return encodeFields(v, kExtenderPreemptionArgsFields);
}

constexpr auto kExtenderPreemptionResultFields = std::tuple{
    field("NodeNameToMetaVictims", &ExtenderPreemptionResult::nodeNameToMetaVictims).always(),
};

Status fromJson(const Json& j, ExtenderPreemptionResult& out, const std::string& path) {
  return decodeFold(j, out, path, kExtenderPreemptionResultFields);
}

Json toJson(const ExtenderPreemptionResult& v) {
  return encodeFields(v, kExtenderPreemptionResultFields);
}

}  // namespace koord::api::extender
