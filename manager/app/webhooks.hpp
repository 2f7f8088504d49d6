// koord-manager's admission webhooks as one piece: the HTTPS server (manager/cert/webhook_server)
// with the five handlers of manager/webhook mounted on their paths, the certificate controller
// that makes and renews the serving certificate and keeps the caBundle of the two webhook
// configurations (manager/cert/cert_controller), and the informers the pod mutating webhook reads
// (ClusterColocationProfiles, Namespaces, PriorityClasses).
//
// Every replica serves the webhooks, leader or not. create() registers the informers on the
// factory (start the factory afterwards); start() starts the certificate controller, which starts
// the server once a certificate is in place; stop() stops both. Thread safety: readiness() from
// any thread; the rest from one.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "koord/log/logger.hpp"
#include "manager/app/serve.hpp"
#include "manager/cert/cert_controller.hpp"
#include "manager/cert/webhook_server.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::app {

class Webhooks {
 public:
  // Fails naming what could not be set up (an informer, a bad option).
  [[nodiscard]] static Result<std::unique_ptr<Webhooks>> create(const WebhookServeOptions& options,
                                                                k8s::Client& client,
                                                                k8s::SharedInformerFactory& factory,
                                                                const log::Logger& logger);
  ~Webhooks();
  Webhooks(const Webhooks&) = delete;
  Webhooks& operator=(const Webhooks&) = delete;

  void start();
  void stop(std::chrono::milliseconds grace);
  // ok once the webhooks are served with a certificate; why not otherwise.
  [[nodiscard]] Status readiness() const;
  [[nodiscard]] size_t handlerCount() const { return handlers_.size(); }

 private:
  Webhooks() = default;

  std::vector<std::unique_ptr<webhook::AdmissionHandler>> handlers_;
  std::unique_ptr<cert::WebhookServer> server_;
  std::unique_ptr<cert::CertController> certs_;
};

}  // namespace koord::manager::app
