// A core/v1 Binding in the apiserver's protobuf encoding ("application/vnd.kubernetes.protobuf"),
// the body koord-extender's binds POST to pods/<name>/binding. kube-scheduler's own binder sends
// the same; kube-apiserver decodes it with no JSON parse and no field validation pass, which it
// pays for every JSON request (docs/performance.md, "The binding in protobuf").
//
// Bytes: the envelope "k8s\0", then a runtime.Unknown {typeMeta {apiVersion "v1", kind
// "Binding"} = 1, raw = 2}, raw being the Binding message {metadata {name = 1, namespace = 3,
// uid = 5} = 1, target {kind "Node" = 1, name = 3} = 2} (k8s.io/api/core/v1 generated.proto).
// Empty strings are left out, as an absent field decodes to "": an empty uid asks for no UID check.
#pragma once

#include <string>
#include <string_view>

namespace koord::k8s {

// The Content-Type of protobuf_binding's bytes.
inline constexpr std::string_view kProtobufContentType = "application/vnd.kubernetes.protobuf";

// The enveloped Binding of pod `ns`/`pod` (UID `uid`, "" for none) to node `node`.
[[nodiscard]] std::string encodeBindingProtobuf(std::string_view ns, std::string_view pod,
                                                std::string_view uid, std::string_view node);

}  // namespace koord::k8s
