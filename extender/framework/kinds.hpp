// The kinds a plugin may read through a Lister, beyond the Nodes and Pods the framework keeps
// itself: KindOf<T>::kName is model T's Kubernetes kind, the key ObjectStore files its lister
// under and the word a plugin's registry entry declares. Adding a kind here is for the first plugin
// that reads it; extender/objects/kind_sources.cpp then says how serve watches it and how the
// simulator reads it from YAML.
#pragma once

#include <string_view>

#include "koord/api/scheduling/device.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/api/sigs/elastic_quota.hpp"
#include "koord/api/sigs/pod_group.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"

namespace koord::extender::framework {

template <class T>
struct KindOf;

template <>
struct KindOf<api::scheduling::Reservation> {
  static constexpr std::string_view kName = api::scheduling::kReservationKind;
};
template <>
struct KindOf<api::scheduling::Device> {
  static constexpr std::string_view kName = api::scheduling::kDeviceKind;
};
template <>
struct KindOf<api::topology::NodeResourceTopology> {
  static constexpr std::string_view kName = api::topology::kNodeResourceTopologyKind;
};
template <>
struct KindOf<api::slo::NodeMetric> {
  static constexpr std::string_view kName = api::slo::kNodeMetricKind;
};
template <>
struct KindOf<api::sigs::ElasticQuota> {
  static constexpr std::string_view kName = api::sigs::kElasticQuotaKind;
};
template <>
struct KindOf<api::sigs::PodGroup> {
  static constexpr std::string_view kName = api::sigs::kPodGroupKind;
};

}  // namespace koord::extender::framework
