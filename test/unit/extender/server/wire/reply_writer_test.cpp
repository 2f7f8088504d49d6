// The direct reply writers give exactly the bytes the JSON-tree encoding gives.
#include "extender/server/wire/reply_writer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "koord/api/codec.hpp"

namespace koord::extender::server::wire {
namespace {

using api::Json;
using api::extender::ExtenderFilterResult;
using api::extender::HostPriorityList;

template <typename T>
std::string viaTree(const T& v) {
  return toJson(v).dump(-1, ' ', false, Json::error_handler_t::replace);
}

TEST(ReplyWriterTest, FilterResultMatchesTheTreeEncodingByteForByte) {
  std::vector<ExtenderFilterResult> cases(5);
  cases[1].nodeNames = std::vector<std::string>{};
  cases[2].nodeNames = std::vector<std::string>{"n1", "node-2.example.com"};
  cases[2].failedNodes = {{"n3", "Insufficient cpu"}, {"n4", "node(s) had \"taint\"\n"}};
  cases[2].failedAndUnresolvableNodes = {{"n5", "reservation \\ full"}};
  cases[3].error = "failed to decode: \x01 bad \xff byte, caf\xc3\xa9";
  cases[3].nodeNames = std::vector<std::string>{"caf\xc3\xa9", "bad\xfe"};
  api::core::NodeList nodes;
  nodes.items.emplace_back();
  nodes.items.back().metadata.name = "n1";
  nodes.items.back().metadata.labels = {{"zone", "a"}};
  cases[4].nodes = nodes;
  for (const ExtenderFilterResult& result : cases) {
    EXPECT_EQ(writeJson(result), viaTree(result));
  }
}

TEST(ReplyWriterTest, PriorityListMatchesTheTreeEncodingByteForByte) {
  const std::vector<HostPriorityList> cases = {
      {},
      {{"n1", 0}, {"n2", 10}, {"node-3.example.com", 7}},
      {{"q\"uote", -1}, {"caf\xc3\xa9", 5}, {"bad\xfe", 9223372036854775807}},
  };
  for (const HostPriorityList& list : cases) {
    EXPECT_EQ(writeJson(list), viaTree(list));
  }
}

}  // namespace
}  // namespace koord::extender::server::wire
