// Shared pieces of the migration tests: object builders, and FakeCluster, an in-memory cluster
// of PodMigrationJobs, Pods and Reservations behind a gmock k8s::MockClient (its default actions
// act on the cluster; a test overrides one call with EXPECT_CALL to inject a failure) plus the
// JobSources that read it, a wall clock and a FakeClock under the test's control.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "koord/api/core/pod.hpp"
#include "koord/api/core/time.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/clock.hpp"
#include "koord/k8s/errors.hpp"
#include "koord/k8s/event_recorder.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/events.hpp"
#include "manager/descheduler/migration/job_reconciler.hpp"
#include "test/mocks/k8s/mock_client.hpp"

namespace koord::manager::descheduler::migration::testing {

namespace core = api::core;
namespace sched = api::scheduling;

inline std::chrono::system_clock::time_point t0() {
  return *core::parseTime("2026-01-01T00:00:00Z");
}

inline std::string timeText(std::chrono::system_clock::time_point t) {
  return k8s::formatTime(t);
}

struct PodSpecOptions {
  std::string node = "node-a";
  bool ready = true;
  std::string scheduler = "koord-scheduler";
  std::string controller_uid;  // "" = no controller
  std::string controller_kind = "ReplicaSet";
};

inline core::Pod makePod(const std::string& ns, const std::string& name,
                         const PodSpecOptions& o = PodSpecOptions()) {
  core::Pod pod;
  pod.apiVersion = "v1";
  pod.kind = "Pod";
  pod.metadata.namespace_ = ns;
  pod.metadata.name = name;
  pod.metadata.uid = "uid-" + name;
  pod.metadata.resourceVersion = "1";
  pod.metadata.labels = {{"app", "web"}};
  if (!o.controller_uid.empty()) {
    core::OwnerReference owner;
    owner.apiVersion = "apps/v1";
    owner.kind = o.controller_kind;
    owner.name = "rs-" + o.controller_uid;
    owner.uid = o.controller_uid;
    owner.controller = true;
    pod.metadata.ownerReferences.push_back(owner);
  }
  pod.spec.nodeName = o.node;
  pod.spec.schedulerName = o.scheduler;
  core::Container c;
  c.name = "main";
  c.image = "nginx";
  pod.spec.containers.push_back(c);
  pod.status.phase = "Running";
  core::PodCondition ready;
  ready.type = "Ready";
  ready.status = o.ready ? "True" : "False";
  pod.status.conditions.push_back(ready);
  return pod;
}

struct JobOptions {
  std::string mode;  // "" = the args' default
  std::optional<std::string> ttl;
  std::string phase;
  bool passed = false;
  bool paused = false;
  std::chrono::system_clock::time_point created = t0();
  std::string pod_uid;  // the podRef's uid
};

inline sched::PodMigrationJob makeJob(const std::string& name, const std::string& pod_ns,
                                      const std::string& pod_name,
                                      const JobOptions& o = JobOptions()) {
  sched::PodMigrationJob job;
  job.apiVersion = std::string(sched::kGroupVersion);
  job.kind = std::string(sched::kPodMigrationJobKind);
  job.metadata.name = name;
  job.metadata.uid = "job-uid-" + name;
  job.metadata.resourceVersion = "1";
  job.metadata.creationTimestamp = timeText(o.created);
  if (o.passed) {
    job.metadata.annotations["descheduler.koordinator.sh/passed-arbitration"] = "true";
  }
  core::ObjectReference ref;
  ref.namespace_ = pod_ns;
  ref.name = pod_name;
  ref.uid = o.pod_uid;
  job.spec.podRef = ref;
  job.spec.mode = o.mode;
  job.spec.ttl = o.ttl;
  job.spec.paused = o.paused;
  job.status.phase = o.phase;
  return job;
}

struct RecordedEvent {
  std::string object;
  k8s::EventType type;
  std::string reason;
  std::string message;
};

inline Status notFound(const std::string& what) {
  return k8s::apiErrorStatus(404, "", "GET", "/" + what);
}

inline Status pdbRefusal(const std::string& pod) {
  return k8s::apiErrorStatus(
      429,
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests",)"
      R"("message":"Cannot evict pod as it would violate the pod's disruption budget.","code":429})",
      "POST", "/api/v1/namespaces/default/pods/" + pod + "/eviction");
}

class FakeCluster {
 public:
  FakeCluster() : wall_(t0() + std::chrono::seconds(10)) { installDefaults(); }

  ::testing::NiceMock<k8s::testing::MockClient> client;
  FakeClock clock;
  std::vector<RecordedEvent> events;

  void add(const core::Pod& pod) { pods_[key(pod.metadata)] = pod; }
  void add(const sched::PodMigrationJob& job) { jobs_[job.metadata.name] = job; }
  void add(const sched::Reservation& r) { reservations_[r.metadata.name] = r; }
  void removePod(const std::string& ns, const std::string& name) { pods_.erase(ns + "/" + name); }

  std::optional<core::Pod> pod(const std::string& ns, const std::string& name) const {
    auto it = pods_.find(ns + "/" + name);
    return it == pods_.end() ? std::nullopt : std::optional(it->second);
  }
  std::optional<sched::PodMigrationJob> job(const std::string& name) const {
    auto it = jobs_.find(name);
    return it == jobs_.end() ? std::nullopt : std::optional(it->second);
  }
  std::optional<sched::Reservation> reservation(const std::string& name) const {
    auto it = reservations_.find(name);
    return it == reservations_.end() ? std::nullopt : std::optional(it->second);
  }
  // Edits a stored reservation (as the scheduler or its controller would).
  template <typename F>
  void editReservation(const std::string& name, F edit) {
    edit(reservations_.at(name));
  }
  template <typename F>
  void editPod(const std::string& ns, const std::string& name, F edit) {
    edit(pods_.at(ns + "/" + name));
  }

  void advance(std::chrono::seconds d) {
    wall_ += d;
    clock.advance(d);
  }
  k8s::WallClock wallClock() {
    return [this] { return wall_; };
  }
  std::chrono::system_clock::time_point now() const { return wall_; }

  EventSink sink() {
    return [this](const core::ObjectReference& involved, k8s::EventType type, std::string reason,
                  std::string message) {
      events.push_back({involved.name, type, std::move(reason), std::move(message)});
    };
  }
  std::vector<std::string> eventReasons() const {
    std::vector<std::string> out;
    for (const RecordedEvent& e : events) {
      out.push_back(e.reason);
    }
    return out;
  }

  JobSources sources() {
    JobSources s;
    s.job = [this](const std::string& name) -> std::shared_ptr<const sched::PodMigrationJob> {
      auto j = job(name);
      return j ? std::make_shared<const sched::PodMigrationJob>(*j) : nullptr;
    };
    s.pod = [this](const std::string& ns,
                   const std::string& name) -> std::shared_ptr<const core::Pod> {
      auto p = pod(ns, name);
      return p ? std::make_shared<const core::Pod>(*p) : nullptr;
    };
    s.reservation = [this](const std::string& name) -> std::shared_ptr<const sched::Reservation> {
      if (!reservation_cache_) {
        return nullptr;
      }
      auto r = reservation(name);
      return r ? std::make_shared<const sched::Reservation>(*r) : nullptr;
    };
    s.pods_in_namespace = [this](const std::string& ns) {
      std::vector<std::shared_ptr<const core::Pod>> out;
      for (const auto& [k, p] : pods_) {
        if (p.metadata.namespace_ == ns) {
          out.push_back(std::make_shared<const core::Pod>(p));
        }
      }
      return out;
    };
    return s;
  }
  // Makes the reservation lister miss, so the reconciler must GET.
  void setReservationCacheEnabled(bool enabled) { reservation_cache_ = enabled; }

 private:
  static std::string key(const core::ObjectMeta& m) { return m.namespace_ + "/" + m.name; }
  std::string bump() { return std::to_string(++rv_); }

  void installDefaults() {
    using ::testing::_;
    using ::testing::Invoke;
    ON_CALL(client, get(_, _, _))
        .WillByDefault(Invoke([this](const k8s::GroupVersionResource& gvr, const std::string&,
                                     const std::string& name) -> Result<api::Json> {
          if (gvr == k8s::kReservations && reservations_.count(name) != 0) {
            return sched::toJson(reservations_.at(name));
          }
          if (gvr == k8s::kPodMigrationJobs && jobs_.count(name) != 0) {
            return sched::toJson(jobs_.at(name));
          }
          return notFound(gvr.resource + "/" + name);
        }));
    ON_CALL(client, create(_, _, _))
        .WillByDefault(Invoke([this](const k8s::GroupVersionResource& gvr, const std::string&,
                                     const api::Json& object) -> Result<api::Json> {
          if (gvr != k8s::kReservations) {
            return Status::unimplemented("create " + gvr.resource);
          }
          auto r = k8s::decodeObject<sched::Reservation>(object);
          if (!r.ok()) {
            return r.status();
          }
          if (reservations_.count(r->metadata.name) != 0) {
            return k8s::apiErrorStatus(409, R"({"kind":"Status","reason":"AlreadyExists"})", "POST",
                                       "/reservations");
          }
          r->metadata.uid = "uid-" + r->metadata.name;
          r->metadata.creationTimestamp = timeText(wall_);
          r->metadata.resourceVersion = bump();
          reservations_[r->metadata.name] = *r;
          return sched::toJson(*r);
        }));
    ON_CALL(client, update(_, _, _))
        .WillByDefault(Invoke([this](const k8s::GroupVersionResource& gvr, const std::string&,
                                     const api::Json& object) -> Result<api::Json> {
          if (gvr != k8s::kPodMigrationJobs) {
            return Status::unimplemented("update " + gvr.resource);
          }
          auto j = k8s::decodeObject<sched::PodMigrationJob>(object);
          if (!j.ok()) {
            return j.status();
          }
          auto it = jobs_.find(j->metadata.name);
          if (it == jobs_.end()) {
            return notFound("podmigrationjobs/" + j->metadata.name);
          }
          if (j->metadata.resourceVersion != it->second.metadata.resourceVersion) {
            return k8s::apiErrorStatus(409, R"({"kind":"Status","reason":"Conflict"})", "PUT",
                                       "/podmigrationjobs");
          }
          j->status = it->second.status;  // the status subresource keeps its own
          j->metadata.resourceVersion = bump();
          it->second = *j;
          return sched::toJson(*j);
        }));
    ON_CALL(client, updateStatus(_, _, _))
        .WillByDefault(Invoke([this](const k8s::GroupVersionResource& gvr, const std::string&,
                                     const api::Json& object) -> Result<api::Json> {
          if (gvr != k8s::kPodMigrationJobs) {
            return Status::unimplemented("updateStatus " + gvr.resource);
          }
          auto j = k8s::decodeObject<sched::PodMigrationJob>(object);
          if (!j.ok()) {
            return j.status();
          }
          auto it = jobs_.find(j->metadata.name);
          if (it == jobs_.end()) {
            return notFound("podmigrationjobs/" + j->metadata.name);
          }
          if (j->metadata.resourceVersion != it->second.metadata.resourceVersion) {
            return k8s::apiErrorStatus(409, R"({"kind":"Status","reason":"Conflict"})", "PUT",
                                       "/podmigrationjobs/status");
          }
          it->second.status = j->status;
          it->second.metadata.resourceVersion = bump();
          return sched::toJson(it->second);
        }));
    ON_CALL(client, patch(_, _, _, _, _, _))
        .WillByDefault(
            Invoke([this](const k8s::GroupVersionResource& gvr, const std::string& ns,
                          const std::string& name, k8s::PatchType, const std::string& body,
                          const k8s::PatchOptions&) -> Result<api::Json> {
              const api::Json patch = api::Json::parse(body);
              if (gvr == k8s::kPods) {
                auto it = pods_.find(ns + "/" + name);
                if (it == pods_.end()) {
                  return notFound("pods/" + name);
                }
                api::Json j = core::toJson(it->second);
                j.merge_patch(patch);
                auto p = k8s::decodeObject<core::Pod>(j);
                it->second = *p;
                return j;
              }
              if (gvr == k8s::kPodMigrationJobs) {
                auto it = jobs_.find(name);
                if (it == jobs_.end()) {
                  return notFound("podmigrationjobs/" + name);
                }
                api::Json j = sched::toJson(it->second);
                j.merge_patch(patch);
                auto p = k8s::decodeObject<sched::PodMigrationJob>(j);
                p->metadata.resourceVersion = bump();
                it->second = *p;
                return sched::toJson(*p);
              }
              return Status::unimplemented("patch " + gvr.resource);
            }));
    ON_CALL(client, remove(_, _, _, _))
        .WillByDefault(Invoke([this](const k8s::GroupVersionResource& gvr, const std::string& ns,
                                     const std::string& name, const core::DeleteOptions&) {
          size_t erased = 0;
          if (gvr == k8s::kReservations) {
            erased = reservations_.erase(name);
          } else if (gvr == k8s::kPodMigrationJobs) {
            erased = jobs_.erase(name);
          } else if (gvr == k8s::kPods) {
            erased = pods_.erase(ns + "/" + name);
          }
          return erased == 0 ? notFound(gvr.resource + "/" + name) : Status::ok();
        }));
    // An accepted eviction: the pod is gone (its grace period elided).
    ON_CALL(client, evict(_, _, _))
        .WillByDefault(Invoke(
            [this](const std::string& ns, const std::string& name, const core::DeleteOptions&) {
              return pods_.erase(ns + "/" + name) == 0 ? notFound("pods/" + name) : Status::ok();
            }));
  }

  std::map<std::string, core::Pod> pods_;
  std::map<std::string, sched::PodMigrationJob> jobs_;
  std::map<std::string, sched::Reservation> reservations_;
  std::chrono::system_clock::time_point wall_;
  uint64_t rv_ = 100;
  bool reservation_cache_ = true;
};

// A JobReconciler over a FakeCluster, made on first use with `args`.
class JobReconcilerFixture : public ::testing::Test {
 protected:
  JobReconciler& reconciler() {
    if (reconciler_ == nullptr) {
      JobReconcilerOptions options;
      options.args = args_;
      options.sources = cluster_.sources();
      options.events = cluster_.sink();
      options.wall_clock = cluster_.wallClock();
      auto created = JobReconciler::create(cluster_.client, cluster_.clock, std::move(options));
      EXPECT_TRUE(created.ok()) << created.status().toString();
      reconciler_ = std::move(*created);
    }
    return *reconciler_;
  }
  Result<controller::ReconcileResult> reconcile(const std::string& name) {
    return reconciler().reconcile(name);
  }
  // reconcile() that must succeed.
  controller::ReconcileResult reconcileOk(const std::string& name) {
    auto result = reconcile(name);
    EXPECT_TRUE(result.ok()) << result.status().toString();
    return result.ok() ? *result : controller::ReconcileResult::done();
  }
  sched::PodMigrationJob job(const std::string& name) const {
    auto j = cluster_.job(name);
    EXPECT_TRUE(j) << name;
    return j ? *j : sched::PodMigrationJob();
  }
  const sched::PodMigrationJobCondition* condition(const sched::PodMigrationJob& j,
                                                   const std::string& type) const {
    for (const auto& c : j.status.conditions) {
      if (c.type == type) {
        return &c;
      }
    }
    return nullptr;
  }

  config::MigrationControllerArgs args_;
  FakeCluster cluster_;

 private:
  std::unique_ptr<JobReconciler> reconciler_;
};

inline bool requeuedAfter(const controller::ReconcileResult& r, std::chrono::seconds d) {
  return !r.requeue && r.requeue_after == d;
}
inline bool isDone(const controller::ReconcileResult& r) {
  return !r.requeue && r.requeue_after == Clock::Duration::zero();
}

}  // namespace koord::manager::descheduler::migration::testing
