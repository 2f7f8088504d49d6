// The input of `koord-manager calculate`: multi-document YAML (`---`), each document one object or
// a `kind: List` (or a typed list such as NodeList) of objects:
//   v1 Node                          the nodes to calculate
//   v1 Pod                           counted on the node of spec.nodeName (pods without one are
//                                    pending and count nowhere); no namespace means "default"
//   slo.koordinator.sh NodeMetric    the node's metric, matched by name
//   topology.node.k8s.io NodeResourceTopology   the node's NUMA zones (and CPU model), by name
//   v1 ConfigMap koordinator-system/slo-controller-config   the configuration (Koordinator's
//                                    defaults without one); other ConfigMaps are counted
//   every other kind api::validateKnownObject knows: decoded, validated and counted
// Errors name the file and line: a kind nothing knows, an object that does not decode, an
// unknown top-level or metadata field of a Node, Pod or NodeMetric, an object without a name, a
// name given twice, and a slo-controller-config that does not parse (its key and line). Not
// thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/objects.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/slo/node_metric.hpp"
#include "koord/api/topology/node_resource_topology.hpp"
#include "koord/common/result.hpp"
#include "koord/config/yaml.hpp"

namespace koord::manager::app {

struct ClusterInput {
  std::vector<api::core::Node> nodes;                                     // input order
  std::map<std::string, std::vector<api::core::Pod>> pods_by_node;        // spec.nodeName -> pods
  std::map<std::string, api::slo::NodeMetric> metrics;                    // by name
  std::map<std::string, api::topology::NodeResourceTopology> topologies;  // by name
  std::optional<api::core::ConfigMap> slo_config;  // koordinator-system/slo-controller-config
  int pending_pods = 0;
  std::map<std::string, int> other_kinds;  // kind -> objects read and not used
};

class ClusterInputLoader {
 public:
  [[nodiscard]] Status addFile(const std::string& path);
  [[nodiscard]] Status addText(std::string_view text, std::string_view source_name);
  [[nodiscard]] const ClusterInput& input() const { return input_; }

 private:
  Status addDocument(const config::YamlDocument& doc);
  Status addObject(const config::YamlDocument& doc, const std::string& pointer,
                   const api::Json& object);
  // Records "<Kind>/<name>" at the object's line; kInvalidArgument when given twice.
  Status remember(const config::YamlDocument& doc, const std::string& pointer,
                  const std::string& key);

  ClusterInput input_;
  std::map<std::string, std::string> sources_;  // "<Kind>/<name>" -> "file:line"
};

}  // namespace koord::manager::app
