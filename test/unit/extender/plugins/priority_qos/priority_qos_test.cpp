#include "extender/plugins/priority_qos/priority_qos.hpp"

#include <gtest/gtest.h>

#include "../plugin_test_util.hpp"

namespace koord::extender::plugins::priority_qos {
namespace {

struct Case {
  std::string name;
  std::string qos;  // "" leaves the label out
  std::optional<int32_t> priority;
  std::string priority_class_label;
  std::string cpu = "1";
  std::string want_reason = "";  // "" means allowed
};

TEST(PriorityQoSTest, RejectsForbiddenPairsOnEveryNode) {
  const std::vector<Case> cases = {
      {"BE with prod", "BE", 9000, "", "1",
       "pod with QoS class BE cannot use priority class koord-prod (priority 9000)"},
      {"BE without a band", "BE", std::nullopt, "", "1",
       "pod with QoS class BE cannot use priority class none (priority 0)"},
      {"BE with a priority outside every band", "BE", 100, "", "1",
       "pod with QoS class BE cannot use priority class none (priority 100)"},
      {"BE with batch", "BE", 5500, "", "1", ""},
      {"BE with mid", "BE", 7000, "", "1", ""},
      {"BE with free", "BE", 3999, "", "1", ""},
      {"LSR with prod", "LSR", 9500, "", "2", ""},
      {"LSR with batch", "LSR", 5000, "", "2",
       "pod with QoS class LSR cannot use priority class koord-batch (priority 5000)"},
      {"LSE with mid", "LSE", 7100, "", "2",
       "pod with QoS class LSE cannot use priority class koord-mid (priority 7100)"},
      {"LSE with free", "LSE", 3000, "", "2",
       "pod with QoS class LSE cannot use priority class koord-free (priority 3000)"},
      {"LSR without a band", "LSR", std::nullopt, "", "2",
       "pod with QoS class LSR cannot use priority class none (priority 0)"},
      {"the priority-class label wins over spec.priority", "BE", 5500, "koord-prod", "1",
       "pod with QoS class BE cannot use priority class koord-prod (priority 5500)"},
      {"LS goes with anything", "LS", 5500, "", "1", ""},
      {"no QoS label: nothing to check", "", 5500, "", "1", ""},
      {"LSR needs whole CPUs", "LSR", 9000, "", "1500m",
       "pod with QoS class LSR must request whole CPUs, got cpu 1500m"},
      {"LSE needs whole CPUs", "LSE", 9000, "", "500m",
       "pod with QoS class LSE must request whole CPUs, got cpu 500m"},
      {"LS may request fractions", "LS", 9000, "", "500m", ""},
  };
  PriorityQoSPlugin plugin(Args{});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::map<std::string, std::string> labels;
    if (!c.qos.empty()) {
      labels["koordinator.sh/qosClass"] = c.qos;
    }
    if (!c.priority_class_label.empty()) {
      labels["koordinator.sh/priority-class"] = c.priority_class_label;
    }
    auto pod = testing::podInfo(testing::makePod("p", {{"cpu", c.cpu}}, labels, c.priority));
    framework::CycleState state;
    framework::PluginStatus status = plugin.preFilter(state, *pod);
    if (c.want_reason.empty()) {
      EXPECT_EQ(status.code(), framework::Code::kSkip) << status.message();
    } else {
      EXPECT_EQ(status.code(), framework::Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(status.message(), c.want_reason);
    }
  }
}

TEST(PriorityQoSTest, IntegerCpuCheckCanBeTurnedOff) {
  auto plugin = create(api::Json{{"requireIntegerCPU", false}}, testing::TestHandle());
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  auto* pre = dynamic_cast<framework::PreFilterPlugin*>(plugin->get());
  ASSERT_NE(pre, nullptr);
  auto pod = testing::podInfo(
      testing::makePod("p", {{"cpu", "1500m"}}, {{"koordinator.sh/qosClass", "LSR"}}, 9000));
  framework::CycleState state;
  EXPECT_EQ(pre->preFilter(state, *pod).code(), framework::Code::kSkip);
}

TEST(PriorityQoSTest, ArgsAreStrict) {
  const std::vector<std::pair<api::Json, std::vector<std::string>>> cases = {
      {nullptr, {}},
      {api::Json{{"requireIntegerCPU", true}}, {}},
      {api::Json{{"requireIntegerCPU", "no"}},
       {"args.requireIntegerCPU: expected boolean, got string"}},
      {api::Json{{"requireIntegerCPU", 0}, {"strict", true}},
       {"args.requireIntegerCPU: expected boolean, got number", "args.strict: unknown field"}},
      {api::Json::array(), {"args: expected object, got array"}},
  };
  for (const auto& [json, wants] : cases) {
    SCOPED_TRACE(json.dump());
    auto args = decodeArgs(json);
    ASSERT_EQ(args.ok(), wants.empty()) << args.status();
    for (const auto& want : wants) {
      EXPECT_NE(args.status().message().find(want), std::string::npos) << args.status();
    }
  }
}

}  // namespace
}  // namespace koord::extender::plugins::priority_qos
