// PodLifeTime: the community's tables for the v0.36 criteria (terminated reasons in states,
// conditions and their transition times, owner kinds, ephemeral containers, exit codes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/manager/descheduler_pod_lifecycle/pod_lifetime_cases.hpp"

namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases {
namespace pod_lifetime_filters_test_detail {

TEST(PodLifeTimeTest, StatesConditionsOwnerKindsAndExitCodes) {
  runCases({
      {"terminated reason via states",
       {{"states", {"NodeAffinity"}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               p.status.containerStatuses = Json::array({terminated("NodeAffinity")});
             })},
       1},
      {"pod status reason via states",
       {{"states", {"Shutdown"}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               p.status.reason = "Shutdown";
             })},
       1},
      {"init terminated reason with the flag",
       {{"states", {"CreateContainerConfigError"}}, {"includingInitContainers", true}},
       {bare("p1",
             [](core::Pod& p) {
               testing::setInitStatuses(p, Json::array({terminated("CreateContainerConfigError")}));
             })},
       1},
      {"init terminated reason without the flag",
       {{"states", {"CreateContainerConfigError"}}},
       {bare("p1",
             [](core::Pod& p) {
               testing::setInitStatuses(p, Json::array({terminated("CreateContainerConfigError")}));
             })},
       0},
      {"condition reason and status",
       {{"conditions", {{{"reason", "PodCompleted"}, {"status", "True"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.conditions = {
                   condition("Initialized", "True", "PodCompleted", oldTransition())};
             }),
        bare("p2",
             [](core::Pod& p) {
               p.status.conditions = {
                   condition("Initialized", "True", "OtherReason", oldTransition())};
             })},
       1,
       {"p1"}},
      {"condition type only",
       {{"conditions", {{{"type", "Ready"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.conditions = {condition("Ready", "False", "", oldTransition())};
             })},
       1},
      {"no matching condition",
       {{"conditions", {{{"reason", "PodCompleted"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.conditions = {condition("Ready", "True", "SomethingElse", "")};
             })},
       0},
      {"old transition time",
       {{"states", {"Succeeded"}},
        {"conditions",
         {{{"reason", "PodCompleted"},
           {"status", "True"},
           {"minTimeSinceLastTransitionSeconds", 300}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Succeeded";
               p.status.conditions = {
                   condition("Initialized", "True", "PodCompleted", oldTransition()),
                   condition("Ready", "False", "PodCompleted", oldTransition())};
             })},
       1,
       {"p1"}},
      {"recent transition time",
       {{"states", {"Succeeded"}},
        {"conditions", {{{"minTimeSinceLastTransitionSeconds", 14400}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Succeeded";
               p.status.conditions = {condition("Ready", "False", "", newTransition())};
             })},
       0},
      {"transition time of the matching condition only",
       {{"conditions", {{{"reason", "PodCompleted"}, {"minTimeSinceLastTransitionSeconds", 300}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.conditions = {condition("Initialized", "", "PodCompleted", oldTransition()),
                                      condition("Ready", "", "OtherReason", newTransition())};
             })},
       1,
       {"p1"}},
      {"no conditions on the pod",
       {{"states", {"Running"}}, {"conditions", {{{"minTimeSinceLastTransitionSeconds", 300}}}}},
       {bare("p1", [](core::Pod& p) { p.status.phase = "Running"; })},
       0},
      {"exclude Job: the Job pod stays",
       {{"states", {"Failed"}}, {"ownerKinds", {{"exclude", {"Job"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               ownedByJob(p);
             })},
       0},
      {"exclude Job: the other pod goes",
       {{"states", {"Failed"}}, {"ownerKinds", {{"exclude", {"Job"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               ownedByJob(p);
             }),
        bare("p2", [](core::Pod& p) { p.status.phase = "Failed"; })},
       1,
       {"p2"}},
      {"include only Job",
       {{"states", {"Failed"}}, {"ownerKinds", {{"include", {"Job"}}}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               ownedByJob(p);
             }),
        bare("p2", [](core::Pod& p) { p.status.phase = "Failed"; })},
       1,
       {"p1"}},
      {"ephemeral terminated reason with the flag",
       {{"states", {"OOMKilled"}}, {"includingEphemeralContainers", true}},
       {bare("p1",
             [](core::Pod& p) {
               testing::setEphemeralStatuses(p, Json::array({terminated("OOMKilled")}));
             })},
       1},
      {"ephemeral terminated reason without the flag",
       {{"states", {"OOMKilled"}}},
       {bare("p1",
             [](core::Pod& p) {
               testing::setEphemeralStatuses(p, Json::array({terminated("OOMKilled")}));
             })},
       0},
      {"matching exit code",
       {{"states", {"Failed"}}, {"exitCodes", {1}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               p.status.containerStatuses = Json::array({terminated("", 1)});
             })},
       1},
      {"exit code not matched",
       {{"states", {"Failed"}}, {"exitCodes", {2}}},
       {bare("p1",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               p.status.containerStatuses = Json::array({terminated("", 1)});
             })},
       0},
      {"Succeeded + PodCompleted condition + transition time",
       {{"states", {"Succeeded"}},
        {"conditions",
         {{{"reason", "PodCompleted"},
           {"status", "True"},
           {"minTimeSinceLastTransitionSeconds", 300}}}}},
       {bare("stale-completed",
             [](core::Pod& p) {
               p.status.phase = "Succeeded";
               p.status.conditions = {
                   condition("Initialized", "True", "PodCompleted", oldTransition()),
                   condition("Ready", "False", "PodCompleted", oldTransition())};
             }),
        bare("recent-completed",
             [](core::Pod& p) {
               p.status.phase = "Succeeded";
               p.status.conditions = {
                   condition("Initialized", "True", "PodCompleted", newTransition())};
             }),
        bare("running-pod", [](core::Pod& p) { p.status.phase = "Running"; })},
       1,
       {"stale-completed"}},
      {"Failed + max age 0 + exclude Job (zero creation time is old)",
       {{"states", {"Failed"}},
        {"maxPodLifeTimeSeconds", 0},
        {"ownerKinds", {{"exclude", {"Job"}}}}},
       {bare("failed-rs",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               p.status.containerStatuses = Json::array({terminated("Error")});
             }),
        bare("failed-job",
             [](core::Pod& p) {
               p.status.phase = "Failed";
               ownedByJob(p);
             })},
       1,
       {"failed-rs"}},
  });
}

}  // namespace pod_lifetime_filters_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle::pod_lifetime_cases
