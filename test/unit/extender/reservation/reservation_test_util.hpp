// Builders for the Reservation tests: reservations owned by a label, placed or pending, and a
// ClusterState with nodes, pods and reservations.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "extender/framework/cluster_state.hpp"
#include "koord/api/extension/reservation.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/api/well_known.hpp"
#include "test/unit/extender/plugins/plugin_test_util.hpp"

namespace koord::extender::testing {

struct ReservationInput {
  std::string name = "r";
  Quantities requests = {};
  std::string node = {};          // status.nodeName; with it the phase is Available
  std::string owner_app = "web";  // owners: [{labelSelector: {matchLabels: {app: <owner_app>}}}]
  std::optional<bool> allocate_once = {};
  api::scheduling::ReservationAllocatePolicy policy =
      api::scheduling::ReservationAllocatePolicy::kDefault;
  std::string created = "2026-11-26T10:00:00Z";
  std::optional<std::string> ttl = {};
  std::optional<std::string> expires = {};
};

inline std::shared_ptr<api::scheduling::Reservation> makeReservation(const ReservationInput& in) {
  auto r = std::make_shared<api::scheduling::Reservation>();
  r->apiVersion = "scheduling.koordinator.sh/v1alpha1";
  r->kind = "Reservation";
  r->metadata.name = in.name;
  r->metadata.uid = "uid-" + in.name;
  r->metadata.resourceVersion = "1";
  r->metadata.creationTimestamp = in.created;
  api::core::PodTemplateSpec tmpl;
  api::core::Container c;
  c.name = "main";
  c.resources.requests = resourceList(in.requests);
  tmpl.spec.containers.push_back(std::move(c));
  r->spec.template_ = std::move(tmpl);
  if (!in.owner_app.empty()) {
    api::scheduling::ReservationOwner owner;
    owner.labelSelector.emplace();
    owner.labelSelector->matchLabels["app"] = in.owner_app;
    r->spec.owners.push_back(std::move(owner));
  }
  r->spec.allocateOnce = in.allocate_once;
  r->spec.allocatePolicy = in.policy;
  r->spec.ttl = in.ttl;
  r->spec.expires = in.expires;
  if (!in.node.empty()) {
    r->status.phase = "Available";
    r->status.nodeName = in.node;
    r->status.allocatable = resourceList(in.requests);
  }
  return r;
}

// A pod of app `app` (its label), optionally already allocated to reservation `r` and bound to
// `node`.
inline std::shared_ptr<api::core::Pod> ownerPod(const std::string& name, Quantities requests,
                                                const std::string& app,
                                                const std::string& allocated_to = "",
                                                const std::string& node = "") {
  auto pod = makePod(name, std::move(requests), {{"app", app}});
  if (!allocated_to.empty()) {
    api::extension::ReservationAllocated allocated;
    allocated.name = allocated_to;
    allocated.uid = "uid-" + allocated_to;
    pod->metadata.annotations[std::string(api::kAnnotationReservationAllocated)] =
        api::extension::formatReservationAllocated(allocated);
  }
  pod->spec.nodeName = node;
  return pod;
}

}  // namespace koord::extender::testing
