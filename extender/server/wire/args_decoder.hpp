// Decoding of kube-scheduler's filter and prioritize requests (ExtenderArgs) straight from the
// request body, without first building a JSON tree of all of it.
//
// kube-scheduler sends the whole Pod and, with nodeCacheCapable, every candidate node's name: for a
// few hundred candidates the names are most of the bytes, and the pod carries managedFields that no
// plugin reads. A hand scan of the top-level object reads NodeNames (plain ASCII names, as node
// names are) straight into the result's vector and gives only the Pod to the JSON parser, which
// drops Pod.metadata.managedFields instead of building it; only the rest becomes a tree for the
// typed decoders. Whatever the scan does not expect (escapes, non-ASCII, duplicate keys, any syntax
// error) goes through a SAX parse of the whole body that does the same more slowly and words the
// errors. The result equals what `api::extender::fromJson` gives for the same body (managedFields
// aside), with the same error texts.
#pragma once

#include <string_view>

#include "koord/api/extender/types.hpp"
#include "koord/common/result.hpp"

namespace koord::extender::server::wire {

// Decodes an ExtenderArgs body. kInvalidArgument when it is empty, is not JSON (the message names
// the byte offset), is not an object, or a field has the wrong type (the message names the field's
// path, e.g. "NodeNames[2]: expected string, got number"). Keys match the Go field names exactly
// or case-insensitively, as encoding/json does; unknown keys are ignored. Never throws.
[[nodiscard]] Result<api::extender::ExtenderArgs> decodeExtenderArgs(std::string_view body);

}  // namespace koord::extender::server::wire
