#include "manager/descheduler/migration/evictor.hpp"

#include <string>
#include <utility>

#include "koord/api/extension/resource.hpp"
#include "koord/api/well_known.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"

namespace koord::manager::descheduler::migration {

namespace core = api::core;
namespace sched = api::scheduling;

namespace {

std::string annotationOr(const core::ObjectMeta& meta, std::string_view key) {
  const auto it = meta.annotations.find(std::string(key));
  return it == meta.annotations.end() ? std::string() : it->second;
}

// The policy a label asks for, when it names one.
std::optional<EvictionPolicy> labelledPolicy(const core::ObjectMeta& meta) {
  const auto it = meta.labels.find(std::string(kLabelEvictPolicy));
  if (it == meta.labels.end() || it->second.empty()) {
    return std::nullopt;
  }
  auto policy = parseEvictionPolicy(it->second);
  return policy.ok() ? std::optional<EvictionPolicy>(*policy) : std::nullopt;
}

}  // namespace

Result<EvictionPolicy> parseEvictionPolicy(std::string_view name) {
  if (name == "Eviction") {
    return EvictionPolicy::kEviction;
  }
  if (name == "Delete") {
    return EvictionPolicy::kDelete;
  }
  if (name == "SoftEviction") {
    return EvictionPolicy::kSoftEviction;
  }
  return Status::invalidArgument("unsupported eviction policy \"" + std::string(name) +
                                 "\": want Eviction, Delete or SoftEviction");
}

Evictor::Evictor(k8s::Client& client, EvictionPolicy policy, double qps, int burst,
                 const Clock& clock, k8s::WallClock wall_clock)
    : client_(client),
      policy_(policy),
      qps_(qps),
      limiter_(qps, burst, [&clock] { return clock.now(); }),
      wall_clock_(wall_clock ? std::move(wall_clock)
                             : k8s::WallClock([] { return std::chrono::system_clock::now(); })) {}

std::chrono::nanoseconds Evictor::refillInterval() const {
  if (qps_ <= 0) {
    return std::chrono::nanoseconds::zero();
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(1e9 / qps_) + 1);
}

Result<EvictOutcome> Evictor::evict(const sched::PodMigrationJob& job, const core::Pod& pod,
                                    const core::DeleteOptions& options) {
  if (!limiter_.tryAccept()) {
    return EvictOutcome::kRateLimited;
  }
  EvictionPolicy policy = policy_;
  if (auto from_pod = labelledPolicy(pod.metadata)) {
    policy = *from_pod;
  } else if (auto from_job = labelledPolicy(job.metadata)) {
    policy = *from_job;
  }
  Status status = send(policy, job, pod, options);
  if (status.isOk() || k8s::isNotFound(status)) {
    return EvictOutcome::kSent;
  }
  return status.withPrefix("failed to evict pod '" + podKey(pod.metadata) + "'");
}

Status Evictor::send(EvictionPolicy policy, const sched::PodMigrationJob& job, const core::Pod& pod,
                     const core::DeleteOptions& options) {
  const std::string& ns = pod.metadata.namespace_;
  const std::string& name = pod.metadata.name;
  switch (policy) {
    case EvictionPolicy::kEviction:
      return client_.evict(ns, name, options);
    case EvictionPolicy::kDelete:
      return client_.remove(k8s::kPods, ns, name, options);
    case EvictionPolicy::kSoftEviction: {
      api::extension::SoftEvictionSpec spec;
      spec.timestamp = k8s::formatTime(wall_clock_());
      spec.deleteOptions = options;
      spec.initiator = annotationOr(job.metadata, api::kAnnotationEvictTrigger);
      spec.reason = annotationOr(job.metadata, api::kAnnotationEvictReason);
      const api::Json patch = {{"metadata",
                                {{"annotations",
                                  {{std::string(api::kAnnotationSoftEviction),
                                    api::extension::formatSoftEvictionSpec(spec)}}}}}};
      return client_.patch(k8s::kPods, ns, name, k8s::PatchType::kMerge, patch.dump(), {}).status();
    }
  }
  return Status::internal("unknown eviction policy");
}

}  // namespace koord::manager::descheduler::migration
