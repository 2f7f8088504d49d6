#include "koord/api/registry.hpp"

#include "koord/api/config/cluster_colocation_profile.hpp"
#include "koord/api/core/node.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/quota/elastic_quota_profile.hpp"
#include "koord/api/scheduling/device.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/api/sigs/elastic_quota.hpp"
#include "koord/api/sigs/pod_group.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/slo/node_slo.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::api {
namespace {

using Validator = Status (*)(const Json& object, const std::string& kind);

std::string nameOf(const Json& object) {
  const Json* metadata = nullptr;
  if (object.is_object()) {
    auto it = object.find("metadata");
    if (it != object.end() && it->is_object()) {
      metadata = &*it;
    }
  }
  if (metadata != nullptr) {
    auto it = metadata->find("name");
    if (it != metadata->end() && it->is_string()) {
      return it->get<std::string>();
    }
  }
  return "";
}

Status decodeError(const std::string& kind, const Json& object, const Status& cause) {
  return Status(cause.code(),
                "failed to decode " + kind + " '" + nameOf(object) + "': " + cause.message());
}

template <typename T>
Status decodeAs(const Json& object, const std::string& kind) {
  using koord::api::fromJson;
  T value{};
  Status status = fromJson(object, value, "");
  return status.isOk() ? status : decodeError(kind, object, status);
}

Status validateReservationObject(const Json& object, const std::string& kind) {
  scheduling::Reservation r;
  Status status = scheduling::fromJson(object, r, "");
  if (!status.isOk()) {
    return decodeError(kind, object, status);
  }
  return scheduling::validateReservation(r);
}

Status validateReservationList(const Json& object, const std::string& kind) {
  scheduling::ReservationList list;
  Status status = core::fromJson(object, list, "");
  if (!status.isOk()) {
    return decodeError(kind, object, status);
  }
  for (const auto& r : list.items) {
    KOORD_RETURN_IF_ERROR(scheduling::validateReservation(r));
  }
  return Status::ok();
}

struct Entry {
  KnownKind kind;
  Validator validate;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> kEntries = {
      {{scheduling::kGroupVersion, scheduling::kReservationKind}, &validateReservationObject},
      {{scheduling::kGroupVersionV1, scheduling::kReservationKind}, &validateReservationObject},
      {{scheduling::kGroupVersion, scheduling::kReservationListKind}, &validateReservationList},
      {{scheduling::kGroupVersionV1, scheduling::kReservationListKind}, &validateReservationList},
      {{scheduling::kGroupVersion, scheduling::kPodMigrationJobKind},
       &decodeAs<scheduling::PodMigrationJob>},
      {{scheduling::kGroupVersion, scheduling::kPodMigrationJobListKind},
       &decodeAs<scheduling::PodMigrationJobList>},
      {{scheduling::kGroupVersion, scheduling::kDeviceKind}, &decodeAs<scheduling::Device>},
      {{scheduling::kGroupVersion, scheduling::kDeviceListKind}, &decodeAs<scheduling::DeviceList>},
      {{slo::kGroupVersion, slo::kNodeMetricKind}, &decodeAs<slo::NodeMetric>},
      {{slo::kGroupVersion, slo::kNodeMetricListKind}, &decodeAs<slo::NodeMetricList>},
      {{slo::kGroupVersion, slo::kNodeSLOKind}, &decodeAs<slo::NodeSLO>},
      {{slo::kGroupVersion, slo::kNodeSLOListKind}, &decodeAs<slo::NodeSLOList>},
      {{config::kGroupVersion, config::kClusterColocationProfileKind},
       &decodeAs<config::ClusterColocationProfile>},
      {{config::kGroupVersion, config::kClusterColocationProfileListKind},
       &decodeAs<config::ClusterColocationProfileList>},
      {{quota::kGroupVersion, quota::kElasticQuotaProfileKind},
       &decodeAs<quota::ElasticQuotaProfile>},
      {{quota::kGroupVersion, quota::kElasticQuotaProfileListKind},
       &decodeAs<quota::ElasticQuotaProfileList>},
      {{sigs::kGroupVersion, sigs::kElasticQuotaKind}, &decodeAs<sigs::ElasticQuota>},
      {{sigs::kGroupVersion, sigs::kElasticQuotaListKind}, &decodeAs<sigs::ElasticQuotaList>},
      {{sigs::kGroupVersion, sigs::kPodGroupKind}, &decodeAs<sigs::PodGroup>},
      {{sigs::kGroupVersion, sigs::kPodGroupListKind}, &decodeAs<sigs::PodGroupList>},
      {{topology::kGroupVersion, topology::kNodeResourceTopologyKind},
       &decodeAs<topology::NodeResourceTopology>},
      {{topology::kGroupVersion, topology::kNodeResourceTopologyListKind},
       &decodeAs<topology::NodeResourceTopologyList>},
      {{"v1", "Pod"}, &decodeAs<core::Pod>},
      {{"v1", "Node"}, &decodeAs<core::Node>},
      {{"v1", "ConfigMap"}, &decodeAs<core::ConfigMap>},
  };
  return kEntries;
}

Result<std::string> stringField(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    return Status::invalidArgument(std::string("failed to validate object: ") + key + ": required");
  }
  if (!it->is_string()) {
    return typeError(std::string("failed to validate object: ") + key, "string", *it);
  }
  return it->get<std::string>();
}

}  // namespace

const std::vector<KnownKind>& knownKinds() {
  static const std::vector<KnownKind> kKinds = [] {
    std::vector<KnownKind> kinds;
    for (const auto& entry : entries()) {
      kinds.push_back(entry.kind);
    }
    return kinds;
  }();
  return kKinds;
}

Status validateKnownObject(const Json& object) {
  if (!object.is_object()) {
    return typeError("failed to validate object", "object", object);
  }
  KOORD_ASSIGN_OR_RETURN(std::string api_version, stringField(object, "apiVersion"));
  KOORD_ASSIGN_OR_RETURN(std::string kind, stringField(object, "kind"));
  for (const auto& entry : entries()) {
    if (entry.kind.apiVersion == api_version && entry.kind.kind == kind) {
      return entry.validate(object, kind);
    }
  }
  return Status::notFound("failed to validate object: unknown kind '" + kind + "' in '" +
                          api_version + "'");
}

}  // namespace koord::api
