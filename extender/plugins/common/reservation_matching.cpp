#include "extender/plugins/common/reservation_matching.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "koord/api/codec.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/selectors.hpp"
#include "koord/api/core/taints.hpp"
#include "koord/api/extension/annotation.hpp"
#include "koord/api/well_known.hpp"

namespace koord::extender::plugins::common {

namespace {

using api::core::Pod;
using api::core::StringMap;
using api::extension::ReservationAffinity;

constexpr std::string_view kPodAPIVersion = "v1";
constexpr std::string_view kTermsPath =
    "requiredDuringSchedulingIgnoredDuringExecution.reservationSelectorTerms";

// `want` empty is a wildcard.
bool fieldMatches(const std::string& want, const std::string& got) {
  return want.empty() || want == got;
}

bool labelIsTrue(const StringMap& labels, std::string_view key) {
  auto it = labels.find(std::string(key));
  return it != labels.end() && it->second == "true";
}

// The status with `path` joined in front of the field path its message starts with:
// "a[0]" + "b.c: cause" -> "a[0].b.c: cause".
Status underPath(const Status& status, const std::string& path) {
  return Status(status.code(), path + "." + status.message());
}

// Evaluates every term (so an invalid one is an error even when another matches), ORed.
// Errors name the term: "<kTermsPath>[i].<path>: <cause>", under the annotation.
Result<bool> matchSelectorTerms(const std::vector<api::core::NodeSelectorTerm>& terms,
                                const api::core::Node& node) {
  bool any = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto matched = api::core::matchesNodeSelectorTerm(terms[i], node);
    if (!matched.ok()) {
      return api::extension::annotationError(
          api::kAnnotationReservationAffinity,
          underPath(matched.status(), api::indexPath(std::string(kTermsPath), i)));
    }
    any = any || *matched;
  }
  return any;
}

bool toleratesUnschedulable(const std::vector<api::core::Toleration>& tolerations) {
  api::core::Taint taint;
  taint.key = std::string(kTaintUnschedulableKey);
  taint.effect = api::core::kTaintEffectNoSchedule;
  return api::core::tolerationsTolerateTaint(tolerations, taint);
}

bool exactMatches(const PodReservationPrefs& prefs, const resource::ResourceList& pod_requests,
                  const resource::ResourceList& allocatable) {
  return !prefs.exact_match ||
         api::extension::exactMatchReservation(pod_requests, allocatable, *prefs.exact_match);
}

}  // namespace

bool matchObjectRef(const api::core::ObjectReference& ref, const Pod& pod) {
  const std::string pod_api_version =
      pod.apiVersion.empty() ? std::string(kPodAPIVersion) : pod.apiVersion;
  return fieldMatches(ref.uid, pod.metadata.uid) && fieldMatches(ref.name, pod.metadata.name) &&
         fieldMatches(ref.namespace_, pod.metadata.namespace_) &&
         fieldMatches(ref.apiVersion, pod_api_version);
}

bool matchControllerRef(const api::scheduling::ReservationControllerReference& ref,
                        const Pod& pod) {
  if (!fieldMatches(ref.namespace_, pod.metadata.namespace_)) {
    return false;
  }
  const api::core::OwnerReference& want = ref.reference;
  for (const auto& owner : pod.metadata.ownerReferences) {
    bool controller_matches =
        !want.controller || (owner.controller && *owner.controller == *want.controller);
    if (controller_matches && fieldMatches(want.uid, owner.uid) &&
        fieldMatches(want.name, owner.name) && fieldMatches(want.kind, owner.kind) &&
        fieldMatches(want.apiVersion, owner.apiVersion)) {
      return true;
    }
  }
  return false;
}

Result<bool> matchOwner(const api::scheduling::ReservationOwner& owner, const Pod& pod) {
  bool selector_matches = true;
  if (owner.labelSelector) {
    auto matched = api::core::matchesLabelSelector(*owner.labelSelector, pod.metadata.labels);
    if (!matched.ok()) {
      return underPath(matched.status(), "labelSelector");
    }
    selector_matches = *matched;
  }
  return selector_matches && (!owner.object || matchObjectRef(*owner.object, pod)) &&
         (!owner.controller || matchControllerRef(*owner.controller, pod));
}

namespace {

// The common shape, decided without building selectors: every owner is a labelSelector of
// matchLabels only. std::nullopt for any other shape (the full matcher decides).
std::optional<bool> matchLabelOwners(const std::vector<api::scheduling::ReservationOwner>& owners,
                                     const Pod& pod) {
  bool any = false;
  for (const auto& owner : owners) {
    if (owner.object || owner.controller || !owner.labelSelector ||
        !owner.labelSelector->matchExpressions.empty())
      return std::nullopt;
    bool all = true;
    for (const auto& [key, value] : owner.labelSelector->matchLabels) {
      auto it = pod.metadata.labels.find(key);
      if (it == pod.metadata.labels.end() || it->second != value) {
        all = false;
        break;
      }
    }
    any = any || all;
  }
  return any;
}

}  // namespace

Result<bool> matchOwners(const std::vector<api::scheduling::ReservationOwner>& owners,
                         const Pod& pod) {
  if (std::optional<bool> quick = matchLabelOwners(owners, pod)) {
    return *quick;
  }
  bool any = false;
  for (size_t i = 0; i < owners.size(); ++i) {
    auto matched = matchOwner(owners[i], pod);
    if (!matched.ok()) {
      return underPath(matched.status(), api::indexPath("owners", i));
    }
    any = any || *matched;
  }
  return any;
}

bool PodReservationPrefs::required() const {
  return affinity.has_value() || pre_allocation_required;
}

Result<PodReservationPrefs> podReservationPrefs(const Pod& pod) {
  PodReservationPrefs prefs;
  const auto& labels = pod.metadata.labels;
  const auto& annotations = pod.metadata.annotations;
  prefs.ignored = labelIsTrue(labels, api::kLabelReservationIgnored);
  prefs.pre_allocation_required = labelIsTrue(labels, api::kLabelPreAllocationRequired);

  if (auto it = annotations.find(std::string(api::kAnnotationReservationAffinity));
      it != annotations.end()) {
    KOORD_ASSIGN_OR_RETURN(ReservationAffinity affinity,
                           api::extension::parseReservationAffinity(it->second));
    if (affinity.requiredDuringSchedulingIgnoredDuringExecution) {
      // Validate the terms up front (against a node with no labels; the result is unused).
      KOORD_RETURN_IF_ERROR(
          matchSelectorTerms(
              affinity.requiredDuringSchedulingIgnoredDuringExecution->reservationSelectorTerms,
              api::core::Node{})
              .status());
    }
    prefs.affinity = std::move(affinity);
  }
  if (auto it = annotations.find(std::string(api::kAnnotationExactMatchReservation));
      it != annotations.end()) {
    KOORD_ASSIGN_OR_RETURN(prefs.exact_match,
                           api::extension::parseExactMatchReservationSpec(it->second));
  }
  return prefs;
}

int64_t reservationOrder(const api::scheduling::Reservation& r) {
  const auto& labels = r.metadata.labels;
  auto it = labels.find(std::string(api::kLabelReservationOrder));
  if (it == labels.end()) {
    return 0;
  }
  const std::string& text = it->second;
  const char* begin = text.data();
  const char* const last = text.data() + text.size();
  // strconv.ParseInt also takes a leading '+', which from_chars does not.
  if (text.size() > 1 && text[0] == '+' && text[1] >= '0' && text[1] <= '9') {
    ++begin;
  }
  int64_t order = 0;
  auto [end, ec] = std::from_chars(begin, last, order);
  if (ec != std::errc() || end != last) {
    return 0;
  }
  return order;
}

Result<bool> matchReservation(const PodReservationPrefs& prefs, const Pod& pod,
                              const api::scheduling::Reservation& r, const StringMap& node_labels,
                              const resource::ResourceList& pod_requests,
                              const resource::ResourceList& allocatable) {
  const ReservationAffinity* affinity = prefs.affinity ? &*prefs.affinity : nullptr;
  const bool names_a_reservation = affinity != nullptr && !affinity->name.empty();

  // Short form without owners: reachable only by name.
  if (r.spec.resources && r.spec.owners.empty()) {
    return names_a_reservation && affinity->name == r.metadata.name &&
           exactMatches(prefs, pod_requests, allocatable);
  }

  auto owned = matchOwners(r.spec.owners, pod);
  if (!owned.ok()) {
    return underPath(owned.status(), "spec").withPrefix("reservation '" + r.metadata.name + "'");
  }
  if (!*owned) {
    return false;
  }

  if (names_a_reservation) {
    return affinity->name == r.metadata.name && exactMatches(prefs, pod_requests, allocatable);
  }

  static const std::vector<api::core::Toleration> kNoTolerations;
  const auto& tolerations = affinity != nullptr ? affinity->tolerations : kNoTolerations;

  const bool unschedulable = r.spec.unschedulable || !r.metadata.deletionTimestamp.empty();
  if (unschedulable && !toleratesUnschedulable(tolerations)) {
    return false;
  }

  for (const auto& taint : r.spec.taints) {
    if ((taint.effect == api::core::kTaintEffectNoSchedule ||
         taint.effect == api::core::kTaintEffectNoExecute) &&
        !api::core::tolerationsTolerateTaint(tolerations, taint)) {
      return false;
    }
  }

  if (affinity != nullptr) {
    api::core::Node fake_node;
    fake_node.metadata.name = r.metadata.name;
    fake_node.metadata.labels = r.metadata.labels;
    fake_node.metadata.labels.insert(node_labels.begin(), node_labels.end());  // r's labels win
    for (const auto& [key, value] : affinity->reservationSelector) {
      auto it = fake_node.metadata.labels.find(key);
      if (it == fake_node.metadata.labels.end() || it->second != value) {
        return false;
      }
    }
    if (affinity->requiredDuringSchedulingIgnoredDuringExecution) {
      KOORD_ASSIGN_OR_RETURN(
          bool terms_match,
          matchSelectorTerms(
              affinity->requiredDuringSchedulingIgnoredDuringExecution->reservationSelectorTerms,
              fake_node));
      if (!terms_match) {
        return false;
      }
    }
  }

  return exactMatches(prefs, pod_requests, allocatable);
}

}  // namespace koord::extender::plugins::common
