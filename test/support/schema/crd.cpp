#include "test/support/schema/crd.hpp"

#include <set>
#include <string_view>

#include "schema_util.hpp"
#include "test/support/schema/validator.hpp"

namespace koord::testing::schema {

namespace {

using detail::boolField;
using detail::stringField;

bool isLowerDnsLabelish(const std::string& text) {
  if (text.empty()) {
    return false;
  }
  for (char c : text) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
      return false;
    }
  }
  return text.front() != '-' && text.back() != '-';
}

// v1, v2beta3, v1alpha1: "v", a number, then optionally alpha|beta and a number (no leading 0).
bool isVersionName(const std::string& text) {
  size_t pos = 0;
  auto number = [&]() {
    if (pos >= text.size() || text[pos] < '1' || text[pos] > '9') {
      return false;
    }
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      ++pos;
    }
    return true;
  };
  if (text.empty() || text[pos++] != 'v' || !number()) {
    return false;
  }
  if (pos == text.size()) {
    return true;
  }
  for (std::string_view stage : {"alpha", "beta"}) {
    if (text.compare(pos, stage.size(), stage) == 0) {
      pos += stage.size();
      return number() && pos == text.size();
    }
  }
  return false;
}

// True when `json_path` (".status.phase") names a field the schema declares, or descends into a
// part of the object the schema leaves open (metadata, preserve-unknown-fields, maps).
bool pathDeclared(const Json& schema, const std::string& json_path) {
  if (json_path.size() < 2 || json_path.front() != '.') {
    return false;
  }
  const Json* node = &schema;
  size_t pos = 1;
  bool first = true;
  while (pos <= json_path.size()) {
    size_t dot = json_path.find('.', pos);
    if (dot == std::string::npos) {
      dot = json_path.size();
    }
    const std::string segment = json_path.substr(pos, dot - pos);
    if (segment.empty() || segment.find_first_of("[]()?@*") != std::string::npos) {
      return false;
    }
    if (first && segment == "metadata") {
      return true;  // ObjectMeta is not described by the CRD schema
    }
    first = false;
    auto props = node->find("properties");
    if (props != node->end() && props->contains(segment)) {
      node = &props->at(segment);
    } else if (node->contains("additionalProperties") &&
               node->at("additionalProperties").is_object()) {
      node = &node->at("additionalProperties");
    } else {
      return boolField(*node, "x-kubernetes-preserve-unknown-fields");
    }
    pos = dot + 1;
  }
  return true;
}

Status requiredString(const Json& parent, const char* key, const std::string& path,
                      std::string& out) {
  auto it = parent.is_object() ? parent.find(key) : parent.end();
  if (!parent.is_object() || it == parent.end() || !it->is_string() ||
      it->get_ref<const std::string&>().empty()) {
    return Status::invalidArgument(path + "." + key + ": Required value");
  }
  out = it->get<std::string>();
  return Status::ok();
}

void checkPrinterColumns(const Json& version, const Json* schema, const std::string& path,
                         std::vector<std::string>& out) {
  static const std::set<std::string, std::less<>> kColumnTypes = {"integer", "number", "string",
                                                                  "boolean", "date"};
  auto columns = version.find("additionalPrinterColumns");
  if (columns == version.end()) {
    return;
  }
  if (!columns->is_array()) {
    out.push_back(path + ".additionalPrinterColumns: Invalid value: must be a list");
    return;
  }
  std::set<std::string> names;
  for (size_t i = 0; i < columns->size(); ++i) {
    const Json& column = (*columns)[i];
    const std::string column_path = path + ".additionalPrinterColumns[" + std::to_string(i) + "]";
    const std::string name = stringField(column, "name");
    if (name.empty()) {
      out.push_back(column_path + ".name: Required value");
    } else if (!names.insert(name).second) {
      out.push_back(column_path + ".name: Duplicate value: \"" + name + "\"");
    }
    const std::string type = stringField(column, "type");
    if (kColumnTypes.count(type) == 0) {
      out.push_back(column_path + ".type: Unsupported value: \"" + type +
                    "\": supported values: \"boolean\", \"date\", \"integer\", \"number\", "
                    "\"string\"");
    }
    const std::string json_path = stringField(column, "jsonPath");
    if (json_path.empty()) {
      out.push_back(column_path + ".jsonPath: Required value");
    } else if (schema != nullptr && !pathDeclared(*schema, json_path)) {
      out.push_back(column_path + ".jsonPath: Invalid value: \"" + json_path +
                    "\": names no field of the schema");
    }
  }
}

}  // namespace

Result<CrdSummary> summarizeCrd(const Json& crd) {
  CrdSummary summary;
  if (!crd.is_object()) {
    return Status::invalidArgument("CustomResourceDefinition: must be an object");
  }
  auto spec_it = crd.find("spec");
  if (spec_it == crd.end() || !spec_it->is_object()) {
    return Status::invalidArgument("spec: Required value");
  }
  const Json& spec = *spec_it;
  auto metadata = crd.find("metadata");
  if (metadata != crd.end() && metadata->is_object()) {
    summary.name = stringField(*metadata, "name");
  }
  KOORD_RETURN_IF_ERROR(requiredString(spec, "group", "spec", summary.group));
  KOORD_RETURN_IF_ERROR(requiredString(spec, "scope", "spec", summary.scope));
  auto names = spec.find("names");
  if (names == spec.end() || !names->is_object()) {
    return Status::invalidArgument("spec.names: Required value");
  }
  KOORD_RETURN_IF_ERROR(requiredString(*names, "kind", "spec.names", summary.kind));
  KOORD_RETURN_IF_ERROR(requiredString(*names, "plural", "spec.names", summary.plural));
  auto short_names = names->find("shortNames");
  if (short_names != names->end() && short_names->is_array()) {
    for (const Json& short_name : *short_names) {
      if (short_name.is_string()) {
        summary.short_names.push_back(short_name.get<std::string>());
      }
    }
  }
  auto versions = spec.find("versions");
  if (versions == spec.end() || !versions->is_array() || versions->empty()) {
    return Status::invalidArgument("spec.versions: Required value");
  }
  for (size_t i = 0; i < versions->size(); ++i) {
    const Json& version = (*versions)[i];
    std::string name;
    KOORD_RETURN_IF_ERROR(
        requiredString(version, "name", "spec.versions[" + std::to_string(i) + "]", name));
    if (boolField(version, "served")) {
      summary.served_versions.push_back(name);
    }
    if (boolField(version, "storage")) {
      summary.storage_version = name;
    }
  }
  return summary;
}

const Json* versionSchema(const Json& crd, const std::string& version) {
  if (!crd.is_object() || !crd.contains("spec") || !crd.at("spec").is_object()) {
    return nullptr;
  }
  auto versions = crd.at("spec").find("versions");
  if (versions == crd.at("spec").end() || !versions->is_array()) {
    return nullptr;
  }
  for (const Json& v : *versions) {
    if (stringField(v, "name") != version || !boolField(v, "served")) {
      continue;
    }
    auto schema = v.find("schema");
    if (schema == v.end() || !schema->is_object() || !schema->contains("openAPIV3Schema")) {
      return nullptr;
    }
    return &schema->at("openAPIV3Schema");
  }
  return nullptr;
}

std::vector<std::string> checkCrd(const Json& crd) {
  std::vector<std::string> out;
  if (stringField(crd, "apiVersion") != "apiextensions.k8s.io/v1") {
    out.push_back("apiVersion: Unsupported value: supported values: \"apiextensions.k8s.io/v1\"");
  }
  if (stringField(crd, "kind") != "CustomResourceDefinition") {
    out.push_back("kind: Unsupported value: supported values: \"CustomResourceDefinition\"");
  }
  Result<CrdSummary> summary = summarizeCrd(crd);
  if (!summary.ok()) {
    out.push_back(summary.status().message());
    return out;
  }
  const Json& spec = crd.at("spec");
  const Json& names = spec.at("names");
  if (summary->name != summary->plural + "." + summary->group) {
    out.push_back("metadata.name: Invalid value: \"" + summary->name +
                  "\": must be spec.names.plural+\".\"+spec.group");
  }
  if (summary->group.find('.') == std::string::npos) {
    out.push_back("spec.group: Invalid value: \"" + summary->group +
                  "\": should be a domain with at least one dot");
  }
  if (summary->scope != "Cluster" && summary->scope != "Namespaced") {
    out.push_back("spec.scope: Unsupported value: \"" + summary->scope +
                  "\": supported values: \"Cluster\", \"Namespaced\"");
  }
  for (const char* key : {"plural", "singular"}) {
    const std::string value = stringField(names, key);
    if (!isLowerDnsLabelish(value)) {
      out.push_back(std::string("spec.names.") + key + ": Invalid value: \"" + value +
                    "\": must be a lowercase DNS-1035 label");
    }
  }
  for (const std::string& short_name : summary->short_names) {
    if (!isLowerDnsLabelish(short_name)) {
      out.push_back("spec.names.shortNames: Invalid value: \"" + short_name +
                    "\": must be a lowercase DNS-1035 label");
    }
  }
  const std::string list_kind = stringField(names, "listKind");
  if (!list_kind.empty() && list_kind != summary->kind + "List") {
    out.push_back("spec.names.listKind: Invalid value: \"" + list_kind + "\": should be " +
                  summary->kind + "List");
  }
  if (boolField(spec, "preserveUnknownFields")) {
    out.push_back("spec.preserveUnknownFields: Invalid value: true: must be false in v1");
  }

  const Json& versions = spec.at("versions");
  int storage_count = 0;
  std::set<std::string> version_names;
  for (size_t i = 0; i < versions.size(); ++i) {
    const Json& version = versions[i];
    const std::string path = "spec.versions[" + std::to_string(i) + "]";
    const std::string name = stringField(version, "name");
    if (!isVersionName(name)) {
      out.push_back(path + ".name: Invalid value: \"" + name +
                    "\": must be like v1, v1alpha1, v2beta3");
    }
    if (!version_names.insert(name).second) {
      out.push_back(path + ".name: Duplicate value: \"" + name + "\"");
    }
    for (const char* key : {"served", "storage"}) {
      if (!version.contains(key) || !version.at(key).is_boolean()) {
        out.push_back(path + "." + key + ": Required value");
      }
    }
    storage_count += boolField(version, "storage") ? 1 : 0;
    const Json* schema = nullptr;
    auto schema_it = version.find("schema");
    if (schema_it != version.end() && schema_it->is_object() &&
        schema_it->contains("openAPIV3Schema")) {
      schema = &schema_it->at("openAPIV3Schema");
      for (std::string& problem : checkStructural(*schema, path + ".schema.openAPIV3Schema")) {
        out.push_back(std::move(problem));
      }
    } else {
      out.push_back(path + ".schema.openAPIV3Schema: Required value");
    }
    checkPrinterColumns(version, schema, path, out);
    auto subresources = version.find("subresources");
    if (subresources != version.end() && subresources->contains("status")) {
      const bool has_status = schema != nullptr && schema->contains("properties") &&
                              schema->at("properties").contains("status");
      if (!has_status) {
        out.push_back(path + ".subresources.status: Invalid value: the schema has no status");
      }
    }
  }
  if (storage_count != 1) {
    out.push_back(
        "spec.versions: Invalid value: must have exactly one version marked as storage "
        "version, found " +
        std::to_string(storage_count));
  }
  auto conversion = spec.find("conversion");
  if (conversion != spec.end() && stringField(*conversion, "strategy") != "None") {
    out.push_back("spec.conversion.strategy: Unsupported value: \"" +
                  stringField(*conversion, "strategy") +
                  "\": koord deploys no conversion webhook, use \"None\"");
  }
  return out;
}

Status CrdCatalog::add(const Json& crd) {
  KOORD_ASSIGN_OR_RETURN(CrdSummary summary, summarizeCrd(crd));
  for (const std::string& version : summary.served_versions) {
    const Json* schema = versionSchema(crd, version);
    if (schema == nullptr) {
      return Status::invalidArgument("failed to add CRD '" + summary.name + "': version " +
                                     version + " has no openAPIV3Schema");
    }
    auto key = std::make_pair(summary.group + "/" + version, summary.kind);
    if (schemas_.count(key) != 0) {
      return Status::alreadyExists("failed to add CRD '" + summary.name + "': " + key.first +
                                   ", Kind=" + key.second + " is already served");
    }
    schemas_.emplace(std::move(key), std::make_pair(*schema, summary));
  }
  return Status::ok();
}

const Json* CrdCatalog::find(const std::string& api_version, const std::string& kind) const {
  auto it = schemas_.find(std::make_pair(api_version, kind));
  return it == schemas_.end() ? nullptr : &it->second.first;
}

std::optional<CrdSummary> CrdCatalog::summary(const std::string& api_version,
                                              const std::string& kind) const {
  auto it = schemas_.find(std::make_pair(api_version, kind));
  if (it == schemas_.end()) {
    return std::nullopt;
  }
  return it->second.second;
}

}  // namespace koord::testing::schema
