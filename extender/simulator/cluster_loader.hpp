// ClusterLoader: reads the simulator's input: multi-document YAML (`---`), each document one object
// or a `kind: List` (or a typed list such as PodList) of objects:
//   v1 Node                 a node (status.allocatable is what pods may use)
//   v1 Pod                  bound when spec.nodeName is set, pending otherwise
//   Reservation             (scheduling.koordinator.sh v1alpha1 or v1) validated
//                           (validateReservation), defaulted, and placed by the simulator: held
//                           on status.nodeName when Available there, placed otherwise
//   every other Koordinator CRD  decoded and validated (api::validateKnownObject); counted, not
//   placed
// Strict: an unknown kind, an unknown field of a Pod or Node (top level, metadata, spec,
// containers, resources, node status), a value that does not decode, a missing name, or a name
// given twice are errors naming the file and line:
//   "cluster.yaml: line 12: unknown field \"nodeSelecter\" in /spec (did you mean ...)"
//   "cluster.yaml: line 30: failed to decode Pod 'default/web': spec.containers[0]...: ..."
// Pods without a namespace are put in "default".
//
// Not thread-safe; used once by the simulate command.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koord/api/core/node.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/api/scheduling/reservation.hpp"
#include "koord/common/result.hpp"
#include "koord/config/yaml.hpp"

namespace koord::extender::simulator {

struct ClusterInput {
  std::vector<std::shared_ptr<const api::core::Node>> nodes;  // in input order
  std::vector<std::shared_ptr<const api::core::Pod>> pods;    // bound and pending, input order
  std::vector<std::shared_ptr<const api::scheduling::Reservation>> reservations;  // input order
  // "Pod/<ns>/<name>", "Node/<name>", "Reservation/<name>" -> "file:line"
  std::map<std::string, std::string> sources;
  std::map<std::string, int> other_kinds;  // CRD kind -> how many objects were read
  // The objects of the kinds a plugin may read (objects::kindSources(), Reservation aside: it is in
  // `reservations`), each as its KindSource's decode() made it, by kind, in input order.
  std::map<std::string, std::vector<std::shared_ptr<const void>>> objects;
};

class ClusterLoader {
 public:
  // Reads and adds one file.
  [[nodiscard]] Status addFile(const std::string& path);
  // Adds YAML text (tests, stdin); `source_name` names it in errors.
  [[nodiscard]] Status addText(std::string_view text, std::string_view source_name);

  [[nodiscard]] const ClusterInput& input() const { return input_; }
  [[nodiscard]] ClusterInput take() { return std::move(input_); }

 private:
  Status addDocument(const config::YamlDocument& doc);
  Status addObject(const config::YamlDocument& doc, const std::string& pointer,
                   const api::Json& object);
  Status addPod(const config::YamlDocument& doc, const std::string& pointer,
                const api::Json& object);
  Status addNode(const config::YamlDocument& doc, const std::string& pointer,
                 const api::Json& object);
  Status addReservation(const config::YamlDocument& doc, const std::string& pointer,
                        const api::Json& object);
  Status remember(const config::YamlDocument& doc, const std::string& pointer, std::string key);

  ClusterInput input_;
};

}  // namespace koord::extender::simulator
