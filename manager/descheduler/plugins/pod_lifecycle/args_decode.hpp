// Strict decoding of the pod lifecycle plugins' args (the community descheduler's
// RemoveFailedPodsArgs, PodLifeTimeArgs, RemovePodsHavingTooManyRestartsArgs), as the
// descheduler's strict config decoding reads them.
//
// Contract: every function decodes one JSON value found at `path` (for example
// "PodLifeTimeArgs.states") and fails with kInvalidArgument "<path>: <cause>": an unknown key is
// "<path>.<key>: unknown field", a wrong type "<path>: expected <type>, got <type>". A null value
// leaves the output unset, as Go's decoder does. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/common/result.hpp"
#include "koord/common/status.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

using Json = nlohmann::json;

// api.Namespaces: at most one of the lists may be set (checked by each plugin's validation).
struct Namespaces {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

// `obj` must be an object whose keys are all in `known`; "apiVersion" and "kind" are also
// accepted when `allow_type_meta` (the args object itself).
[[nodiscard]] Status checkKnownKeys(const Json& obj, const std::string& path,
                                    std::initializer_list<std::string_view> known,
                                    bool allow_type_meta = false);

// The member `key` of the object `obj`, or nullptr when absent or null.
[[nodiscard]] const Json* member(const Json& obj, std::string_view key);

[[nodiscard]] Status decodeBool(const Json* value, const std::string& path, bool& out);
// A Go *uint: a non-negative integer.
[[nodiscard]] Status decodeUint(const Json* value, const std::string& path,
                                std::optional<uint64_t>& out);
[[nodiscard]] Status decodeInt32(const Json* value, const std::string& path, int32_t& out);
[[nodiscard]] Status decodeString(const Json* value, const std::string& path, std::string& out);
[[nodiscard]] Status decodeStrings(const Json* value, const std::string& path,
                                   std::vector<std::string>& out);
[[nodiscard]] Status decodeInt32s(const Json* value, const std::string& path,
                                  std::vector<int32_t>& out);
// {"include": [...], "exclude": [...]}.
[[nodiscard]] Status decodeNamespaces(const Json* value, const std::string& path,
                                      std::optional<Namespaces>& out);
// A metav1.LabelSelector, strictly (unknown keys in it or its requirements are errors).
[[nodiscard]] Status decodeLabelSelector(const Json* value, const std::string& path,
                                         std::optional<api::core::LabelSelector>& out);

// Collects validation errors and reports them as k8s.io/apimachinery's utilerrors.Aggregate
// does: none is ok, one is that message, several read "[first, second]".
class ErrorList {
 public:
  void add(std::string message) { messages_.push_back(std::move(message)); }
  [[nodiscard]] Status toStatus() const;

 private:
  std::vector<std::string> messages_;
};

// "[a b c]", as Go's fmt prints a []string with %v.
[[nodiscard]] std::string goStringList(const std::vector<std::string>& items);

// The shared ValidateXArgs checks: Include and Exclude namespaces not both set, and a label
// selector that parses. `args_name` is e.g. "PodLifeTimeArgs".
void validateNamespacesAndSelector(std::string_view args_name,
                                   const std::optional<Namespaces>& namespaces,
                                   const std::optional<api::core::LabelSelector>& selector,
                                   ErrorList& errors);

}  // namespace koord::manager::descheduler::pod_lifecycle
