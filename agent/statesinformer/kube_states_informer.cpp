#include "agent/statesinformer/kube_states_informer.hpp"

#include <algorithm>

#include "koord/k8s/protobuf_pod.hpp"
#include "koord/k8s/resource.hpp"
#include "koord/k8s/transforms.hpp"

namespace koord::agent::statesinformer {

namespace {

template <class T>
std::shared_ptr<const T> only(const k8s::Informer<T>& informer) {
  auto all = informer.store().list();
  return all.empty() ? nullptr : all.front();
}

}  // namespace

Result<std::unique_ptr<KubeStatesInformer>> KubeStatesInformer::create(
    k8s::SharedInformerFactory& factory, const std::string& node_name) {
  std::unique_ptr<KubeStatesInformer> out(new KubeStatesInformer());
  out->node_name_ = node_name;
  const k8s::InformerScope by_name{"", "", "metadata.name=" + node_name};
  const k8s::InformerScope by_node{"", "", "spec.nodeName=" + node_name};
  KOORD_ASSIGN_OR_RETURN(out->nodes_, factory.informerFor<api::core::Node>(k8s::kNodes, by_name));
  // Pods in protobuf: kube-apiserver reuses the encoding it makes for the kubelet, and this node's
  // pods decode into the same fields decodePodForNode keeps from JSON (docs/client-library.md).
  KOORD_ASSIGN_OR_RETURN(
      out->pods_, factory.informerFor<api::core::Pod>(k8s::kPods, by_node, &k8s::decodePodForNode,
                                                      k8s::WatchFormat::kProtobuf));
  out->pods_->setProtobufDecoder(&k8s::decodeProtobufPodForNode);  // no JSON tree per event
  KOORD_ASSIGN_OR_RETURN(out->slos_,
                         factory.informerFor<api::slo::NodeSLO>(k8s::kNodeSLOs, by_name));
  KOORD_ASSIGN_OR_RETURN(out->metrics_,
                         factory.informerFor<api::slo::NodeMetric>(k8s::kNodeMetrics, by_name));
  out->watch(*out->nodes_, StateKind::kNode);
  out->watch(*out->pods_, StateKind::kPods);
  out->watch(*out->slos_, StateKind::kNodeSLO);
  out->watch(*out->metrics_, StateKind::kNodeMetric);
  return out;
}

template <class T>
void KubeStatesInformer::watch(k8s::Informer<T>& informer, StateKind kind) {
  k8s::ResourceEventHandlers<T> handlers;
  handlers.onAdd = [this, kind](const std::shared_ptr<const T>&) { notify(kind); };
  handlers.onUpdate = [this, kind](const std::shared_ptr<const T>&,
                                   const std::shared_ptr<const T>&) { notify(kind); };
  handlers.onDelete = [this, kind](const std::shared_ptr<const T>&) { notify(kind); };
  informer.addHandlers(std::move(handlers));
}

void KubeStatesInformer::notify(StateKind kind) const {
  std::vector<Callback> callbacks;
  {
    std::lock_guard lock(mu_);
    callbacks = callbacks_;
  }
  for (const Callback& callback : callbacks) {
    callback(kind);
  }
}

void KubeStatesInformer::onChange(Callback callback) {
  std::lock_guard lock(mu_);
  callbacks_.push_back(std::move(callback));
}

std::shared_ptr<const api::core::Node> KubeStatesInformer::node() const {
  return only(*nodes_);
}

std::vector<std::shared_ptr<const api::core::Pod>> KubeStatesInformer::pods() const {
  auto all = pods_->store().list();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::tie(a->metadata.namespace_, a->metadata.name) <
           std::tie(b->metadata.namespace_, b->metadata.name);
  });
  return all;
}

std::shared_ptr<const api::slo::NodeSLO> KubeStatesInformer::nodeSLO() const {
  return only(*slos_);
}

std::shared_ptr<const api::slo::NodeMetric> KubeStatesInformer::nodeMetric() const {
  return only(*metrics_);
}

bool KubeStatesInformer::hasSynced() const {
  return nodes_->hasSynced() && pods_->hasSynced() && slos_->hasSynced() && metrics_->hasSynced();
}

}  // namespace koord::agent::statesinformer
