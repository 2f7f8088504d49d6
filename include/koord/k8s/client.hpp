// Client: the Kubernetes API at the JSON level (any resource, through a GroupVersionResource),
// plus a thin typed layer over the api models (getAs<T>, listAs<T>, createAs<T>, updateAs<T>).
//
// Failures are the Status values of errors.hpp (test them with isNotFound(), isConflict(), ...).
// Thread safety: implementations are thread-safe; RestApiClient is.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/rest_client.hpp"

namespace koord::k8s {

using Json = api::Json;

struct ListOptions {
  std::string labelSelector;
  std::string fieldSelector;
  int64_t limit = 0;  // 0: no limit
  std::string continue_;
  std::string resourceVersion;
  std::string resourceVersionMatch;  // NotOlderThan, Exact
  // Watch only.
  std::optional<int64_t> timeoutSeconds;
  bool allowWatchBookmarks = false;

  // "?labelSelector=...&limit=..." (escaped; "" when nothing is set); `watch` adds watch=true.
  [[nodiscard]] std::string toQuery(bool watch = false) const;
};

struct ObjectList {
  std::string apiVersion;
  std::string kind;
  api::core::ListMeta metadata;
  std::vector<Json> items;
};

enum class PatchType { kMerge, kJsonPatch, kStrategicMerge, kApply };

// The Content-Type of a patch type ("application/merge-patch+json", ...).
[[nodiscard]] std::string_view patchContentType(PatchType type);

struct PatchOptions {
  std::string subresource;    // "" or "status", ...
  std::string field_manager;  // required for kApply
  bool force = false;         // kApply only: take over conflicting fields
};

class Client {
 public:
  virtual ~Client() = default;

  // `ns` is ignored for cluster-scoped resources.
  [[nodiscard]] virtual Result<Json> get(const GroupVersionResource& gvr, const std::string& ns,
                                         const std::string& name) = 0;
  // One page; ns "" lists every namespace.
  [[nodiscard]] virtual Result<ObjectList> list(const GroupVersionResource& gvr,
                                                const std::string& ns,
                                                const ListOptions& options) = 0;
  // `object` carries metadata.name (or generateName); the created object is returned.
  [[nodiscard]] virtual Result<Json> create(const GroupVersionResource& gvr, const std::string& ns,
                                            const Json& object) = 0;
  // PUT of `object` (its metadata.name and, for optimistic concurrency, resourceVersion).
  [[nodiscard]] virtual Result<Json> update(const GroupVersionResource& gvr, const std::string& ns,
                                            const Json& object) = 0;
  // PUT to the status subresource.
  [[nodiscard]] virtual Result<Json> updateStatus(const GroupVersionResource& gvr,
                                                  const std::string& ns, const Json& object) = 0;
  [[nodiscard]] virtual Status remove(const GroupVersionResource& gvr, const std::string& ns,
                                      const std::string& name,
                                      const api::core::DeleteOptions& options) = 0;
  [[nodiscard]] virtual Result<Json> patch(const GroupVersionResource& gvr, const std::string& ns,
                                           const std::string& name, PatchType type,
                                           const std::string& body,
                                           const PatchOptions& options) = 0;
  // POST pods/<pod>/binding to `node` (uid "" skips the UID check).
  [[nodiscard]] virtual Status bind(const std::string& ns, const std::string& pod,
                                    const std::string& uid, const std::string& node) = 0;
  // POST pods/<pod>/eviction (policy/v1). A PodDisruptionBudget refusal is kResourceExhausted
  // with reason TooManyRequests (isTooManyRequests()) and the budget's message.
  [[nodiscard]] virtual Status evict(const std::string& ns, const std::string& pod,
                                     const api::core::DeleteOptions& options) = 0;
  [[nodiscard]] virtual Result<Json> createEvent(const std::string& ns,
                                                 const api::core::Event& event) = 0;
  // GET ?watch=true: the raw event stream in chunks, until the server ends it, on_chunk returns
  // false (both ok), options.stop is set (kCancelled) or a failure (see RestClient::stream).
  [[nodiscard]] virtual Status watch(const GroupVersionResource& gvr, const std::string& ns,
                                     const ListOptions& options,
                                     const std::function<bool(std::string_view)>& on_chunk,
                                     const StreamOptions& stream_options) = 0;
};

// The Client over a RestClient.
class RestApiClient final : public Client {
 public:
  // `defaults` apply to every request this client sends (watches excepted); two RestApiClients
  // may share one RestClient (its connections and rate limit) with different defaults, as
  // koord-extender's binds do with a call_timeout.
  explicit RestApiClient(std::shared_ptr<RestClient> rest, RequestOptions defaults = {})
      : rest_(std::move(rest)), defaults_(std::move(defaults)) {}

  Result<Json> get(const GroupVersionResource& gvr, const std::string& ns,
                   const std::string& name) override;
  Result<ObjectList> list(const GroupVersionResource& gvr, const std::string& ns,
                          const ListOptions& options) override;
  Result<Json> create(const GroupVersionResource& gvr, const std::string& ns,
                      const Json& object) override;
  Result<Json> update(const GroupVersionResource& gvr, const std::string& ns,
                      const Json& object) override;
  Result<Json> updateStatus(const GroupVersionResource& gvr, const std::string& ns,
                            const Json& object) override;
  Status remove(const GroupVersionResource& gvr, const std::string& ns, const std::string& name,
                const api::core::DeleteOptions& options) override;
  Result<Json> patch(const GroupVersionResource& gvr, const std::string& ns,
                     const std::string& name, PatchType type, const std::string& body,
                     const PatchOptions& options) override;
  Status bind(const std::string& ns, const std::string& pod, const std::string& uid,
              const std::string& node) override;
  Status evict(const std::string& ns, const std::string& pod,
               const api::core::DeleteOptions& options) override;
  Result<Json> createEvent(const std::string& ns, const api::core::Event& event) override;
  Status watch(const GroupVersionResource& gvr, const std::string& ns, const ListOptions& options,
               const std::function<bool(std::string_view)>& on_chunk,
               const StreamOptions& stream_options) override;

 private:
  Result<Json> send(std::string_view method, const std::string& path, const Json* body,
                    std::string_view content_type = "application/json");
  Result<Json> put(const GroupVersionResource& gvr, const std::string& ns, const Json& object,
                   std::string_view subresource);

  std::shared_ptr<RestClient> rest_;
  RequestOptions defaults_;
};

// Every item of a list, following `continue` tokens page by page (options.limit is the page
// size). The result's metadata is the last page's. A kGone/Expired continue token fails.
[[nodiscard]] Result<ObjectList> listAll(Client& client, const GroupVersionResource& gvr,
                                         const std::string& ns, ListOptions options);

// Removes metadata.managedFields (kept by nobody here, and large) from an object.
void dropManagedFields(Json& object);

// Decodes an API object into a model T (managedFields dropped first).
template <typename T>
[[nodiscard]] Result<T> decodeObject(Json object) {
  dropManagedFields(object);
  T out{};
  KOORD_RETURN_IF_ERROR(fromJson(object, out, ""));
  return out;
}

template <typename T>
[[nodiscard]] Result<T> getAs(Client& client, const GroupVersionResource& gvr,
                              const std::string& ns, const std::string& name) {
  KOORD_ASSIGN_OR_RETURN(Json j, client.get(gvr, ns, name));
  return decodeObject<T>(std::move(j));
}

template <typename T>
[[nodiscard]] Result<std::vector<T>> listAs(Client& client, const GroupVersionResource& gvr,
                                            const std::string& ns, const ListOptions& options) {
  KOORD_ASSIGN_OR_RETURN(ObjectList list, listAll(client, gvr, ns, options));
  std::vector<T> out;
  out.reserve(list.items.size());
  for (size_t i = 0; i < list.items.size(); ++i) {
    auto item = decodeObject<T>(std::move(list.items[i]));
    if (!item.ok()) {
      return item.status().withPrefix("items[" + std::to_string(i) + "]");
    }
    out.push_back(std::move(item).value());
  }
  return out;
}

template <typename T>
[[nodiscard]] Result<T> createAs(Client& client, const GroupVersionResource& gvr,
                                 const std::string& ns, const T& object) {
  KOORD_ASSIGN_OR_RETURN(Json j, client.create(gvr, ns, toJson(object)));
  return decodeObject<T>(std::move(j));
}

template <typename T>
[[nodiscard]] Result<T> updateAs(Client& client, const GroupVersionResource& gvr,
                                 const std::string& ns, const T& object) {
  KOORD_ASSIGN_OR_RETURN(Json j, client.update(gvr, ns, toJson(object)));
  return decodeObject<T>(std::move(j));
}

}  // namespace koord::k8s
