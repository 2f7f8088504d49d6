// PodLifeTimeArgs: the community's validation_test.go and TestValidation cases, plus strict
// decoding.
#include "manager/descheduler/plugins/pod_lifecycle/pod_lifetime_args.hpp"

#include <gtest/gtest.h>

#include <string>

namespace koord::manager::descheduler::pod_lifecycle {
namespace pod_lifetime_args_test_detail {

const char* const kStatesError =
    "PodLifeTimeArgs.states: states must be one of [Completed ContainerCannotRun "
    "ContainerCreating CrashLoopBackOff CreateContainerConfigError CreateContainerError "
    "DeadlineExceeded ErrImagePull Error Evicted Failed ImagePullBackOff InvalidImageName "
    "NodeAffinity NodeLost OOMKilled Pending PodInitializing Running Shutdown StartError "
    "Succeeded UnexpectedAdmissionError Unknown]";
const char* const kNoFilterError =
    "PodLifeTimeArgs.maxPodLifeTimeSeconds: at least one filtering criterion must be specified "
    "(maxPodLifeTimeSeconds, states, conditions, or exitCodes)";

std::string errorOf(const Json& args) {
  return decodePodLifeTimeArgs(args).status().message();
}

TEST(PodLifeTimeArgsTest, CommunityValidationMessages) {
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", 1}, {"states", {"Running"}}}), "");
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", 1}, {"states", {"Succeeded", "Failed"}}}), "");
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", 1}, {"states", {"CrashLoopBackOff"}}}), "");
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", nullptr}}), kNoFilterError);
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", 1}, {"states", {"InvalidState"}}}),
            kStatesError);
  // The community's last case: the bad state is reported, and since states is set it counts as
  // a criterion.
  EXPECT_EQ(errorOf(Json{{"states", {"InvalidState"}}}), kStatesError);
}

TEST(PodLifeTimeArgsTest, ValidationTable) {
  struct ValidationCase {
    const char* description;
    Json args;
    bool valid;
  };
  const ValidationCase cases[] = {
      {"states set", {{"states", {"Running"}}}, true},
      {"conditions set", {{"conditions", {{{"reason", "PodCompleted"}}}}}, true},
      {"maxPodLifeTimeSeconds set", {{"maxPodLifeTimeSeconds", 600}}, true},
      {"states with max", {{"states", {"Running"}}, {"maxPodLifeTimeSeconds", 600}}, true},
      {"states with conditions",
       {{"states", {"Succeeded"}}, {"conditions", {{{"reason", "PodCompleted"}}}}},
       true},
      {"exitCodes only", {{"exitCodes", {1}}}, true},
      {"condition with min transition time",
       {{"conditions", {{{"reason", "PodCompleted"}, {"minTimeSinceLastTransitionSeconds", 300}}}}},
       true},
      {"condition with only min transition time",
       {{"conditions", {{{"minTimeSinceLastTransitionSeconds", 300}}}}},
       true},
      {"no filter criteria", Json::object(), false},
      {"include and exclude namespaces",
       {{"states", {"Running"}}, {"namespaces", {{"include", {"a"}}, {"exclude", {"b"}}}}},
       false},
      {"include and exclude ownerKinds",
       {{"states", {"Running"}},
        {"ownerKinds", {{"include", {"Job"}}, {"exclude", {"ReplicaSet"}}}}},
       false},
      {"bad state name", {{"states", {"NotAState"}}}, false},
      {"empty condition filter", {{"conditions", {Json::object()}}}, false},
  };
  for (const ValidationCase& c : cases) {
    SCOPED_TRACE(c.description);
    auto decoded = decodePodLifeTimeArgs(c.args);
    EXPECT_EQ(decoded.ok(), c.valid) << decoded.status().toString();
    if (!decoded.ok()) {
      EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument);
    }
  }
}

TEST(PodLifeTimeArgsTest, MessagesNameTheFieldAndAggregate) {
  EXPECT_EQ(errorOf(Json{{"states", {"Running"}},
                         {"ownerKinds", {{"include", {"Job"}}, {"exclude", {"ReplicaSet"}}}}}),
            "PodLifeTimeArgs.ownerKinds: only one of Include/Exclude ownerKinds can be set");
  EXPECT_EQ(errorOf(Json{{"conditions", {Json::object()}}}),
            "PodLifeTimeArgs.conditions: conditions[0]: at least one of type, status, reason, or "
            "minTimeSinceLastTransitionSeconds must be set");
  EXPECT_EQ(errorOf(Json{{"namespaces", {{"include", {"a"}}, {"exclude", {"b"}}}}}),
            std::string("[PodLifeTimeArgs.namespaces: only one of Include/Exclude namespaces can "
                        "be set, ") +
                kNoFilterError + "]");
  EXPECT_EQ(errorOf(nullptr), kNoFilterError);
}

TEST(PodLifeTimeArgsTest, StrictDecoding) {
  auto full = decodePodLifeTimeArgs(Json{{"apiVersion", "descheduler/v1alpha2"},
                                         {"kind", "PodLifeTimeArgs"},
                                         {"maxPodLifeTimeSeconds", 86400},
                                         {"states", {"Pending"}},
                                         {"includingInitContainers", true},
                                         {"includingEphemeralContainers", true},
                                         {"exitCodes", {137}},
                                         {"conditions", {{{"type", "Ready"}, {"status", "False"}}}},
                                         {"ownerKinds", {{"exclude", {"Job"}}}}});
  ASSERT_TRUE(full.ok()) << full.status().toString();
  EXPECT_EQ(full->maxPodLifeTimeSeconds, 86400U);
  EXPECT_TRUE(full->includingInitContainers);
  EXPECT_TRUE(full->includingEphemeralContainers);
  ASSERT_EQ(full->conditions.size(), 1U);
  EXPECT_EQ(full->conditions[0].status, "False");
  ASSERT_TRUE(full->ownerKinds.has_value());
  EXPECT_EQ(full->ownerKinds->exclude, std::vector<std::string>{"Job"});

  EXPECT_EQ(errorOf(Json{{"maxPodLifetimeSeconds", 1}}),
            "PodLifeTimeArgs.maxPodLifetimeSeconds: unknown field");
  EXPECT_EQ(errorOf(Json{{"states", {"Running"}}, {"conditions", {{{"message", "x"}}}}}),
            "PodLifeTimeArgs.conditions[0].message: unknown field");
  EXPECT_EQ(errorOf(Json{{"maxPodLifeTimeSeconds", "1h"}})
                .rfind("PodLifeTimeArgs.maxPodLifeTimeSeconds: ", 0),
            0U);
  EXPECT_EQ(errorOf(Json{{"states", "Running"}}).rfind("PodLifeTimeArgs.states: ", 0), 0U);
  EXPECT_EQ(
      errorOf(Json{{"states", {"Running"}}, {"labelSelector", {{"matchLabel", Json::object()}}}}),
      "PodLifeTimeArgs.labelSelector.matchLabel: unknown field");
}

}  // namespace pod_lifetime_args_test_detail
}  // namespace koord::manager::descheduler::pod_lifecycle
