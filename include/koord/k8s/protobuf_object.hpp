// Kubernetes objects in the apiserver's protobuf encoding ("application/vnd.kubernetes.protobuf"),
// turned into the JSON the rest of koord decodes. Only a watch of Pods uses it: kube-scheduler
// watches Pods in protobuf, so kube-apiserver already holds each event in that encoding and a
// second protobuf watcher costs it no encoding of its own, where a JSON watcher makes it encode
// every Pod again (docs/extender-throughput-log.md).
//
// The envelope is the 4 bytes "k8s\0" and a runtime.Unknown {typeMeta {apiVersion, kind}, raw,
// contentEncoding, contentType}; raw is the object's message (k8s.io/api generated.proto).
//
// Kinds with a schema here: Pod and meta/v1 Status (a watch's ERROR event). A Pod carries the
// fields decodePodForNode keeps (transforms.hpp), which include everything decodePodForCache
// keeps, so either decoder gives the same Pod from this JSON as from the apiserver's own JSON.
// JSON is written the way the apiserver writes it, except that empty strings, empty lists and
// empty maps are left out (protobuf cannot tell them from absent ones, and koord reads both the
// same way); integers and booleans are written as the message carries them, times as RFC 3339
// seconds in UTC.
#pragma once

#include <string>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::k8s {

// The JSON object of one enveloped object. kInvalidArgument for a missing "k8s\0" prefix,
// malformed protobuf (a truncated varint or field, a group, a length past the end), a content
// encoding other than none, or a kind without a schema here. Never reads past `envelope`.
[[nodiscard]] Result<api::Json> decodeProtobufObject(std::string_view envelope);

// The metadata.resourceVersion of an enveloped object, read without decoding the rest ("" when it
// has none). kInvalidArgument for a missing "k8s\0" prefix or malformed protobuf on the way to it
// (the envelope, the object's top-level fields, its metadata).
[[nodiscard]] Result<std::string> protobufObjectResourceVersion(std::string_view envelope);

}  // namespace koord::k8s
