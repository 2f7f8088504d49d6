#include "manager/descheduler/framework/default_evictor.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "koord/api/core/time.hpp"
#include "test/unit/manager/descheduler_framework/builders.hpp"

namespace koord::manager::descheduler::framework {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test builders
using Json = nlohmann::json;

const auto kNow = api::core::parseTime("2024-05-01T12:00:00Z").value();

struct FilterCase {
  std::string description;
  std::function<void(core::Pod&)> apply;
  std::function<void(DefaultEvictorOptions&)> configure;
  bool evictable;
  std::string reason;  // one of the reasons given when refused
};

void runFilterCase(const FilterCase& tc) {
  core::Pod pod = buildPod("p", 100, 0, "n1");
  tc.apply(pod);
  core::Pod sibling = buildPod("sibling", 100, 0, "n1");
  setOwner(sibling, "Pod", "owner-uid");
  DefaultEvictorOptions options;
  if (tc.configure)
    tc.configure(options);
  auto evictor = DefaultEvictor::create(options);
  ASSERT_TRUE(evictor.ok()) << evictor.status().toString();
  auto snapshot = snapshotOf({buildNode("n1")}, {pod, sibling}, {{"low", 100}});
  auto reasons = evictor->filterReasons(pod, snapshot, kNow);
  EXPECT_EQ(reasons.empty(), tc.evictable) << tc.description;
  if (!tc.reason.empty()) {
    EXPECT_NE(std::find(reasons.begin(), reasons.end(), tc.reason), reasons.end())
        << tc.description << ": " << ::testing::PrintToString(reasons);
  }
}

void evictAnnotation(core::Pod& p) {
  p.metadata.annotations["descheduler.alpha.kubernetes.io/evict"] = "true";
}

TEST(DefaultEvictorFilter, CommunityTable) {
  const std::vector<FilterCase> cases = {
      {"failed bare pod, evictFailedBarePods off", [](core::Pod& p) { p.status.phase = "Failed"; },
       nullptr, false, "pod does not have any ownerRefs"},
      {"running bare pod, evictFailedBarePods on", [](core::Pod&) {},
       [](auto& o) { o.evict_failed_bare_pods = true; }, false,
       "pod does not have any ownerRefs and is not in failed phase"},
      {"failed bare pod, evictFailedBarePods on", [](core::Pod& p) { p.status.phase = "Failed"; },
       [](auto& o) { o.evict_failed_bare_pods = true; }, true, ""},
      {"normal owner", setNormalOwnerRef, nullptr, true, ""},
      {"evict annotation on a bare pod", evictAnnotation, nullptr, true, ""},
      {"prefer-no-eviction, Preferred",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.metadata.annotations["descheduler.alpha.kubernetes.io/prefer-no-eviction"] = "";
       },
       [](auto& o) { o.no_eviction_policy = "Preferred"; }, true, ""},
      {"prefer-no-eviction, Mandatory",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.metadata.annotations["descheduler.alpha.kubernetes.io/prefer-no-eviction"] = "";
       },
       [](auto& o) { o.no_eviction_policy = "Mandatory"; }, false, ""},
      {"local storage",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setLocalStorageVolume(p);
       },
       nullptr, false, "pod has local storage and is protected against eviction"},
      {"local storage, evictLocalStoragePods",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setLocalStorageVolume(p);
       },
       [](auto& o) { o.evict_local_storage_pods = true; }, true, ""},
      {"local storage with evict annotation",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setLocalStorageVolume(p);
         evictAnnotation(p);
       },
       nullptr, true, ""},
      {"daemonset", setDSOwnerRef, nullptr, false, "daemonset pods are protected against eviction"},
      {"mirror pod",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setMirrorPodAnnotation(p);
       },
       nullptr, false, "pod is a mirror pod"},
      {"static pod",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.metadata.annotations["kubernetes.io/config.source"] = "file";
       },
       nullptr, false, "pod is a static pod"},
      {"terminating",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.metadata.deletionTimestamp = "2024-05-01T11:00:00Z";
       },
       nullptr, false, "pod is terminating"},
      {"system critical",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, kSystemCriticalPriority);
       },
       nullptr, false, "pod has system critical priority and is protected against eviction"},
      {"system critical, evictSystemCriticalPods",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, kSystemCriticalPriority);
       },
       [](auto& o) { o.evict_system_critical_pods = true; }, true, ""},
      {"above the priority threshold value",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, 1000);
       },
       [](auto& o) {
         o.priority_threshold = config::PriorityThreshold{500, ""};
       },
       false, "pod has higher priority than specified priority class threshold"},
      {"at the threshold class value",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, 100);
       },
       [](auto& o) {
         o.priority_threshold = config::PriorityThreshold{std::nullopt, "low"};
       },
       false, "pod has higher priority than specified priority class threshold"},
      {"below the threshold class value",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, 99);
       },
       [](auto& o) {
         o.priority_threshold = config::PriorityThreshold{std::nullopt, "low"};
       },
       true, ""},
      {"unknown threshold class", [](core::Pod& p) { setNormalOwnerRef(p); },
       [](auto& o) {
         o.priority_threshold = config::PriorityThreshold{std::nullopt, "nope"};
       },
       false, "unable to get priority value from the priority class \"nope\""},
      {"above the threshold, evictSystemCriticalPods (threshold off)",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPriority(p, 1000);
       },
       [](auto& o) {
         o.priority_threshold = config::PriorityThreshold{500, ""};
         o.evict_system_critical_pods = true;
       },
       true, ""},
      {"PVC, ignorePvcPods",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPvcVolume(p);
       },
       [](auto& o) { o.ignore_pvc_pods = true; }, false,
       "pod with PVC is protected against eviction"},
      {"PVC",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPvcVolume(p);
       },
       nullptr, true, ""},
      {"local storage, PodsWithLocalStorage default-disabled",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setLocalStorageVolume(p);
       },
       [](auto& o) { o.default_disabled = {"PodsWithLocalStorage"}; }, true, ""},
      {"daemonset, DaemonSetPods default-disabled", setDSOwnerRef,
       [](auto& o) { o.default_disabled = {"DaemonSetPods"}; }, true, ""},
      {"PVC, PodsWithPVC extra-enabled",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         setPvcVolume(p);
       },
       [](auto& o) { o.extra_enabled = {"PodsWithPVC"}; }, false, ""},
      {"resource claims, PodsWithResourceClaims extra-enabled",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.spec.extra["resourceClaims"] = Json::array({{{"name", "gpu"}}});
       },
       [](auto& o) { o.extra_enabled = {"PodsWithResourceClaims"}; }, false, ""},
      {"label selector mismatch",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.metadata.labels["app"] = "db";
       },
       [](auto& o) {
         o.label_selector = core::LabelSelector{{{"app", "web"}}, {}, {}};
       },
       false, "pod labels do not match the labelSelector filter in the policy parameter"},
      {"minReplicas 2, owner with 2 pods", [](core::Pod& p) { setOwner(p, "Pod", "owner-uid"); },
       [](auto& o) { o.min_replicas = 2; }, true, ""},
      {"minReplicas 3, owner with 2 pods", [](core::Pod& p) { setOwner(p, "Pod", "owner-uid"); },
       [](auto& o) { o.min_replicas = 3; }, false,
       "owner has 2 replicas which is less than minReplicas of 3"},
      {"minPodAge 50m, started 10m ago",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.status.startTime = "2024-05-01T11:50:00Z";
       },
       [](auto& o) { o.min_pod_age = std::chrono::minutes(50); }, false, ""},
      {"minPodAge 50m, started 60m ago",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.status.startTime = "2024-05-01T11:00:00Z";
       },
       [](auto& o) { o.min_pod_age = std::chrono::minutes(50); }, true, ""},
      // Centuries apart: the nanosecond difference would overflow (and read as young).
      {"minPodAge 50m, started in 1700",
       [](core::Pod& p) {
         setNormalOwnerRef(p);
         p.status.startTime = "1700-01-01T00:00:00Z";
       },
       [](auto& o) { o.min_pod_age = std::chrono::minutes(50); }, true, ""},
      {"koord namespaces exclude", [](core::Pod& p) { setNormalOwnerRef(p); },
       [](auto& o) {
         o.namespaces = config::Namespaces{{}, {"default"}};
       },
       false, "pod namespace is excluded"},
  };
  for (const auto& tc : cases)
    runFilterCase(tc);
}

TEST(DefaultEvictorArgs, DecodesCommunityFields) {
  auto options = decodeDefaultEvictorArgs(Json::parse(R"({
    "apiVersion": "descheduler/v1alpha2", "kind": "DefaultEvictorArgs",
    "nodeFit": true, "minReplicas": 2, "minPodAge": "1h", "nodeSelector": "pool=a",
    "priorityThreshold": {"name": "low"},
    "podProtections": {"extraEnabled": ["PodsWithPVC"], "defaultDisabled": ["DaemonSetPods"]}
  })"));
  ASSERT_TRUE(options.ok()) << options.status().toString();
  EXPECT_TRUE(options->node_fit);
  EXPECT_EQ(options->min_replicas, 2u);
  EXPECT_EQ(options->min_pod_age, std::chrono::hours(1));
  EXPECT_EQ(options->priority_threshold->name, "low");
  auto evictor = DefaultEvictor::create(*options);
  ASSERT_TRUE(evictor.ok());
  EXPECT_EQ(evictor->protections(),
            (std::vector<std::string>{"PodsWithLocalStorage", "SystemCriticalPods",
                                      "FailedBarePods", "PodsWithPVC"}));
}

TEST(DefaultEvictorArgs, RejectsUnknownAndInvalid) {
  struct Case {
    const char* json;
    const char* message;
  };
  const std::vector<Case> cases = {
      {R"({"bogus": 1})", "DefaultEvictorArgs.bogus: unknown field"},
      {R"({"priorityThreshold": {"value": 1, "name": "a"}})",
       "DefaultEvictorArgs: priority threshold misconfigured, only one of priorityThreshold "
       "fields can be set"},
      {R"({"noEvictionPolicy": "Sometimes"})",
       "DefaultEvictorArgs: noEvictionPolicy accepts only [\"Preferred\" \"Mandatory\"] values"},
      {R"({"evictLocalStoragePods": true, "podProtections": {"defaultDisabled": ["DaemonSetPods"]}})",
       "DefaultEvictorArgs: cannot use Deprecated fields alongside PodProtections.ExtraEnabled "
       "or PodProtections.DefaultDisabled"},
      {R"({"podProtections": {"extraEnabled": ["Nope"]}})",
       "DefaultEvictorArgs: invalid pod protection policy in ExtraEnabled: \"Nope\". Valid "
       "options are: [PodsWithPVC PodsWithoutPDB PodsWithResourceClaims]"},
      {R"({"podProtections": {"defaultDisabled": ["DaemonSetPods", "DaemonSetPods"]}})",
       "DefaultEvictorArgs: PodProtections.DefaultDisabled contains duplicate entries"},
      {R"({"podProtections": {"extraEnabled": ["PodsWithPVC"], "config": {"PodsWithPVC":
         {"protectedStorageClasses": [{"name": ""}]}}}})",
       "DefaultEvictorArgs: PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[0] name "
       "cannot be empty"},
  };
  for (const auto& c : cases) {
    auto options = decodeDefaultEvictorArgs(Json::parse(c.json));
    ASSERT_FALSE(options.ok()) << c.json;
    EXPECT_EQ(options.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(options.status().message(), c.message);
  }
  auto wrong_type = decodeDefaultEvictorArgs(Json::parse(R"({"nodeFit": "yes"})"));
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.status().message().find("DefaultEvictorArgs.nodeFit"), std::string::npos);
}

TEST(DefaultEvictorArgs, FromMigrationControllerArgs) {
  config::MigrationControllerArgs args;
  args.evict_local_storage_pods = true;
  args.node_fit = true;
  args.priority_threshold = config::PriorityThreshold{10, ""};
  args.namespaces = config::Namespaces{{"prod"}, {}};
  auto options = defaultEvictorOptionsFrom(args);
  EXPECT_TRUE(options.evict_local_storage_pods);
  EXPECT_TRUE(options.node_fit);
  EXPECT_EQ(options.priority_threshold->value, 10);
  auto evictor = DefaultEvictor::create(options);
  ASSERT_TRUE(evictor.ok());
  // Daemonset pods stay protected: koord has no switch for them.
  EXPECT_EQ(evictor->protections(),
            (std::vector<std::string>{"DaemonSetPods", "SystemCriticalPods", "FailedBarePods"}));
}

}  // namespace
}  // namespace koord::manager::descheduler::framework
