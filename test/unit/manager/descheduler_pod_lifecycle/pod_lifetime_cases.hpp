// Shared cases support for the PodLifeTime tests: pod builders in the shape of the community's
// pod_lifetime_test.go helpers, and a table runner that builds the plugin over node "n1" and
// checks the number (and, when listed, the names) of the evicted pods.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime.hpp"
#include "test/unit/manager/descheduler_pod_lifecycle/plugin_harness.hpp"

namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases {

using testing::Harness;
using testing::Json;
using testing::makeNode;
using testing::makePod;
using testing::secondsAgo;
using testing::terminated;
using testing::waiting;
namespace core = api::core;

constexpr const char* kOlder = "2009-11-10T23:00:00Z";
inline std::string oldTransition() {
  return secondsAgo(int64_t{2} * 3600);
}
inline std::string newTransition() {
  return secondsAgo(60);
}

inline core::Pod pod(const std::string& name, const std::string& created,
                     const std::function<void(core::Pod&)>& apply = {}) {
  core::Pod p = makePod(name, "n1");
  p.metadata.creationTimestamp = created;
  if (apply)
    apply(p);
  return p;
}
inline core::Pod pendingPod(const std::string& name, const std::string& created,
                            const std::function<void(core::Pod&)>& apply = {}) {
  return pod(name, created, [&](core::Pod& p) {
    p.status.phase = "Pending";
    if (apply)
      apply(p);
  });
}
// The Go test's buildPod: no creationTimestamp (Go's zero time).
inline core::Pod bare(const std::string& name, const std::function<void(core::Pod&)>& apply = {}) {
  return pod(name, "", apply);
}
inline core::PodCondition condition(const std::string& type, const std::string& status,
                                    const std::string& reason, const std::string& transition) {
  core::PodCondition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.lastTransitionTime = transition;
  return c;
}
inline void ownedByJob(core::Pod& p) {
  p.metadata.ownerReferences.clear();
  core::OwnerReference owner;
  owner.apiVersion = "batch/v1";
  owner.kind = "Job";
  owner.name = "job1";
  p.metadata.ownerReferences.push_back(owner);
}
inline Json withMax(Json args) {
  args["maxPodLifeTimeSeconds"] = 600;
  return args;
}

struct Case {
  std::string description;
  Json args;
  std::vector<core::Pod> pods;
  size_t expected_count;
  std::vector<std::string> expected = {};  // names that must be among the evicted
  std::function<void(testing::FakeEvictor&)> configure = {};
};

inline void runCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.description);
    Harness harness({makeNode("n1")}, c.pods);
    if (c.configure)
      c.configure(harness.evictor);
    Status st = harness.run(createPodLifeTime, c.args);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(harness.evictor.evicted.size(), c.expected_count);
    for (const std::string& name : c.expected) {
      EXPECT_NE(std::find(harness.evictor.evicted.begin(), harness.evictor.evicted.end(), name),
                harness.evictor.evicted.end())
          << name << " was not evicted";
    }
  }
}

inline auto refuse(const std::string& name) {
  return [name](testing::FakeEvictor& e) {
    e.filter_fn = [name](const core::Pod& p) { return p.metadata.name != name; };
  };
}

}  // namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases
