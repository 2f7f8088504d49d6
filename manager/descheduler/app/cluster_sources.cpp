#include "manager/descheduler/app/cluster_sources.hpp"

#include <utility>

#include "koord/k8s/errors.hpp"
#include "koord/k8s/resource.hpp"
#include "manager/descheduler/migration/job_status.hpp"

namespace koord::manager::descheduler::app {

namespace clustersources_detail {

k8s::GroupVersionResource priorityClasses() {
  return {"scheduling.k8s.io", "v1", "priorityclasses", false};
}
k8s::GroupVersionResource replicaSets() {
  return {"apps", "v1", "replicasets", true};
}
k8s::GroupVersionResource statefulSets() {
  return {"apps", "v1", "statefulsets", true};
}

Status readMetadata(const api::Json& object, api::core::ObjectMeta& out, const std::string& kind,
                    const std::string& path) {
  auto meta = object.find("metadata");
  if (!object.is_object() || meta == object.end()) {
    return Status::invalidArgument("failed to decode " + kind + ": " + path + "metadata: required");
  }
  return api::core::fromJson(*meta, out, path + "metadata");
}

class InformerArbitration final : public migration::ArbitrationSnapshot {
 public:
  explicit InformerArbitration(const ClusterInformers& informers) : informers_(informers) {}

  [[nodiscard]] std::vector<std::shared_ptr<const api::scheduling::PodMigrationJob>> jobs()
      const override {
    return informers_.jobs->store().list();
  }
  [[nodiscard]] std::shared_ptr<const api::core::Pod> pod(const std::string& ns,
                                                          const std::string& name) const override {
    return informers_.pods->store().get(ns + "/" + name);
  }
  [[nodiscard]] std::optional<migration::Workload> workload(
      const std::string& ns, const api::core::OwnerReference& controller) const override {
    std::shared_ptr<k8s::Informer<WorkloadObject>> informer;
    if (controller.kind == "ReplicaSet") {
      informer = informers_.replica_sets;
    } else if (controller.kind == "StatefulSet") {
      informer = informers_.stateful_sets;
    }
    if (informer == nullptr) {
      return std::nullopt;
    }
    auto object = informer->store().get(ns + "/" + controller.name);
    if (object == nullptr || (!controller.uid.empty() && object->metadata.uid != controller.uid)) {
      return std::nullopt;
    }
    migration::Workload out;
    out.expected_replicas = object->replicas;
    for (const auto& pod : informers_.pods->store().list()) {
      if (pod->metadata.namespace_ != ns) {
        continue;
      }
      const api::core::OwnerReference* owner = api::core::controllerOf(pod->metadata);
      if (owner != nullptr && owner->uid == object->metadata.uid) {
        out.pods.push_back(pod);
      }
    }
    return out;
  }

 private:
  const ClusterInformers& informers_;
};

}  // namespace clustersources_detail

namespace csd = clustersources_detail;

Status fromJson(const api::Json& object, PriorityClassObject& out, const std::string& path) {
  KOORD_RETURN_IF_ERROR(csd::readMetadata(object, out.metadata, "PriorityClass", path));
  auto value = object.find("value");
  if (value == object.end() || !value->is_number_integer()) {
    return Status::invalidArgument("failed to decode PriorityClass '" + out.metadata.name +
                                   "': value: want an integer");
  }
  out.value = value->get<int32_t>();
  return Status::ok();
}

Status fromJson(const api::Json& object, WorkloadObject& out, const std::string& path) {
  KOORD_RETURN_IF_ERROR(csd::readMetadata(object, out.metadata, "workload", path));
  out.replicas = 1;
  if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
    if (auto replicas = spec->find("replicas");
        replicas != spec->end() && replicas->is_number_integer()) {
      out.replicas = replicas->get<int64_t>();
    }
  }
  return Status::ok();
}

Result<ClusterInformers> ClusterInformers::create(k8s::SharedInformerFactory& factory,
                                                  bool with_jobs) {
  ClusterInformers out;
  KOORD_ASSIGN_OR_RETURN(out.nodes, factory.informerFor<api::core::Node>(k8s::kNodes));
  KOORD_ASSIGN_OR_RETURN(out.pods, factory.informerFor<api::core::Pod>(k8s::kPods));
  KOORD_ASSIGN_OR_RETURN(out.node_metrics,
                         factory.informerFor<api::slo::NodeMetric>(k8s::kNodeMetrics));
  KOORD_ASSIGN_OR_RETURN(out.priority_classes,
                         factory.informerFor<PriorityClassObject>(csd::priorityClasses()));
  KOORD_ASSIGN_OR_RETURN(
      out.jobs, factory.informerFor<api::scheduling::PodMigrationJob>(k8s::kPodMigrationJobs));
  if (with_jobs) {
    KOORD_ASSIGN_OR_RETURN(out.reservations,
                           factory.informerFor<api::scheduling::Reservation>(k8s::kReservations));
    KOORD_ASSIGN_OR_RETURN(out.replica_sets,
                           factory.informerFor<WorkloadObject>(csd::replicaSets()));
    KOORD_ASSIGN_OR_RETURN(out.stateful_sets,
                           factory.informerFor<WorkloadObject>(csd::statefulSets()));
  }
  return out;
}

framework::ClusterSnapshot::Input ClusterInformers::snapshotInput() const {
  framework::ClusterSnapshot::Input input;
  input.nodes = nodes->store().list();
  input.pods = pods->store().list();
  input.node_metrics = node_metrics->store().list();
  for (const auto& priority_class : priority_classes->store().list()) {
    input.priority_classes[priority_class->metadata.name] = priority_class->value;
  }
  return input;
}

bool ClusterInformers::hasActiveJob(const api::core::Pod& pod) const {
  for (const auto& job : jobs->store().list()) {
    if (!migration::isTerminal(*job) && migration::refersTo(*job, pod)) {
      return true;
    }
  }
  return false;
}

migration::JobSources ClusterInformers::jobSources(k8s::Client& client) const {
  migration::JobSources sources;
  sources.job = [informer = jobs](const std::string& name) { return informer->store().get(name); };
  sources.pod = [informer = pods](const std::string& ns, const std::string& name) {
    return informer->store().get(ns + "/" + name);
  };
  sources.reservation =
      [informer = reservations,
       &client](const std::string& name) -> std::shared_ptr<const api::scheduling::Reservation> {
    if (auto cached = informer->store().get(name); cached != nullptr) {
      return cached;
    }
    auto fetched = k8s::getAs<api::scheduling::Reservation>(client, k8s::kReservations, "", name);
    if (!fetched.ok()) {
      return nullptr;
    }
    return std::make_shared<const api::scheduling::Reservation>(std::move(*fetched));
  };
  sources.pods_in_namespace = [informer = pods](const std::string& ns) {
    std::vector<std::shared_ptr<const api::core::Pod>> out;
    for (const auto& pod : informer->store().list()) {
      if (pod->metadata.namespace_ == ns) {
        out.push_back(pod);
      }
    }
    return out;
  };
  return sources;
}

std::unique_ptr<migration::ArbitrationSnapshot> ClusterInformers::arbitration() const {
  return std::make_unique<csd::InformerArbitration>(*this);
}

}  // namespace koord::manager::descheduler::app
