#include "manager/app/webhooks.hpp"

#include <optional>
#include <string>
#include <utility>

#include "koord/api/config/cluster_colocation_profile.hpp"
#include "koord/api/core/meta.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/cert/cert_dir.hpp"
#include "manager/webhook/colocation_profile.hpp"
#include "manager/webhook/node_mutating.hpp"
#include "manager/webhook/object_validating.hpp"
#include "manager/webhook/pod_mutating.hpp"
#include "manager/webhook/pod_validating.hpp"
#include "manager/webhook/review_io.hpp"

namespace koord::manager::app {
namespace {

const k8s::GroupVersionResource kPriorityClasses{"scheduling.k8s.io", "v1", "priorityclasses",
                                                 false};

// What the pod mutating webhook reads of a Namespace (its labels) and of a PriorityClass.
struct NamespaceObject {
  api::core::ObjectMeta metadata;
};
struct PriorityClassObject {
  api::core::ObjectMeta metadata;
  webhook::PriorityClassInfo info;
};

// The informers decode with these (found by argument-dependent lookup).
Status fromJson(const api::Json& object, NamespaceObject& out, const std::string& path) {
  auto meta = object.find("metadata");
  if (!object.is_object() || meta == object.end()) {
    return Status::invalidArgument("failed to decode Namespace: " + path + "metadata: required");
  }
  return api::core::fromJson(*meta, out.metadata, path + "metadata");
}

Status fromJson(const api::Json& object, PriorityClassObject& out, const std::string& path) {
  auto meta = object.find("metadata");
  if (!object.is_object() || meta == object.end()) {
    return Status::invalidArgument("failed to decode PriorityClass: " + path +
                                   "metadata: required");
  }
  KOORD_RETURN_IF_ERROR(api::core::fromJson(*meta, out.metadata, path + "metadata"));
  auto value = object.find("value");
  if (value == object.end() || !value->is_number_integer()) {
    return Status::invalidArgument("failed to decode PriorityClass '" + out.metadata.name +
                                   "': value: want an integer");
  }
  out.info.value = value->get<int32_t>();
  if (auto policy = object.find("preemptionPolicy");
      policy != object.end() && policy->is_string()) {
    out.info.preemptionPolicy = policy->get<std::string>();
  }
  return Status::ok();
}

// The informer caches as the pod mutating webhook's lookups.
Result<webhook::ColocationProfileSources> profileSources(k8s::SharedInformerFactory& factory) {
  KOORD_ASSIGN_OR_RETURN(auto profiles, factory.informerFor<api::config::ClusterColocationProfile>(
                                            k8s::kClusterColocationProfiles));
  KOORD_ASSIGN_OR_RETURN(auto namespaces, factory.informerFor<NamespaceObject>(k8s::kNamespaces));
  KOORD_ASSIGN_OR_RETURN(auto classes, factory.informerFor<PriorityClassObject>(kPriorityClasses));
  webhook::ColocationProfileSources sources;
  sources.profiles = [profiles] { return profiles->store().list(); };
  sources.namespaceLabels =
      [namespaces](std::string_view name) -> std::optional<api::core::StringMap> {
    auto found = namespaces->store().get(std::string(name));
    if (found == nullptr) {
      return std::nullopt;
    }
    return found->metadata.labels;
  };
  sources.priorityClass =
      [classes](std::string_view name) -> std::optional<webhook::PriorityClassInfo> {
    auto found = classes->store().get(std::string(name));
    if (found == nullptr) {
      return std::nullopt;
    }
    return found->info;
  };
  return sources;
}

}  // namespace

Result<std::unique_ptr<Webhooks>> Webhooks::create(const WebhookServeOptions& options,
                                                   k8s::Client& client,
                                                   k8s::SharedInformerFactory& factory,
                                                   const log::Logger& logger) {
  std::unique_ptr<Webhooks> webhooks(new Webhooks());
  const log::Logger hook_logger = logger.withFields({{"component", "webhook"}});
  Result<webhook::ColocationProfileSources> sources = profileSources(factory);
  if (!sources.ok()) {
    return sources.status().withPrefix("failed to watch what the pod webhook reads");
  }
  webhooks->handlers_.push_back(
      std::make_unique<webhook::PodMutatingHandler>(std::move(*sources), hook_logger));
  webhooks->handlers_.push_back(std::make_unique<webhook::NodeMutatingHandler>(hook_logger));
  webhooks->handlers_.push_back(std::make_unique<webhook::PodValidatingHandler>(hook_logger));
  webhooks->handlers_.push_back(
      std::make_unique<webhook::ReservationValidatingHandler>(hook_logger));
  webhooks->handlers_.push_back(std::make_unique<webhook::ConfigMapValidatingHandler>(hook_logger));

  const cert::CertDir dir(options.cert_dir);
  cert::WebhookServerOptions server_options;
  server_options.port = options.port;
  server_options.cert_file = dir.certFile();
  server_options.key_file = dir.keyFile();
  server_options.logger = hook_logger;
  KOORD_ASSIGN_OR_RETURN(webhooks->server_, cert::WebhookServer::create(server_options));
  for (const auto& handler : webhooks->handlers_) {
    const webhook::AdmissionHandler* h = handler.get();
    KOORD_RETURN_IF_ERROR(webhooks->server_->handle(h->path(), [h](std::string_view body) {
      webhook::WebhookReply reply = webhook::serveAdmission(*h, body);
      return cert::WebhookReply{reply.http_status, std::move(reply.body)};
    }));
  }

  cert::CertControllerOptions cert_options;
  cert_options.ns = options.ns;
  cert_options.secret_name = options.secret_name;
  cert_options.service_name = options.service_name;
  cert_options.extra_alt_names = options.alt_names;
  cert_options.cert_dir = options.cert_dir;
  cert_options.mutating_configuration = options.mutating_configuration;
  cert_options.validating_configuration = options.validating_configuration;
  cert_options.logger = logger.withFields({{"component", "webhook-certificates"}});
  cert::WebhookServer* server = webhooks->server_.get();
  cert_options.on_certificate_written = [server] { return server->certificateWritten(); };
  KOORD_ASSIGN_OR_RETURN(webhooks->certs_, cert::CertController::create(client, cert_options));
  return webhooks;
}

Webhooks::~Webhooks() {
  stop(std::chrono::milliseconds(0));
}

void Webhooks::start() {
  certs_->start();
}

void Webhooks::stop(std::chrono::milliseconds grace) {
  if (certs_ != nullptr) {
    certs_->stop();
  }
  if (server_ != nullptr) {
    server_->stop(grace);
  }
}

Status Webhooks::readiness() const {
  return server_->readiness();
}

}  // namespace koord::manager::app
