#include "koord/k8s/client.hpp"

#include <utility>

namespace koord::k8s {
namespace {

void addParam(std::string& query, std::string_view key, std::string_view value) {
  query += query.empty() ? "?" : "&";
  query += key;
  query += "=";
  query += escapeUrlComponent(value);
}

Result<Json> parseBody(const HttpResult& reply, std::string_view method, const std::string& path) {
  auto parsed = api::parseJson(reply.body);
  if (!parsed.ok()) {
    return Status::internal("failed to decode reply of " + std::string(method) + " '" + path +
                            "': " + parsed.status().message());
  }
  return std::move(parsed).value();
}

std::string nameOf(const Json& object) {
  if (object.is_object() && object.contains("metadata") && object["metadata"].is_object()) {
    const Json& meta = object["metadata"];
    if (meta.contains("name") && meta["name"].is_string()) {
      return meta["name"].get<std::string>();
    }
  }
  return "";
}

}  // namespace

std::string ListOptions::toQuery(bool watch) const {
  std::string q;
  if (watch) {
    addParam(q, "watch", "true");
  }
  if (!labelSelector.empty())
    addParam(q, "labelSelector", labelSelector);
  if (!fieldSelector.empty())
    addParam(q, "fieldSelector", fieldSelector);
  if (limit > 0)
    addParam(q, "limit", std::to_string(limit));
  if (!continue_.empty())
    addParam(q, "continue", continue_);
  if (!resourceVersion.empty())
    addParam(q, "resourceVersion", resourceVersion);
  if (!resourceVersionMatch.empty())
    addParam(q, "resourceVersionMatch", resourceVersionMatch);
  if (timeoutSeconds)
    addParam(q, "timeoutSeconds", std::to_string(*timeoutSeconds));
  if (allowWatchBookmarks)
    addParam(q, "allowWatchBookmarks", "true");
  return q;
}

std::string_view patchContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kJsonPatch:
      return "application/json-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
  }
  return "application/merge-patch+json";
}

void dropManagedFields(Json& object) {
  if (object.is_object() && object.contains("metadata") && object["metadata"].is_object()) {
    object["metadata"].erase("managedFields");
  }
}

Result<Json> RestApiClient::send(std::string_view method, const std::string& path, const Json* body,
                                 std::string_view content_type) {
  std::string text;
  if (body != nullptr) {
    // nlohmann throws on strings that are not UTF-8 (text read off a host, say); the API server
    // would refuse them anyway, so that is the caller's error, not a crash.
    try {
      text = body->dump();
    } catch (const Json::exception& e) {
      return Status::invalidArgument("failed to encode the body of " + std::string(method) + " '" +
                                     path + "': " + e.what());
    }
  }
  KOORD_ASSIGN_OR_RETURN(HttpResult reply,
                         rest_->request(method, path, text, content_type, defaults_));
  if (reply.body.empty()) {
    return Json::object();
  }
  return parseBody(reply, method, path);
}

Result<Json> RestApiClient::get(const GroupVersionResource& gvr, const std::string& ns,
                                const std::string& name) {
  if (name.empty()) {
    return Status::invalidArgument("failed to get '" + gvr.resource + "': name: required");
  }
  return send("GET", resourcePath(gvr, ns, name), nullptr);
}

Result<ObjectList> RestApiClient::list(const GroupVersionResource& gvr, const std::string& ns,
                                       const ListOptions& options) {
  const std::string path = resourcePath(gvr, ns) + options.toQuery();
  KOORD_ASSIGN_OR_RETURN(Json j, send("GET", path, nullptr));
  ObjectList out;
  if (!j.is_object()) {
    return Status::internal("failed to decode reply of GET '" + path + "': expected object");
  }
  out.apiVersion = api::stringOr(j, "apiVersion");
  out.kind = api::stringOr(j, "kind");
  if (j.contains("metadata")) {
    KOORD_RETURN_IF_ERROR(api::core::fromJson(j["metadata"], out.metadata, "metadata")
                              .withPrefix("failed to decode reply of GET '" + path + "'"));
  }
  if (j.contains("items") && j["items"].is_array()) {
    out.items.reserve(j["items"].size());
    for (auto& item : j["items"]) {
      out.items.push_back(std::move(item));
    }
  }
  return out;
}

Result<Json> RestApiClient::create(const GroupVersionResource& gvr, const std::string& ns,
                                   const Json& object) {
  return send("POST", resourcePath(gvr, ns), &object);
}

Result<Json> RestApiClient::put(const GroupVersionResource& gvr, const std::string& ns,
                                const Json& object, std::string_view subresource) {
  const std::string name = nameOf(object);
  if (name.empty()) {
    return Status::invalidArgument("failed to update '" + gvr.resource +
                                   "': metadata.name: required");
  }
  return send("PUT", resourcePath(gvr, ns, name, subresource), &object);
}

Result<Json> RestApiClient::update(const GroupVersionResource& gvr, const std::string& ns,
                                   const Json& object) {
  return put(gvr, ns, object, "");
}

Result<Json> RestApiClient::updateStatus(const GroupVersionResource& gvr, const std::string& ns,
                                         const Json& object) {
  return put(gvr, ns, object, "status");
}

Status RestApiClient::remove(const GroupVersionResource& gvr, const std::string& ns,
                             const std::string& name, const api::core::DeleteOptions& options) {
  if (name.empty()) {
    return Status::invalidArgument("failed to delete '" + gvr.resource + "': name: required");
  }
  api::core::DeleteOptions opts = options;
  opts.apiVersion = "v1";
  opts.kind = "DeleteOptions";
  const Json body = api::core::toJson(opts);
  return send("DELETE", resourcePath(gvr, ns, name), &body).status();
}

Result<Json> RestApiClient::patch(const GroupVersionResource& gvr, const std::string& ns,
                                  const std::string& name, PatchType type, const std::string& body,
                                  const PatchOptions& options) {
  if (type == PatchType::kApply && options.field_manager.empty()) {
    return Status::invalidArgument("failed to apply '" + gvr.resource + "/" + name +
                                   "': field_manager: required for server-side apply");
  }
  std::string path = resourcePath(gvr, ns, name, options.subresource);
  std::string query;
  if (!options.field_manager.empty()) {
    addParam(query, "fieldManager", options.field_manager);
  }
  if (type == PatchType::kApply && options.force) {
    addParam(query, "force", "true");
  }
  path += query;
  KOORD_ASSIGN_OR_RETURN(HttpResult reply,
                         rest_->request("PATCH", path, body, patchContentType(type), defaults_));
  return parseBody(reply, "PATCH", path);
}

Status RestApiClient::bind(const std::string& ns, const std::string& pod, const std::string& uid,
                           const std::string& node) {
  const Json body = api::core::toJson(api::core::makeBinding(ns, pod, uid, node));
  return send("POST", resourcePath(kPods, ns, pod, "binding"), &body).status();
}

Status RestApiClient::evict(const std::string& ns, const std::string& pod,
                            const api::core::DeleteOptions& options) {
  api::core::Eviction eviction;
  eviction.apiVersion = "policy/v1";
  eviction.kind = "Eviction";
  eviction.metadata.name = pod;
  eviction.metadata.namespace_ = ns;
  if (options != api::core::DeleteOptions{}) {
    eviction.deleteOptions = options;
  }
  const Json body = api::core::toJson(eviction);
  return send("POST", resourcePath(kPods, ns, pod, "eviction"), &body).status();
}

Result<Json> RestApiClient::createEvent(const std::string& ns, const api::core::Event& event) {
  api::core::Event e = event;
  e.apiVersion = "v1";
  e.kind = "Event";
  if (e.metadata.namespace_.empty()) {
    e.metadata.namespace_ = ns;
  }
  const Json body = api::core::toJson(e);
  return send("POST", resourcePath(kEvents, ns), &body);
}

Status RestApiClient::watch(const GroupVersionResource& gvr, const std::string& ns,
                            const ListOptions& options,
                            const std::function<bool(std::string_view)>& on_chunk,
                            const StreamOptions& stream_options) {
  return rest_->stream(resourcePath(gvr, ns) + options.toQuery(/*watch=*/true), on_chunk,
                       stream_options);
}

Result<ObjectList> listAll(Client& client, const GroupVersionResource& gvr, const std::string& ns,
                           ListOptions options) {
  ObjectList all;
  while (true) {
    KOORD_ASSIGN_OR_RETURN(ObjectList page, client.list(gvr, ns, options));
    all.apiVersion = page.apiVersion;
    all.kind = page.kind;
    for (auto& item : page.items) {
      all.items.push_back(std::move(item));
    }
    all.metadata = page.metadata;
    if (page.metadata.continue_.empty()) {
      return all;
    }
    options.continue_ = page.metadata.continue_;
  }
}

}  // namespace koord::k8s
