// Keys and built-in index functions for Store (store.hpp), after client-go's
// MetaNamespaceKeyFunc, MetaNamespaceIndexFunc and the scheduler's pod-by-node index.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "koord/api/core/meta.hpp"
#include "koord/api/core/pod.hpp"
#include "koord/common/result.hpp"

namespace koord::k8s {

// "namespace/name", or "name" when the namespace is empty (cluster-scoped objects).
// kInvalidArgument when the name is empty.
[[nodiscard]] Result<std::string> metaNamespaceKey(const api::core::ObjectMeta& meta);

// Splits a key made by metaNamespaceKey into {namespace, name} ("" namespace for "name").
// kInvalidArgument for more than one '/' or an empty part.
[[nodiscard]] Result<std::pair<std::string, std::string>> splitMetaNamespaceKey(
    std::string_view key);

// Index name and function: objects by metadata.namespace (cluster-scoped objects index under "").
inline constexpr char kNamespaceIndex[] = "namespace";
template <class T>
std::vector<std::string> namespaceIndexFunc(const T& obj) {
  return {obj.metadata.namespace_};
}

// Index name and function: pods by spec.nodeName; unscheduled pods are not indexed.
inline constexpr char kNodeNameIndex[] = "spec.nodeName";
std::vector<std::string> podNodeNameIndexFunc(const api::core::Pod& pod);

}  // namespace koord::k8s
