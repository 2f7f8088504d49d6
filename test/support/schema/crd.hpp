// CustomResourceDefinition checks and a catalog of CRD schemas keyed by apiVersion and kind.
//
// Used offline by the tests (test/unit/deploy/) to check manifests before a real apiserver sees
// them. All functions are pure and thread-safe; none throws. A CrdCatalog is not synchronised:
// build it once, then share it read-only.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::testing::schema {

using Json = nlohmann::json;

// The parts of a CRD a caller usually asks about.
struct CrdSummary {
  std::string name;  // "<plural>.<group>"
  std::string group;
  std::string kind;
  std::string plural;
  std::string scope;  // "Cluster" or "Namespaced"
  std::vector<std::string> short_names;
  std::vector<std::string> served_versions;
  std::string storage_version;
};

// Reads the summary of an apiextensions.k8s.io/v1 CustomResourceDefinition. Fails with
// kInvalidArgument naming the missing or mistyped field ("spec.names.plural: Required value").
[[nodiscard]] Result<CrdSummary> summarizeCrd(const Json& crd);

// Every problem that would make kube-apiserver reject the CRD or serve it wrongly, as
// "<path>: <problem>": apiVersion/kind, metadata.name == <plural>.<group>, names and scope,
// exactly one storage version, each version's schema (checkStructural), additionalPrinterColumns
// (name, a known type, a JSONPath that names a declared field), the status subresource only where
// the schema has a status property, and conversion strategy None when versions differ in name only.
[[nodiscard]] std::vector<std::string> checkCrd(const Json& crd);

// The openAPIV3Schema of `version` in `crd`, or nullptr when the CRD does not serve it.
[[nodiscard]] const Json* versionSchema(const Json& crd, const std::string& version);

// Schemas of CRDs by "<group>/<version>" and kind.
class CrdCatalog {
 public:
  // Adds every served version of `crd`. Fails when the CRD is malformed (see summarizeCrd) or a
  // served group/version/kind is already present.
  [[nodiscard]] Status add(const Json& crd);

  // The schema for an object's apiVersion and kind, or nullptr when no CRD serves them.
  [[nodiscard]] const Json* find(const std::string& api_version, const std::string& kind) const;

  // The summary of the CRD that serves `api_version`/`kind`.
  [[nodiscard]] std::optional<CrdSummary> summary(const std::string& api_version,
                                                  const std::string& kind) const;

  [[nodiscard]] size_t size() const { return schemas_.size(); }

 private:
  // (apiVersion, kind) -> (schema, summary)
  std::map<std::pair<std::string, std::string>, std::pair<Json, CrdSummary>> schemas_;
};

}  // namespace koord::testing::schema
