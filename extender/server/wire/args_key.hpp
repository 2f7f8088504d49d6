// Reading which pod an ExtenderArgs body is about, without decoding the pod.
//
// kube-scheduler sends the same Pod to filter and then to prioritize, and the extender's own Pod
// informer has usually decoded that very version of it already. When a body's pod is one the
// extender holds (same namespace, name, metadata.uid and metadata.resourceVersion: a
// resourceVersion names one state of one object), the extender uses what it decoded and skips the
// pod's decode; scanExtenderArgsKey reads just those fields and the candidate names, and checks
// that the rest of the body is well-formed JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace koord::extender::server::wire {

// The pod an ExtenderArgs names and its candidates.
struct ExtenderArgsKey {
  std::string pod_uid;                  // Pod.metadata.uid, non-empty
  std::string pod_resource_version;     // Pod.metadata.resourceVersion ("" when absent)
  std::vector<std::string> node_names;  // NodeNames, in order
  std::string pod_namespace;            // Pod.metadata.namespace ("" when absent)
  std::string pod_name;                 // Pod.metadata.name ("" when absent)
};

// The key of an ExtenderArgs body in the plain shape kube-scheduler sends with nodeCacheCapable:
// a JSON object whose "Pod" has "metadata" with a string "uid" (and, if present, a string
// "resourceVersion", "namespace" and "name"), whose "NodeNames" is an array of strings, and whose
// "Nodes" is null or absent. nullopt for anything else, so that the caller
// decodes the body in full (decodeExtenderArgs) and words any error: a body that is not JSON, a
// key of one of those names in other letter case or given twice, an escape or a byte outside
// printable ASCII in any of the strings read, a uid that is not a string or is empty, nesting
// deeper than 256. The other members are checked to be JSON and otherwise ignored; their types are
// not checked. Whenever it returns a key and decodeExtenderArgs succeeds on the same body, the two
// agree on the uid, resourceVersion, namespace, name and NodeNames. Never throws.
[[nodiscard]] std::optional<ExtenderArgsKey> scanExtenderArgsKey(std::string_view body);

}  // namespace koord::extender::server::wire
