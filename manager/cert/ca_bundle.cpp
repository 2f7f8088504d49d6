#include "manager/cert/ca_bundle.hpp"

#include "koord/api/admission/review.hpp"
#include "koord/k8s/errors.hpp"

namespace koord::manager::cert {
namespace {

// Sets every webhook's caBundle to `encoded`; whether any changed (decoded bytes compared).
bool setCaBundles(api::Json& configuration, std::string_view ca_pem, const std::string& encoded) {
  bool changed = false;
  const auto webhooks = configuration.find("webhooks");
  if (webhooks == configuration.end() || !webhooks->is_array()) {
    return false;
  }
  for (api::Json& webhook : *webhooks) {
    if (!webhook.is_object()) {
      continue;
    }
    api::Json& client_config = webhook["clientConfig"];
    if (!client_config.is_object()) {
      client_config = api::Json::object();
    }
    const auto current = client_config.find("caBundle");
    if (current != client_config.end() && current->is_string()) {
      const Result<std::string> decoded = api::admission::base64Decode(current->get<std::string>());
      if (decoded.ok() && *decoded == ca_pem) {
        continue;
      }
    }
    client_config["caBundle"] = encoded;
    changed = true;
  }
  return changed;
}

}  // namespace

Result<bool> ensureCaBundle(k8s::Client& client, const k8s::GroupVersionResource& resource,
                            const std::string& name, std::string_view ca_pem) {
  const std::string what = resource.resource + " '" + name + "'";
  const std::string encoded = api::admission::base64Encode(ca_pem);
  Status last;
  for (int attempt = 0; attempt < kCaBundleAttempts; ++attempt) {
    Result<api::Json> configuration = client.get(resource, "", name);
    if (!configuration.ok()) {
      return configuration.status().withPrefix("failed to read " + what);
    }
    if (!setCaBundles(*configuration, ca_pem, encoded)) {
      return false;
    }
    k8s::dropManagedFields(*configuration);
    const Result<api::Json> updated = client.update(resource, "", *configuration);
    if (updated.ok()) {
      return true;
    }
    last = updated.status();
    if (!k8s::isConflict(last)) {
      break;
    }
  }
  return last.withPrefix("failed to set the caBundle of " + what);
}

}  // namespace koord::manager::cert
