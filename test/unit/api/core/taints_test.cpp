#include "koord/api/core/taints.hpp"

#include <gtest/gtest.h>

#include <string>

namespace koord::api::core {
namespace {

Toleration tol(std::string key, std::string op, std::string value, std::string effect) {
  Toleration t;
  t.key = std::move(key);
  t.operator_ = std::move(op);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

Taint taint(std::string key, std::string value, std::string effect) {
  Taint t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

struct TolerateCase {
  const char* name;
  Toleration toleration;
  Taint taint;
  bool want;
};

TEST(TolerationTest, ToleratesTaintAsKubernetes) {
  const Taint dedicated = taint("dedicated", "web", "NoSchedule");
  const TolerateCase cases[] = {
      {"Equal with same key, value and effect", tol("dedicated", "Equal", "web", "NoSchedule"),
       dedicated, true},
      {"empty operator means Equal", tol("dedicated", "", "web", "NoSchedule"), dedicated, true},
      {"Equal with another value", tol("dedicated", "Equal", "db", "NoSchedule"), dedicated, false},
      {"Equal with empty value against a valued taint", tol("dedicated", "Equal", "", ""),
       dedicated, false},
      {"Equal with empty value against an empty-valued taint", tol("gpu", "Equal", "", ""),
       taint("gpu", "", "NoSchedule"), true},
      {"Exists ignores the value", tol("dedicated", "Exists", "", "NoSchedule"), dedicated, true},
      {"Exists ignores a given value", tol("dedicated", "Exists", "other", ""), dedicated, true},
      {"empty effect matches every effect", tol("dedicated", "Equal", "web", ""),
       taint("dedicated", "web", "NoExecute"), true},
      {"effect must match when given", tol("dedicated", "Equal", "web", "NoExecute"), dedicated,
       false},
      {"PreferNoSchedule is its own effect", tol("dedicated", "Exists", "", "NoSchedule"),
       taint("dedicated", "web", "PreferNoSchedule"), false},
      {"empty key with Exists tolerates everything", tol("", "Exists", "", ""),
       taint("anything", "x", "NoExecute"), true},
      {"empty key with Exists and an effect", tol("", "Exists", "", "NoSchedule"),
       taint("anything", "x", "NoExecute"), false},
      {"empty key with Equal compares values", tol("", "Equal", "web", ""), dedicated, true},
      {"key must match", tol("other", "Exists", "", ""), dedicated, false},
      {"unknown operator tolerates nothing", tol("dedicated", "Gt", "web", "NoSchedule"), dedicated,
       false},
      {"operator is case-sensitive", tol("dedicated", "exists", "", ""), dedicated, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(tolerates(c.toleration, c.taint), c.want);
  }
}

TEST(TolerationTest, FindsTheFirstUntoleratedSchedulingTaint) {
  Node node;
  node.spec.taints = {taint("soft", "", "PreferNoSchedule"), taint("a", "1", "NoSchedule"),
                      taint("b", "", "NoExecute")};
  Pod pod;
  auto found = findUntoleratedSchedulingTaint(pod, node);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->key, "a");

  pod.spec.tolerations = {tol("a", "Equal", "1", "NoSchedule")};
  found = findUntoleratedSchedulingTaint(pod, node);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->key, "b");

  pod.spec.tolerations.push_back(tol("b", "Exists", "", ""));
  EXPECT_FALSE(findUntoleratedSchedulingTaint(pod, node));
  EXPECT_FALSE(tolerationsTolerateTaint(pod.spec.tolerations, node.spec.taints[0]));

  // A null filter considers PreferNoSchedule too.
  found = findUntoleratedTaint(node.spec.taints, pod.spec.tolerations, nullptr);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->key, "soft");
}

TEST(TaintTest, ToString) {
  EXPECT_EQ(taintToString(taint("dedicated", "web", "NoSchedule")), "dedicated=web:NoSchedule");
  EXPECT_EQ(taintToString(taint("gpu", "", "NoExecute")), "gpu:NoExecute");
}

}  // namespace
}  // namespace koord::api::core
