// KubeStatesInformer: the StatesInformer fed by four informers of a SharedInformerFactory, each
// scoped to this node by a field selector (nodes, nodeslos and nodemetrics by metadata.name, pods
// by spec.nodeName), so the agent lists and watches only what concerns its node.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/statesinformer/states_informer.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/shared_informer_factory.hpp"

namespace koord::agent::statesinformer {

class KubeStatesInformer final : public StatesInformer {
 public:
  // Registers the four informers with `factory` (which must outlive this object; the caller
  // starts and stops the factory). Fails only when the factory already holds one of these
  // resources with another model type.
  [[nodiscard]] static Result<std::unique_ptr<KubeStatesInformer>> create(
      k8s::SharedInformerFactory& factory, const std::string& node_name);

  [[nodiscard]] std::shared_ptr<const api::core::Node> node() const override;
  [[nodiscard]] std::vector<std::shared_ptr<const api::core::Pod>> pods() const override;
  [[nodiscard]] std::shared_ptr<const api::slo::NodeSLO> nodeSLO() const override;
  [[nodiscard]] std::shared_ptr<const api::slo::NodeMetric> nodeMetric() const override;
  [[nodiscard]] bool hasSynced() const override;
  void onChange(Callback callback) override;

 private:
  KubeStatesInformer() = default;
  void notify(StateKind kind) const;
  template <class T>
  void watch(k8s::Informer<T>& informer, StateKind kind);

  std::string node_name_;
  std::shared_ptr<k8s::Informer<api::core::Node>> nodes_;
  std::shared_ptr<k8s::Informer<api::core::Pod>> pods_;
  std::shared_ptr<k8s::Informer<api::slo::NodeSLO>> slos_;
  std::shared_ptr<k8s::Informer<api::slo::NodeMetric>> metrics_;
  mutable std::mutex mu_;
  std::vector<Callback> callbacks_;
};

}  // namespace koord::agent::statesinformer
