#include "koord/k8s/protobuf_binding.hpp"

#include <cstdint>

namespace koord::k8s {
namespace {

// Wire type 2 (length-delimited): the tag byte of field numbers 1..15.
constexpr char bytesTag(int field) {
  return static_cast<char>((field << 3) | 2);
}

void appendVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A length-delimited field (a string or an embedded message); nothing for an empty string.
void appendField(std::string& out, int field, std::string_view bytes) {
  if (bytes.empty()) {
    return;
  }
  out.push_back(bytesTag(field));
  appendVarint(out, bytes.size());
  out.append(bytes);
}

// An embedded message: written even when empty, as Go's generated code does for metadata.
void appendMessage(std::string& out, int field, std::string_view bytes) {
  out.push_back(bytesTag(field));
  appendVarint(out, bytes.size());
  out.append(bytes);
}

}  // namespace

std::string encodeBindingProtobuf(std::string_view ns, std::string_view pod, std::string_view uid,
                                  std::string_view node) {
  std::string metadata;  // ObjectMeta
  appendField(metadata, 1, pod);
  appendField(metadata, 3, ns);
  appendField(metadata, 5, uid);
  std::string target;  // ObjectReference
  appendField(target, 1, "Node");
  appendField(target, 3, node);
  std::string binding;
  appendMessage(binding, 1, metadata);
  appendMessage(binding, 2, target);
  std::string type_meta;
  appendField(type_meta, 1, "v1");
  appendField(type_meta, 2, "Binding");

  std::string out("k8s\0", 4);
  out.reserve(4 + 8 + type_meta.size() + binding.size());
  appendMessage(out, 1, type_meta);  // runtime.Unknown.typeMeta
  appendMessage(out, 2, binding);    // runtime.Unknown.raw
  return out;
}

}  // namespace koord::k8s
