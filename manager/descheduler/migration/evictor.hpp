// Evictor: how a job's pod is made to leave its node (Koordinator's migration/evictor/), after a
// shared token bucket of evictQPS tokens a second and evictBurst tokens (one per attempt).
//
// Policies (MigrationControllerArgs.evictionPolicy; a pod's, else the job's, label
// koordinator.sh/evict-policy naming a known policy overrides it for that eviction):
// - Eviction: POST pods/<name>/eviction (policy/v1) with the job's delete options. A refusal by a
//   PodDisruptionBudget comes back as the client's kResourceExhausted / TooManyRequests Status
//   with the API server's message ("Cannot evict pod as it would violate the pod's disruption
//   budget."), so the caller can say why.
// - Delete: DELETE the pod with the delete options.
// - SoftEviction: only merge-patches the pod's annotation scheduling.koordinator.sh/soft-eviction
//   ({"timestamp", "deleteOptions", "initiator", "reason"}; initiator and reason from the job's
//   annotations koordinator.sh/evict-trigger and koordinator.sh/evict-reason) for an external
//   agent to act on.
// A pod that is already gone (NotFound) counts as evicted.
//
// evict() returns kSent when the request was accepted, kRateLimited (nothing sent) when the
// bucket is empty, or the API error prefixed "failed to evict pod '<ns>/<name>'".
// Thread safety: evict() may be called from several threads (the bucket is shared).
#pragma once

#include <chrono>
#include <string_view>

#include "koord/api/core/objects.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/common/clock.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/rate_limiter.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::migration {

enum class EvictionPolicy { kEviction, kDelete, kSoftEviction };

inline constexpr std::string_view kLabelEvictPolicy = "koordinator.sh/evict-policy";

// "Eviction", "Delete" or "SoftEviction"; kInvalidArgument otherwise.
[[nodiscard]] Result<EvictionPolicy> parseEvictionPolicy(std::string_view name);

enum class EvictOutcome { kSent, kRateLimited };

class Evictor {
 public:
  // `client` and `clock` must outlive the evictor. qps <= 0 disables the limit.
  Evictor(k8s::Client& client, EvictionPolicy policy, double qps, int burst, const Clock& clock,
          k8s::WallClock wall_clock = {});

  [[nodiscard]] Result<EvictOutcome> evict(const api::scheduling::PodMigrationJob& job,
                                           const api::core::Pod& pod,
                                           const api::core::DeleteOptions& options);

  // How long until the bucket holds a token again, at most (1/qps; 0 when unlimited).
  [[nodiscard]] std::chrono::nanoseconds refillInterval() const;

 private:
  Status send(EvictionPolicy policy, const api::scheduling::PodMigrationJob& job,
              const api::core::Pod& pod, const api::core::DeleteOptions& options);

  k8s::Client& client_;
  EvictionPolicy policy_;
  double qps_;
  k8s::RateLimiter limiter_;
  k8s::WallClock wall_clock_;
};

}  // namespace koord::manager::descheduler::migration
