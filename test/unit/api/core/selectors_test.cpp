#include "koord/api/core/selectors.hpp"

#include <gtest/gtest.h>

#include <string>

#include "koord/api/codec.hpp"

namespace koord::api::core {
namespace {

template <typename T>
T mustDecode(const char* text) {
  auto v = decode<T>(text);
  EXPECT_TRUE(v.ok()) << v.status() << " in " << text;
  return v.ok() ? *v : T{};
}

// want: "true", "false", or an error message prefix.
struct LabelCase {
  const char* name;
  const char* selector;
  StringMap labels;
  const char* want;
};

TEST(LabelSelectorTest, MatchesAsKubernetes) {
  const StringMap web = {{"app", "web"}, {"tier", "frontend"}, {"replicas", "3"}};
  const LabelCase cases[] = {
      {"empty selector matches everything", "{}", web, "true"},
      {"empty selector matches no labels", "{}", {}, "true"},
      {"matchLabels equal", R"({"matchLabels":{"app":"web"}})", web, "true"},
      {"matchLabels differ", R"({"matchLabels":{"app":"db"}})", web, "false"},
      {"matchLabels missing key", R"({"matchLabels":{"zone":"a"}})", web, "false"},
      {"In hit", R"({"matchExpressions":[{"key":"app","operator":"In","values":["db","web"]}]})",
       web, "true"},
      {"In miss", R"({"matchExpressions":[{"key":"app","operator":"In","values":["db"]}]})", web,
       "false"},
      {"In missing key", R"({"matchExpressions":[{"key":"x","operator":"In","values":["web"]}]})",
       web, "false"},
      {"NotIn hit", R"({"matchExpressions":[{"key":"app","operator":"NotIn","values":["web"]}]})",
       web, "false"},
      {"NotIn missing key matches",
       R"({"matchExpressions":[{"key":"x","operator":"NotIn","values":["web"]}]})", web, "true"},
      {"Exists", R"({"matchExpressions":[{"key":"tier","operator":"Exists"}]})", web, "true"},
      {"Exists missing", R"({"matchExpressions":[{"key":"zone","operator":"Exists"}]})", web,
       "false"},
      {"DoesNotExist", R"({"matchExpressions":[{"key":"zone","operator":"DoesNotExist"}]})", web,
       "true"},
      {"DoesNotExist present", R"({"matchExpressions":[{"key":"app","operator":"DoesNotExist"}]})",
       web, "false"},
      {"labels and expressions are ANDed",
       R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["backend"]}]})",
       web, "false"},
      {"Gt is not a label selector operator",
       R"({"matchExpressions":[{"key":"replicas","operator":"Gt","values":["1"]}]})", web,
       "matchExpressions[0].operator: \"Gt\" is not a valid label selector operator"},
      {"unknown operator",
       R"({"matchExpressions":[{"key":"a","operator":"Exists"},{"key":"a","operator":"in","values":["x"]}]})",
       web, "matchExpressions[1].operator: \"in\" is not a valid label selector operator"},
      {"In without values", R"({"matchExpressions":[{"key":"app","operator":"In"}]})", web,
       "matchExpressions[0].values: for 'in', 'notin' operators, values set can't be empty"},
      {"Exists with values",
       R"({"matchExpressions":[{"key":"app","operator":"Exists","values":["web"]}]})", web,
       "matchExpressions[0].values: values set must be empty for exists and does not exist"},
      {"invalid key", R"({"matchExpressions":[{"key":"bad key","operator":"Exists"}]})", web,
       "matchExpressions[0].key: \"bad key\" is not a valid label key"},
      {"invalid matchLabels value", R"({"matchLabels":{"app":"-web"}})", web,
       "matchLabels.app: \"-web\" is not a valid label value"},
      {"prefixed key",
       R"({"matchLabels":{"example.com/app":"web"}})",
       {{"example.com/app", "web"}},
       "true"},
      {"invalid prefix", R"({"matchLabels":{"Example.com/app":"web"}})", web,
       "matchLabels.Example.com/app: \"Example.com/app\" is not a valid label key"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto selector = mustDecode<LabelSelector>(c.selector);
    auto got = matchesLabelSelector(selector, c.labels);
    const std::string want = c.want;
    if (want == "true" || want == "false") {
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, want == "true");
      EXPECT_TRUE(validateLabelSelector(selector).isOk());
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(got.status().message(), want);
      EXPECT_EQ(validateLabelSelector(selector), got.status());
    }
  }
}

struct NodeCase {
  const char* name;
  const char* selector;  // a NodeSelector
  const char* want;      // "true", "false" or the error message
};

TEST(NodeSelectorTest, MatchesAsKubernetes) {
  auto node = mustDecode<Node>(
      R"({"metadata":{"name":"node-1","labels":{"zone":"z1","cores":"64","gpu":"true","neg":"-5"}}})");
  const NodeCase cases[] = {
      {"no terms match nothing", R"({"nodeSelectorTerms":[]})", "false"},
      {"an empty term matches nothing", R"({"nodeSelectorTerms":[{}]})", "false"},
      {"In",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]}]}]})",
       "true"},
      {"NotIn",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"NotIn","values":["z1"]}]}]})",
       "false"},
      {"Exists",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"gpu","operator":"Exists"}]}]})",
       "true"},
      {"DoesNotExist",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"gpu","operator":"DoesNotExist"}]}]})",
       "false"},
      {"Gt true",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Gt","values":["32"]}]}]})",
       "true"},
      {"Gt equal is false",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Gt","values":["64"]}]}]})",
       "false"},
      {"Lt true",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Lt","values":["65"]}]}]})",
       "true"},
      {"Lt compares numbers, not text",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Lt","values":["100"]}]}]})",
       "true"},
      {"a negative bound is not a valid label value",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"neg","operator":"Lt","values":["-4"]}]}]})",
       "nodeSelectorTerms[0].matchExpressions[0].values[0]: \"-4\" is not a valid label value"},
      {"Gt on a non-integer label is false",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"gpu","operator":"Gt","values":["1"]}]}]})",
       "false"},
      {"Gt on a missing label is false",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"mem","operator":"Gt","values":["1"]}]}]})",
       "false"},
      {"expressions in a term are ANDed",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]},
                                                     {"key":"gpu","operator":"DoesNotExist"}]}]})",
       "false"},
      {"terms are ORed",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z2"]}]},
                                {"matchExpressions":[{"key":"gpu","operator":"In","values":["true"]}]}]})",
       "true"},
      {"matchFields metadata.name In",
       R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]})",
       "true"},
      {"matchFields metadata.name NotIn",
       R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"NotIn","values":["node-1"]}]}]})",
       "false"},
      {"matchFields and matchExpressions are ANDed",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z2"]}],
                                 "matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]})",
       "false"},
      {"Gt needs one integer value",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Gt","values":["1","2"]}]}]})",
       "nodeSelectorTerms[0].matchExpressions[0].values: for 'Gt', 'Lt' operators, exactly one "
       "value is required"},
      {"Lt value not an integer",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"cores","operator":"Lt","values":["1.5"]}]}]})",
       "nodeSelectorTerms[0].matchExpressions[0].values[0]: for 'Gt', 'Lt' operators, the value "
       "must be an integer"},
      {"unknown operator fails even when another term matches",
       R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]}]},
                                {"matchExpressions":[{"key":"zone","operator":"Equals","values":["z1"]}]}]})",
       "nodeSelectorTerms[1].matchExpressions[0].operator: \"Equals\" is not a valid node selector "
       "operator"},
      {"matchFields needs one value",
       R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["a","b"]}]}]})",
       "nodeSelectorTerms[0].matchFields[0].values: must have one element"},
      {"matchFields operator",
       R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"Exists","values":["a"]}]}]})",
       "nodeSelectorTerms[0].matchFields[0].operator: \"Exists\" is not a valid selector operator"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto selector = mustDecode<NodeSelector>(c.selector);
    auto got = matchesNodeSelector(selector, node);
    const std::string want = c.want;
    if (want == "true" || want == "false") {
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, want == "true");
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().message(), want);
    }
  }
}

TEST(NodeSelectorTest, SingleTerm) {
  auto node = mustDecode<Node>(R"({"metadata":{"name":"n","labels":{"zone":"z1"}}})");
  auto term = mustDecode<NodeSelectorTerm>(
      R"({"matchExpressions":[{"key":"zone","operator":"In","values":["z1"]}]})");
  auto got = matchesNodeSelectorTerm(term, node);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(*got);
  term.matchExpressions[0].operator_ = "Bad";
  got = matchesNodeSelectorTerm(term, node);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "matchExpressions[0].operator: \"Bad\" is not a valid node selector operator");
}

struct AffinityCase {
  const char* name;
  const char* pod;
  const char* want;
};

TEST(RequiredNodeAffinityTest, NodeSelectorAndRequiredTerms) {
  auto node = mustDecode<Node>(
      R"({"metadata":{"name":"node-1","labels":{"kubernetes.io/os":"linux","zone":"z1"}}})");
  const AffinityCase cases[] = {
      {"nothing required", R"({"spec":{}})", "true"},
      {"nodeSelector matches", R"({"spec":{"nodeSelector":{"kubernetes.io/os":"linux"}}})", "true"},
      {"nodeSelector value differs", R"({"spec":{"nodeSelector":{"kubernetes.io/os":"windows"}}})",
       "false"},
      {"nodeSelector and affinity both hold",
       R"({"spec":{"nodeSelector":{"zone":"z1"},"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}}})",
       "true"},
      {"affinity fails",
       R"({"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"NotIn","values":["z1"]}]}]}}}}})",
       "false"},
      {"only preferred terms do not filter",
       R"({"spec":{"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":
           [{"weight":1,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["z9"]}]}}]}}}})",
       "true"},
      {"invalid affinity",
       R"({"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"Near"}]}]}}}}})",
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms[0].matchExpressions[0].operator: \"Near\" is not a valid node selector "
       "operator"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = mustDecode<Pod>(c.pod);
    auto got = matchesRequiredNodeAffinity(pod, node);
    const std::string want = c.want;
    if (want == "true" || want == "false") {
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, want == "true");
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().message(), want);
    }
  }
}

}  // namespace
}  // namespace koord::api::core
