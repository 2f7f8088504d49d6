// Resource payloads on pods (apis/extension/resource.go, evict.go):
//   node.koordinator.sh/extended-resource-spec  ExtendedResourceSpec (set by the pod webhook)
//   scheduling.koordinator.sh/soft-eviction     SoftEvictionSpec
#pragma once

#include <map>
#include <optional>
#include <string>

#include "koord/api/codec.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/resource/resource_list.hpp"

namespace koord::api::extension {

struct ExtendedResourceContainerSpec {
  resource::ResourceList limits;
  resource::ResourceList requests;
  Json extra;

  bool operator==(const ExtendedResourceContainerSpec&) const = default;
};

// The original extended resources of each container, by container name.
struct ExtendedResourceSpec {
  std::map<std::string, ExtendedResourceContainerSpec> containers;
  Json extra;

  bool operator==(const ExtendedResourceSpec&) const = default;
};

struct SoftEvictionSpec {
  std::optional<std::string> timestamp;  // RFC 3339
  std::optional<core::DeleteOptions> deleteOptions;
  std::string initiator;
  std::string reason;
  Json extra;

  bool operator==(const SoftEvictionSpec&) const = default;
};

Status fromJson(const Json& j, ExtendedResourceContainerSpec& out, const std::string& path);
Status fromJson(const Json& j, ExtendedResourceSpec& out, const std::string& path);
Status fromJson(const Json& j, SoftEvictionSpec& out, const std::string& path);
Json toJson(const ExtendedResourceContainerSpec& v);
Json toJson(const ExtendedResourceSpec& v);
Json toJson(const SoftEvictionSpec& v);

[[nodiscard]] Result<ExtendedResourceSpec> parseExtendedResourceSpec(std::string_view value);
[[nodiscard]] std::string formatExtendedResourceSpec(const ExtendedResourceSpec& spec);
[[nodiscard]] Result<SoftEvictionSpec> parseSoftEvictionSpec(std::string_view value);
[[nodiscard]] std::string formatSoftEvictionSpec(const SoftEvictionSpec& spec);

}  // namespace koord::api::extension
