// Arbitration of pending PodMigrationJobs (Koordinator's migration/arbitrator/filter.go and
// sort.go; koordinator-reference.md 3(j)). arbitrate() is pure: given a snapshot of the jobs,
// the pods and the pods' workloads, it judges every pending job (phase "" or Pending, not paused,
// not yet annotated descheduler.koordinator.sh/passed-arbitration), oldest creationTimestamp
// first (then by name), and returns one verdict per job in that order:
//   kPass  - the job may start (the arbitrator annotates it passed-arbitration);
//   kRetry - not now: it stays Pending and is judged again on the next pass;
//   kFail  - never: the job fails with ForbiddenMigratePod and `reason`.
// A job that passes counts as migrating for the jobs judged after it in the same pass.
//
// "Migrating" means the other active jobs (Running, or Pending and passed arbitration) for pods
// other than the judged one. The checks, in order:
// Not retryable (kFail):
//   - the pod's namespace is outside args.namespaces (include / exclude);
//   - the pod carries scheduling.koordinator.sh/eviction-cost = 2147483647 (MaxInt32);
//   - another active job already migrates the pod;
//   - ReservationFirst (the job's mode, or the default) and the pod's schedulerName is not in
//     args.scheduler_names;
//   - expected replicas (gate ExpectedReplicas; off with skip_check_expected_replicas): the pod's
//     workload has replicas == 1, == maxMigrating or == maxUnavailable.
// Retryable (kRetry; all skipped for a pod annotated descheduler.alpha.kubernetes.io/evict):
//   - MaxMigratingGlobally: migrating jobs >= max;
//   - MaxMigratingPerNode: distinct pods of migrating jobs on the pod's node >= max;
//   - MaxMigratingPerNamespace: migrating jobs in the pod's namespace >= max;
//   - MaxMigratingPerWorkload: migrating pods of the same controller (UID) >= maxMigrating
//     (maxMigrating(replicas, args.max_migrating_per_workload), max_unavailable.hpp);
//   - MaxUnavailablePerWorkload: |workload pods not (active and Ready) U migrating pods of the
//     workload| >= maxUnavailable(replicas, args.max_unavailable_per_workload);
//   - the pod has a controller whose workload the snapshot cannot resolve.
// A limit that is unset or <= 0 is off; a gate named in args.skip_eviction_gates is skipped.
// A job whose podRef is empty or whose pod is missing passes: the job reconciler then fails it
// (InvalidPodRef / MissingPod), as in Koordinator.
//
// migrationLimitReached(snapshot, pod, args) is the retryable part alone for ONE candidate pod, as
// Koordinator's MigrationController evictor Filter applies it while a descheduling pass lists
// candidates: the same checks and reasons, but "migrating" there means every PodMigrationJob in
// phase Running or Pending (phase "" included; passed-arbitration and paused not looked at) for a
// pod other than `pod`. It returns the reason when a limit is reached (or the pod's workload is
// unresolved), std::nullopt when the pod may be taken; always std::nullopt for a pod annotated
// descheduler.alpha.kubernetes.io/evict. Per node and per workload count distinct pods, globally
// and per namespace count jobs, as Koordinator.
//
// Quirk knowingly not reproduced: Koordinator's SortJobsByCreationTime puts the newest job first;
// here the oldest goes first. Koordinator's further orderings (pod priority, QoS, controller
// grouping) and its per-workload object limiter are not done here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "manager/descheduler/config/plugin_args.hpp"

namespace koord::manager::descheduler::migration {

inline constexpr std::string_view kGateMaxMigratingGlobally = "MaxMigratingGlobally";
inline constexpr std::string_view kGateMaxMigratingPerNode = "MaxMigratingPerNode";
inline constexpr std::string_view kGateMaxMigratingPerNamespace = "MaxMigratingPerNamespace";
inline constexpr std::string_view kGateMaxMigratingPerWorkload = "MaxMigratingPerWorkload";
inline constexpr std::string_view kGateMaxUnavailablePerWorkload = "MaxUnavailablePerWorkload";
inline constexpr std::string_view kGateExpectedReplicas = "ExpectedReplicas";

// A workload as the arbitration sees it.
struct Workload {
  int64_t expected_replicas = 0;                            // spec.replicas (or its equivalent)
  std::vector<std::shared_ptr<const api::core::Pod>> pods;  // its pods now
};

// What arbitrate() reads. Implementations answer from caches; calls must be cheap.
class ArbitrationSnapshot {
 public:
  virtual ~ArbitrationSnapshot() = default;
  // Every PodMigrationJob.
  [[nodiscard]] virtual std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>> jobs()
      const = 0;
  // The pod, or nullptr.
  [[nodiscard]] virtual std::shared_ptr<const api::core::Pod> pod(
      const std::string& ns, const std::string& name) const = 0;
  // The workload that `controller` (a pod's controller reference, in namespace `ns`) names;
  // std::nullopt when it cannot be resolved.
  [[nodiscard]] virtual std::optional<Workload> workload(
      const std::string& ns, const api::core::OwnerReference& controller) const = 0;
};

enum class Verdict { kPass, kRetry, kFail };

struct Arbitration {
  std::shared_ptr<const api::scheduling::PodMigrationJob> job;
  Verdict verdict = Verdict::kPass;
  std::string reason;  // why it was retried or failed ("" for a pass)
};

[[nodiscard]] std::vector<Arbitration> arbitrate(const ArbitrationSnapshot& snapshot,
                                                 const config::MigrationControllerArgs& args);

[[nodiscard]] std::optional<std::string> migrationLimitReached(
    const ArbitrationSnapshot& snapshot, const api::core::Pod& pod,
    const config::MigrationControllerArgs& args);

// "Pass", "Retry" or "Fail".
[[nodiscard]] std::string_view verdictName(Verdict verdict);

}  // namespace koord::manager::descheduler::migration
