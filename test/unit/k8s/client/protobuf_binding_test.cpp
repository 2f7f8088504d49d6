#include "koord/k8s/protobuf_binding.hpp"

#include <gtest/gtest.h>

#include <string>

namespace koord::k8s {
namespace {

std::string protoBytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) {
    out.push_back(static_cast<char>(v));
  }
  return out;
}

// The bytes Go's generated Marshal writes for the same Binding (fields in number order, each a
// tag byte and a varint length), as kube-apiserver's protobuf serializer reads them.
TEST(ProtobufBindingTest, EnvelopeTypeMetaAndBinding) {
  const std::string metadata =
      protoBytes({0x0a, 1}) + "p" + protoBytes({0x1a, 2}) + "ns" + protoBytes({0x2a, 5}) + "uid-1";
  const std::string target = protoBytes({0x0a, 4}) + "Node" + protoBytes({0x1a, 6}) + "node-a";
  const std::string binding = protoBytes({0x0a, static_cast<int>(metadata.size())}) + metadata +
                              protoBytes({0x12, static_cast<int>(target.size())}) + target;
  const std::string type_meta = protoBytes({0x0a, 2}) + "v1" + protoBytes({0x12, 7}) + "Binding";
  const std::string expected = std::string("k8s\0", 4) +
                               protoBytes({0x0a, static_cast<int>(type_meta.size())}) + type_meta +
                               protoBytes({0x12, static_cast<int>(binding.size())}) + binding;
  EXPECT_EQ(encodeBindingProtobuf("ns", "p", "uid-1", "node-a"), expected);
  EXPECT_EQ(expected.size(), 53U);
}

TEST(ProtobufBindingTest, AnEmptyUidIsLeftOut) {
  const std::string with = encodeBindingProtobuf("ns", "p", "uid-1", "n");
  const std::string without = encodeBindingProtobuf("ns", "p", "", "n");
  EXPECT_EQ(with.size() - without.size(), 7U);  // the uid field: tag, length, 5 bytes
  EXPECT_EQ(without.find("uid-1"), std::string::npos);
}

// Lengths from 128 up take two varint bytes: a 200-byte node name is written as 0xc8 0x01.
TEST(ProtobufBindingTest, LongNamesTakeMultiByteLengths) {
  const std::string node(200, 'n');
  const std::string out = encodeBindingProtobuf("ns", "p", "u", node);
  const std::string name_field = protoBytes({0x1a, 0xc8, 0x01}) + node;
  EXPECT_NE(out.find(name_field), std::string::npos);
  // target: 6 bytes of kind and 203 of name = 209, itself written as 0xd1 0x01.
  EXPECT_NE(out.find(protoBytes({0x12, 0xd1, 0x01, 0x0a, 4}) + "Node"), std::string::npos);
}

}  // namespace
}  // namespace koord::k8s
