// ExtenderService: the extender's four verbs in wire terms (k8s.io/kube-scheduler/extender/v1),
// the seam between the HTTP routes (routes.cpp) and the scheduling runtime
// (extender/framework/runtime.hpp, through FrameworkService). The routes decode, call, encode;
// they know no plugin.
//
// Contracts (kubernetes-integration.md section 1.2):
// - filter: with nodeCacheCapable the request carries NodeNames and so does the reply; without
//   it, Nodes, and the reply returns the subset of the given Node objects. A node the extender
//   does not know is reported in FailedNodes ("node(s) not found in koord-extender's cache")
//   rather than failing the call; an internal failure sets Error.
//   filterKnownPod is the same call for a body the server has not decoded, named by its pod's
//   namespace, name, UID and resourceVersion: it answers what filter would for that pod, or
//   nullopt when the service does not hold that version of the pod (then the server decodes the
//   body and calls filter).
// - prioritize: a score in 0..10 for every given node (0 for nodes it does not know).
//   prioritizeKnownPod is the same call for a body the server has not decoded, named by its pod's
//   UID and resourceVersion: it answers what prioritize would, or nullopt when it cannot tell the
//   pod from that alone (then the server decodes the body and calls prioritize).
// - bind: re-checks the node, reserves, waits where a plugin says so, patches the pod once, POSTs
//   the binding; any failure unreserves and sets Error (kube-scheduler retries the pod).
// - preempt: the reply keeps, trims or drops each node's victims (NodeNameToMetaVictims).
//
// Thread safety: implementations are thread-safe; the server calls them from many threads.
#pragma once

#include <optional>

#include "extender/server/wire/args_key.hpp"
#include "koord/api/extender/types.hpp"

namespace koord::extender::server {

class ExtenderService {
 public:
  virtual ~ExtenderService() = default;
  [[nodiscard]] virtual api::extender::ExtenderFilterResult filter(
      const api::extender::ExtenderArgs& args) = 0;
  [[nodiscard]] virtual std::optional<api::extender::ExtenderFilterResult> filterKnownPod(
      const wire::ExtenderArgsKey& /*key*/) {
    return std::nullopt;
  }
  [[nodiscard]] virtual api::extender::HostPriorityList prioritize(
      const api::extender::ExtenderArgs& args) = 0;
  [[nodiscard]] virtual std::optional<api::extender::HostPriorityList> prioritizeKnownPod(
      const wire::ExtenderArgsKey& /*key*/) {
    return std::nullopt;
  }
  [[nodiscard]] virtual api::extender::ExtenderBindingResult bind(
      const api::extender::ExtenderBindingArgs& args) = 0;
  [[nodiscard]] virtual api::extender::ExtenderPreemptionResult preempt(
      const api::extender::ExtenderPreemptionArgs& args) = 0;
  // True once the caches have synced (/readyz).
  [[nodiscard]] virtual bool ready() const = 0;
};

}  // namespace koord::extender::server
