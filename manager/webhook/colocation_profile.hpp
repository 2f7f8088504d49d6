// ClusterColocationProfile injection into a pod at CREATE, as Koordinator's pod mutating webhook
// does it (pkg/webhook/pod/mutating/cluster_colocation_profile.go), on the pod's JSON so that the
// JSONPatch computed from it touches only what a profile changed.
//
// For a pod in namespace `ns`, every profile (in name order) whose namespaceSelector matches the
// namespace's labels and whose selector matches the pod's labels (as they were before any profile
// ran; an unset or empty selector matches everything) is a matched profile. A profile whose
// selector does not parse, whose namespace is unknown to the lookup, or whose probability is not a
// percent, matches nothing; each such case is logged (warn). Each matched profile is then applied
// with its probability: 100 (unset) always, 0 never, p otherwise when random(100) < p. Applying
// one sets, in this order: its labels, its annotations, labelKeysMapping (dst = the pod's current
// value of src; a src the pod lacks is skipped), annotationKeysMapping (the same), labelSuffixes
// (appended to labels the pod has), spec.schedulerName, the koordinator.sh/qosClass label,
// spec.priorityClassName with spec.priority (and spec.preemptionPolicy when the class sets one)
// from the PriorityClass, the koordinator.sh/priority label (koordinatorPriority), and last its
// patch, merged into the pod (objects merge, null deletes; containers, initContainers,
// ephemeralContainers, volumes, env and imagePullSecrets merge element-wise by name, any other
// list is replaced; "$patch"-style directives are refused).
//
// When at least one profile matched (applied or not), the resources are converted for the pod's
// priority class (the koordinator.sh/priority-class label, else the band of spec.priority, read
// after the profiles ran): koord-batch turns cpu and memory of every init container's and
// container's requests and limits, and of spec.overhead, into kubernetes.io/batch-cpu (integer
// milli-cores: cpu "1" -> "1000", "500m" -> "500") and kubernetes.io/batch-memory (the same
// quantity); koord-mid into kubernetes.io/mid-cpu and mid-memory; a converted limit without a
// request also becomes the request. koord-prod, koord-free and no class leave them. The
// conversion is skipped when a matched profile's metadata.annotations or the mutated pod's
// annotations set config.koordinator.sh/skip-update-resources to "true".
//
// Thread safety: pure functions of their arguments and of the lookups they call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"
#include "koord/api/config/cluster_colocation_profile.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/well_known.hpp"
#include "koord/common/result.hpp"
#include "koord/log/logger.hpp"

namespace koord::manager::webhook {

// A scheduling.k8s.io/v1 PriorityClass, as the profile injection needs it.
struct PriorityClassInfo {
  int32_t value = 0;
  std::string preemptionPolicy;  // "" when the class does not set one
};

using ProfileLister =
    std::function<std::vector<std::shared_ptr<const api::config::ClusterColocationProfile>>()>;
// The labels of the Namespace object `name`; nullopt when the namespace is not known.
using NamespaceLabelsLookup =
    std::function<std::optional<api::core::StringMap>(std::string_view name)>;
// The PriorityClass `name`; nullopt when there is none.
using PriorityClassLookup = std::function<std::optional<PriorityClassInfo>(std::string_view name)>;
// A uniformly random integer in [0, n) for n > 0.
using RandomIntn = std::function<int(int n)>;

struct ColocationProfileSources {
  ProfileLister profiles;
  NamespaceLabelsLookup namespaceLabels;
  PriorityClassLookup priorityClass;
  RandomIntn randomIntn;  // empty: defaultRandomIntn()
};

// A RandomIntn over a std::mt19937 seeded from std::random_device, guarded by a mutex (safe to
// call from many threads).
[[nodiscard]] RandomIntn defaultRandomIntn();

struct ProfileOutcome {
  std::vector<std::string> matched;  // names, in the order they were considered
  std::vector<std::string> applied;  // the subset the probability let through
  bool resourcesConverted = false;   // some cpu/memory became batch-* or mid-*
  bool patchApplied = false;         // an applied profile had a spec.patch
};

// Applies the matching profiles to `pod_json` (the pod object; `pod` is the same object decoded)
// as the top of this file says. Errors (kNotFound for a PriorityClass that does not exist,
// kInvalidArgument for a patch that cannot be merged or a quantity that does not parse) read
// "failed to mutate Pod '<ns>/<name>' by ClusterColocationProfile '<profile>': <cause>"; the pod
// JSON is then partly mutated and must be dropped.
[[nodiscard]] Result<ProfileOutcome> applyColocationProfiles(
    const ColocationProfileSources& sources, const api::core::Pod& pod, std::string_view ns,
    api::Json& pod_json, const log::Logger& logger);

// The resource conversion alone, for `priority` (what applyColocationProfiles runs last): true
// when something changed. kInvalidArgument when a cpu quantity does not parse.
[[nodiscard]] Result<bool> convertResources(api::Json& pod_json, api::PriorityClass priority);

// The node.koordinator.sh/extended-resource-spec annotation, as Koordinator's webhook keeps it:
// the kubernetes.io/batch-cpu and batch-memory requests and limits of each regular container, by
// name. Set (replaced) when it differs from what the pod carries or does not parse; left alone
// when no container has batch resources and the pod has no such annotation. True when changed.
// kInvalidArgument when a batch quantity does not parse.
[[nodiscard]] Result<bool> syncExtendedResourceSpec(api::Json& pod_json);

// RFC 7386 merge of `patch` into `target`, with element-wise merging by name for the pod lists
// named at the top of this file. kInvalidArgument for a "$..." directive key or a patch that is
// not an object.
[[nodiscard]] Status mergePodPatch(api::Json& target, const api::Json& patch);

}  // namespace koord::manager::webhook
