// Two validating webhooks of koord-manager over objects koord already knows how to check:
//
// ReservationValidatingHandler (path /validate-reservation): scheduling.koordinator.sh
// Reservations on CREATE (api::scheduling::validateReservation) and UPDATE
// (validateReservationUpdate against oldObject). A violation is denied with code 403 and the
// validator's message ("failed to validate Reservation '<name>': <path>: <problem>; ...").
//
// ConfigMapValidatingHandler (path /validate-configmap): the slo-controller-config ConfigMap
// (koordinator-system/slo-controller-config unless other names are given) on CREATE and UPDATE,
// read with manager/sloconfig's parseSloControllerConfig; a ConfigMap that does not parse is
// denied with code 403 and the parser's message ("invalid slo-controller-config: <key>: ...").
// Every other ConfigMap, and DELETE, is allowed.
//
// Both: another resource or a subresource is allowed unchanged; an object (or oldObject on
// UPDATE) that is missing or does not decode is denied with code 400.
#pragma once

#include <string>
#include <string_view>

#include "koord/log/logger.hpp"
#include "manager/webhook/handler.hpp"

namespace koord::manager::webhook {

class ReservationValidatingHandler final : public AdmissionHandler {
 public:
  static constexpr std::string_view kName = "reservation-validating";
  static constexpr std::string_view kPath = "/validate-reservation";

  explicit ReservationValidatingHandler(log::Logger logger) : logger_(std::move(logger)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view path() const override { return kPath; }
  [[nodiscard]] api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const override;

 private:
  log::Logger logger_;
};

class ConfigMapValidatingHandler final : public AdmissionHandler {
 public:
  static constexpr std::string_view kName = "configmap-validating";
  static constexpr std::string_view kPath = "/validate-configmap";

  // The ConfigMap to check: koord-manager's --config-namespace and --slo-config-name.
  ConfigMapValidatingHandler(log::Logger logger,
                             std::string config_namespace = "koordinator-system",
                             std::string config_name = "slo-controller-config")
      : logger_(std::move(logger)),
        namespace_(std::move(config_namespace)),
        name_(std::move(config_name)) {}

  [[nodiscard]] std::string_view name() const override { return kName; }
  [[nodiscard]] std::string_view path() const override { return kPath; }
  [[nodiscard]] api::admission::AdmissionResponse admit(
      const api::admission::AdmissionRequest& request) const override;

 private:
  log::Logger logger_;
  std::string namespace_;
  std::string name_;
};

}  // namespace koord::manager::webhook
