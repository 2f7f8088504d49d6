// Fuzz target for the filter/prioritize request decoders (ExtenderArgs): any input must decode or
// give an error, never crash; what decodes must encode and decode again to the same value; and the
// streaming decoder the server uses must agree with the tree decoder (the pod's managedFields,
// which the streaming one drops, and inputs that repeat a key, aside).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "extender/server/wire/args_decoder.hpp"
#include "extender/server/wire/args_key.hpp"
#include "koord/api/codec.hpp"
#include "koord/api/extender/types.hpp"

namespace {

namespace api = koord::api;
namespace wire = koord::extender::server::wire;

// The tree decoder's result, with Pod.metadata.managedFields taken out first (wherever the keys
// match as the streaming decoder matches them); false when it fails.
bool treeDecode(const api::Json& parsed, api::extender::ExtenderArgs& out) {
  api::Json tree = parsed;
  if (tree.is_object()) {
    for (auto& [key, pod] : tree.items()) {
      if (pod.is_object() && pod.contains("metadata") && pod["metadata"].is_object()) {
        std::string lower = key;
        for (char& c : lower) {
          c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        }
        if (lower == "pod") {
          pod["metadata"].erase("managedFields");
        }
      }
    }
  }
  return api::extender::fromJson(tree, out, "").isOk();
}

// Whether two top-level keys are equal but for case: which of them wins then differs between the
// decoders (both document that an exact key wins; among case-folded ones only the tree decoder
// follows its map's key order).
bool hasCaseFoldedDuplicates(const api::Json& parsed) {
  std::set<std::string> seen;
  for (const auto& [key, value] : parsed.items()) {
    std::string lower = key;
    for (char& c : lower) {
      c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (!seen.insert(lower).second) {
      return true;
    }
  }
  return false;
}

// Whether some object in `text` (valid JSON) names a key twice. The tree decoder keeps the last
// value only, while the streaming decoder reads each in turn, as Go's encoding/json does, and so
// fails on a first value of the wrong type that the tree never sees.
bool hasDuplicateKeys(std::string_view text) {
  std::vector<std::set<std::string>> open_objects;
  bool duplicate = false;
  auto watch = [&](int /*depth*/, api::Json::parse_event_t event, api::Json& parsed) {
    switch (event) {
      case api::Json::parse_event_t::object_start:
        open_objects.emplace_back();
        break;
      case api::Json::parse_event_t::object_end:
        if (!open_objects.empty()) {
          open_objects.pop_back();
        }
        break;
      case api::Json::parse_event_t::key:
        if (!open_objects.empty() && parsed.is_string() &&
            !open_objects.back().insert(parsed.get<std::string>()).second) {
          duplicate = true;
        }
        break;
      default:
        break;
    }
    return true;
  };
  const api::Json reparsed = api::Json::parse(text, watch, /*allow_exceptions=*/false);
  return duplicate && !reparsed.is_discarded();
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto streamed = wire::decodeExtenderArgs(text);
  auto parsed = api::parseJson(text);
  if (auto key = wire::scanExtenderArgsKey(text)) {
    if (!parsed.ok()) {
      std::abort();  // the key scan accepted what is not JSON
    }
    if (streamed.ok() && (streamed->pod.metadata.uid != key->pod_uid ||
                          streamed->pod.metadata.resourceVersion != key->pod_resource_version ||
                          streamed->pod.metadata.namespace_ != key->pod_namespace ||
                          streamed->pod.metadata.name != key->pod_name ||
                          streamed->nodeNames != std::optional(key->node_names))) {
      std::abort();  // the key scan and the decoder disagree on the pod or its candidates
    }
  }
  if (!parsed.ok()) {
    if (streamed.ok()) {
      std::abort();  // the streaming decoder accepted what is not JSON
    }
    return 0;
  }
  api::extender::ExtenderArgs args;
  const bool tree_ok = parsed->is_object() && treeDecode(*parsed, args);
  const bool comparable =
      !parsed->is_object() || (!hasCaseFoldedDuplicates(*parsed) && !hasDuplicateKeys(text));
  if (comparable && (tree_ok != streamed.ok() || (tree_ok && !(*streamed == args)))) {
    std::abort();  // the two decoders disagree
  }
  if (!tree_ok) {
    return 0;
  }
  const api::Json encoded = api::extender::toJson(args);
  api::extender::ExtenderArgs again;
  if (!api::extender::fromJson(encoded, again, "").isOk() || !(again == args)) {
    std::abort();  // the encoder writes what the decoder reads
  }
  (void)encoded.dump(-1, ' ', false, api::Json::error_handler_t::replace);
  return 0;
}
