// The informer caches koord-descheduler reads, and the views built on them: the pass's
// ClusterSnapshot input, the arbitration snapshot, the JobReconciler's sources and the
// active-job check.
//
// ClusterInformers::create(factory, with_jobs) registers (not starts) the informers: Nodes, Pods,
// NodeMetrics, PriorityClasses, PodMigrationJobs; with_jobs adds Reservations, ReplicaSets and
// StatefulSets (what the PodMigrationJob controller and the arbitration need).
// - snapshotInput(): the caches as they are now (the ClusterSnapshot of one pass).
// - hasActiveJob(pod): a PodMigrationJob that is not Succeeded / Failed / Aborted refers to the pod
//   (by UID, else namespace/name), as Koordinator's filterExistingPodMigrationJob.
// - jobSources(client): JobReconciler's lookups; a Reservation missing from the cache is read from
//   the API server (NotFound: nullptr).
// - arbitration(): an ArbitrationSnapshot whose workload() resolves a ReplicaSet or StatefulSet
//   controller (spec.replicas, default 1) with the namespace's pods it controls; other kinds are
//   unresolved (std::nullopt).
// Thread safety: every method reads thread-safe caches; safe from any thread.
#pragma once

#include <memory>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/client.hpp"
#include "koord/k8s/shared_informer_factory.hpp"
#include "manager/descheduler/framework/snapshot.hpp"
#include "manager/descheduler/migration/arbitration.hpp"
#include "manager/descheduler/migration/job_reconciler.hpp"

namespace koord::manager::descheduler::app {

// What koord-descheduler keeps of a PriorityClass.
struct PriorityClassObject {
  api::core::ObjectMeta metadata;
  int32_t value = 0;
};
// What it keeps of a ReplicaSet or StatefulSet.
struct WorkloadObject {
  api::core::ObjectMeta metadata;
  int64_t replicas = 1;
};
Status fromJson(const api::Json& object, PriorityClassObject& out, const std::string& path);
Status fromJson(const api::Json& object, WorkloadObject& out, const std::string& path);

struct ClusterInformers {
  std::shared_ptr<k8s::Informer<api::core::Node>> nodes;
  std::shared_ptr<k8s::Informer<api::core::Pod>> pods;
  std::shared_ptr<k8s::Informer<api::slo::NodeMetric>> node_metrics;
  std::shared_ptr<k8s::Informer<PriorityClassObject>> priority_classes;
  std::shared_ptr<k8s::Informer<api::scheduling::PodMigrationJob>> jobs;
  std::shared_ptr<k8s::Informer<api::scheduling::Reservation>> reservations;  // with_jobs
  std::shared_ptr<k8s::Informer<WorkloadObject>> replica_sets;                // with_jobs
  std::shared_ptr<k8s::Informer<WorkloadObject>> stateful_sets;               // with_jobs

  [[nodiscard]] static Result<ClusterInformers> create(k8s::SharedInformerFactory& factory,
                                                       bool with_jobs);

  [[nodiscard]] framework::ClusterSnapshot::Input snapshotInput() const;
  [[nodiscard]] bool hasActiveJob(const api::core::Pod& pod) const;
  [[nodiscard]] migration::JobSources jobSources(k8s::Client& client) const;
  // Valid while this object lives.
  [[nodiscard]] std::unique_ptr<migration::ArbitrationSnapshot> arbitration() const;
};

}  // namespace koord::manager::descheduler::app
