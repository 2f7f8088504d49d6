#include "extender/plugins/common/reservation_matching.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../plugin_test_util.hpp"
#include "koord/api/codec.hpp"

namespace koord::extender::plugins::common {
namespace {

using api::core::StringMap;
using testing::Quantities;
using testing::resourceList;

constexpr const char* kAffinity = "scheduling.koordinator.sh/reservation-affinity";
constexpr const char* kExactMatch = "scheduling.koordinator.sh/exact-match-reservation";
constexpr const char* kIgnored = "scheduling.koordinator.sh/reservation-ignored";
constexpr const char* kPreAllocationRequired = "scheduling.koordinator.sh/pre-allocation-required";
constexpr const char* kOrder = "scheduling.koordinator.sh/reservation-order";
// An annotation value that means "leave the annotation out".
constexpr const char* kAbsent = "<absent>";

template <typename T>
T decode(std::string_view text) {
  using api::fromJson;
  T out{};
  auto j = api::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << text;
  Status status = fromJson(j, out, "");
  EXPECT_TRUE(status.isOk()) << status << " decoding " << text;
  return out;
}

// Pod default/web-0 labelled app=web, tier=frontend, owned by ReplicaSet web-rs (its controller)
// and ConfigMap cfg (controller: false); no apiVersion, as decoded pods often have.
api::core::Pod basePod() {
  api::core::Pod pod;
  pod.metadata.name = "web-0";
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-web-0";
  pod.metadata.labels = {{"app", "web"}, {"tier", "frontend"}};
  api::core::OwnerReference rs;
  rs.apiVersion = "apps/v1";
  rs.kind = "ReplicaSet";
  rs.name = "web-rs";
  rs.uid = "rs-uid";
  rs.controller = true;
  api::core::OwnerReference cm;
  cm.apiVersion = "v1";
  cm.kind = "ConfigMap";
  cm.name = "cfg";
  cm.uid = "cfg-uid";
  cm.controller = false;
  pod.metadata.ownerReferences = {rs, cm};
  return pod;
}

// ---------------------------------------------------------------------------------------------
// Owners

TEST(ReservationMatchingTest, MatchObjectRefWildcardsAndMismatches) {
  struct MatchCase {
    std::string name;
    std::string ref;
    std::string pod_api_version;
    bool want;
  };
  const std::vector<MatchCase> cases = {
      {"an empty reference matches any pod", "{}", "", true},
      {"uid equal", R"({"uid":"uid-web-0"})", "", true},
      {"uid differs", R"({"uid":"uid-other"})", "", false},
      {"name and namespace equal", R"({"name":"web-0","namespace":"default"})", "", true},
      {"name differs", R"({"name":"web-1"})", "", false},
      {"namespace differs", R"({"name":"web-0","namespace":"kube-system"})", "", false},
      {"apiVersion v1 matches a pod without one", R"({"apiVersion":"v1"})", "", true},
      {"apiVersion v1 matches a v1 pod", R"({"apiVersion":"v1"})", "v1", true},
      {"another apiVersion does not match a pod without one", R"({"apiVersion":"apps/v1"})", "",
       false},
      {"kind is ignored", R"({"kind":"Deployment","name":"web-0"})", "", true},
      {"every set field must match", R"({"uid":"uid-web-0","name":"web-0","namespace":"other"})",
       "", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = basePod();
    pod.apiVersion = c.pod_api_version;
    EXPECT_EQ(matchObjectRef(decode<api::core::ObjectReference>(c.ref), pod), c.want);
  }
}

TEST(ReservationMatchingTest, MatchControllerRefNamespaceAndOwnerFields) {
  struct MatchCase {
    std::string name;
    std::string ref;
    bool want;
    bool pod_without_owners = false;
  };
  const std::vector<MatchCase> cases = {
      {"an empty reference matches a pod with an owner", "{}", true},
      {"an empty reference needs some owner", "{}", false, true},
      {"namespace equal", R"({"namespace":"default","kind":"ReplicaSet"})", true},
      {"namespace differs", R"({"namespace":"kube-system","kind":"ReplicaSet"})", false},
      {"uid equal", R"({"uid":"rs-uid"})", true},
      {"uid differs", R"({"uid":"nope"})", false},
      {"kind and name equal", R"({"kind":"ReplicaSet","name":"web-rs"})", true},
      {"kind differs", R"({"kind":"StatefulSet","name":"web-rs"})", false},
      {"apiVersion equal", R"({"apiVersion":"apps/v1","kind":"ReplicaSet"})", true},
      {"apiVersion differs", R"({"apiVersion":"apps/v2","kind":"ReplicaSet"})", false},
      {"any owner may match, not only the controller", R"({"kind":"ConfigMap","name":"cfg"})",
       true},
      {"controller: true needs the controller owner", R"({"name":"cfg","controller":true})", false},
      {"controller: false matches a non-controller owner", R"({"name":"cfg","controller":false})",
       true},
      {"controller: true matches the controller owner", R"({"name":"web-rs","controller":true})",
       true},
      {"all fields must match the same owner", R"({"kind":"ReplicaSet","name":"cfg"})", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = basePod();
    if (c.pod_without_owners) {
      pod.metadata.ownerReferences.clear();
    }
    EXPECT_EQ(
        matchControllerRef(decode<api::scheduling::ReservationControllerReference>(c.ref), pod),
        c.want);
  }
}

TEST(ReservationMatchingTest, MatchOwnersIsAnOrOfAnds) {
  struct MatchCase {
    std::string name;
    std::string owners;
    bool want = false;
    std::string want_error = {};  // a substring of the error message; "" expects success
  };
  const std::vector<MatchCase> cases = {
      {"an empty list matches nothing", "[]", false},
      {"[{}] matches everything", "[{}]", true},
      {"an empty labelSelector matches everything", R"([{"labelSelector":{}}])", true},
      {"labelSelector matches", R"([{"labelSelector":{"matchLabels":{"app":"web"}}}])", true},
      {"labelSelector does not match", R"([{"labelSelector":{"matchLabels":{"app":"db"}}}])",
       false},
      {"labelSelector expression",
       R"([{"labelSelector":{"matchExpressions":[{"key":"tier","operator":"NotIn","values":["frontend"]}]}}])",
       false},
      {"fields of one owner are ANDed: object matches, selector does not",
       R"([{"object":{"name":"web-0"},"labelSelector":{"matchLabels":{"app":"db"}}}])", false},
      {"fields of one owner are ANDed: controller fails",
       R"([{"object":{"name":"web-0"},"controller":{"kind":"StatefulSet"}}])", false},
      {"fields of one owner are ANDed: all match",
       R"([{"object":{"name":"web-0"},"controller":{"kind":"ReplicaSet"},"labelSelector":{"matchLabels":{"app":"web"}}}])",
       true},
      {"owners are ORed: the second matches",
       R"([{"object":{"name":"other"}},{"labelSelector":{"matchLabels":{"tier":"frontend"}}}])",
       true},
      {"owners are ORed: none matches",
       R"([{"object":{"name":"other"}},{"controller":{"uid":"nope"}}])", false},
      {"an invalid selector is an error",
       R"([{"labelSelector":{"matchExpressions":[{"key":"app","operator":"Near","values":["x"]}]}}])",
       false, "owners[0].labelSelector.matchExpressions[0].operator: "},
      {"an invalid selector is an error even after a matching owner",
       R"([{}, {"labelSelector":{"matchExpressions":[{"key":"app","operator":"In"}]}}])", false,
       "owners[1].labelSelector.matchExpressions[0]"},
  };
  const auto pod = basePod();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto got = matchOwners(decode<std::vector<api::scheduling::ReservationOwner>>(c.owners), pod);
    if (!c.want_error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(got.status().message().find(c.want_error), std::string::npos) << got.status();
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ReservationMatchingTest, MatchOwnerSingle) {
  const auto pod = basePod();
  auto all = matchOwner(api::scheduling::ReservationOwner{}, pod);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_TRUE(*all);

  auto bad = matchOwner(
      decode<api::scheduling::ReservationOwner>(
          R"({"labelSelector":{"matchExpressions":[{"key":"app","operator":"Gt","values":["1"]}]}})"),
      pod);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("labelSelector.matchExpressions[0].operator: ", 0), 0u)
      << bad.status();
}

// ---------------------------------------------------------------------------------------------
// Pod preferences

TEST(ReservationMatchingTest, PodReservationPrefsParsesLabelsAndAnnotations) {
  struct MatchCase {
    std::string name;
    StringMap labels = {};
    StringMap annotations = {};
    bool want_ignored = false;
    bool want_pre_allocation = false;
    bool want_required = false;
    std::optional<std::string> want_affinity_name = std::nullopt;  // nullopt: no affinity
    std::optional<std::vector<std::string>> want_exact = std::nullopt;
    std::string want_error = {};
  };
  const std::vector<MatchCase> cases = {
      {.name = "nothing set"},
      {.name = "reservation-ignored true", .labels = {{kIgnored, "true"}}, .want_ignored = true},
      {.name = "reservation-ignored other than true", .labels = {{kIgnored, "yes"}}},
      {.name = "pre-allocation-required makes the pod require a reservation",
       .labels = {{kPreAllocationRequired, "true"}},
       .want_pre_allocation = true,
       .want_required = true},
      {.name = "pre-allocation-required false", .labels = {{kPreAllocationRequired, "false"}}},
      {.name = "affinity makes the pod require a reservation",
       .annotations = {{kAffinity, R"({"name":"r1"})"}},
       .want_required = true,
       .want_affinity_name = "r1"},
      {.name = "an empty affinity value is an empty affinity",
       .annotations = {{kAffinity, ""}},
       .want_required = true,
       .want_affinity_name = ""},
      {.name = "exact match alone does not require a reservation",
       .annotations = {{kExactMatch, R"({"resourceNames":["cpu","memory"]})"}},
       .want_exact = std::vector<std::string>{"cpu", "memory"}},
      {.name = "malformed affinity JSON",
       .annotations = {{kAffinity, "{not json"}},
       .want_error = "failed to parse annotation 'scheduling.koordinator.sh/reservation-affinity'"},
      {.name = "affinity field of the wrong type",
       .annotations = {{kAffinity, R"({"name":5})"}},
       .want_error = "'scheduling.koordinator.sh/reservation-affinity': name"},
      {.name = "invalid selector term operator",
       .annotations =
           {{kAffinity,
             R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"pool","operator":"Near","values":["a"]}]}]}})"}},
       .want_error = "'scheduling.koordinator.sh/reservation-affinity': "
                     "requiredDuringSchedulingIgnoredDuringExecution.reservationSelectorTerms[0]."
                     "matchExpressions[0].operator: "},
      {.name = "malformed exact match",
       .annotations = {{kExactMatch, R"({"resourceNames":"cpu"})"}},
       .want_error =
           "failed to parse annotation 'scheduling.koordinator.sh/exact-match-reservation'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = basePod();
    pod.metadata.labels.insert(c.labels.begin(), c.labels.end());
    pod.metadata.annotations = c.annotations;
    auto got = podReservationPrefs(pod);
    if (!c.want_error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(got.status().message().find(c.want_error), std::string::npos) << got.status();
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->ignored, c.want_ignored);
    EXPECT_EQ(got->pre_allocation_required, c.want_pre_allocation);
    EXPECT_EQ(got->required(), c.want_required);
    ASSERT_EQ(got->affinity.has_value(), c.want_affinity_name.has_value());
    if (got->affinity) {
      EXPECT_EQ(got->affinity->name, *c.want_affinity_name);
    }
    ASSERT_EQ(got->exact_match.has_value(), c.want_exact.has_value());
    if (got->exact_match) {
      EXPECT_EQ(got->exact_match->resourceNames, *c.want_exact);
    }
  }
}

TEST(ReservationMatchingTest, ReservationOrderParsesTheLabel) {
  struct MatchCase {
    std::string name;
    std::optional<std::string> label;
    int64_t want;
  };
  const std::vector<MatchCase> cases = {
      {"absent", std::nullopt, 0},
      {"empty", "", 0},
      {"positive", "5", 5},
      {"large (a UnixMilli timestamp)", "1700000000000", 1700000000000},
      {"negative", "-3", -3},
      {"leading plus, as strconv.ParseInt", "+7", 7},
      {"int64 max", "9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"out of range", "9223372036854775808", 0},
      {"not a number", "abc", 0},
      {"trailing garbage", "12x", 0},
      {"leading space", " 5", 0},
      {"decimal", "1.5", 0},
      {"plus then minus", "+-5", 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    api::scheduling::Reservation r;
    r.metadata.labels = {{"other", "9"}};
    if (c.label) {
      r.metadata.labels[kOrder] = *c.label;
    }
    EXPECT_EQ(reservationOrder(r), c.want);
  }
}

// ---------------------------------------------------------------------------------------------
// matchReservation

// A Reservation named r1, owned by pods labelled app=web, with `spec` and `meta` fields added.
std::string owned(std::string_view spec = "", std::string_view meta = "") {
  std::string out = R"({"metadata":{"name":"r1")";
  if (!meta.empty()) {
    out += ",";
    out += meta;
  }
  out += R"(},"spec":{"template":{},"owners":[{"labelSelector":{"matchLabels":{"app":"web"}}}])";
  if (!spec.empty()) {
    out += ",";
    out += spec;
  }
  out += "}}";
  return out;
}

// The short form (spec.resources) without owners, named r1.
constexpr const char* kShortFormUnowned =
    R"({"metadata":{"name":"r1"},"spec":{"resources":{"requests":{"cpu":"2"}}}})";
constexpr const char* kTolerateUnschedulable =
    R"({"tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}]})";

struct MatchCase {
  std::string name;
  std::string reservation;  // JSON
  std::string affinity = kAbsent;
  std::string exact_match = kAbsent;
  bool want = false;
  StringMap node_labels = {{"zone", "a"}};
  Quantities requests = {{"cpu", "2"}};
  Quantities allocatable = {{"cpu", "2"}};
  std::string want_error = {};
};

void runMatchCases(const std::vector<MatchCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto pod = basePod();
    if (c.affinity != kAbsent) {
      pod.metadata.annotations[kAffinity] = c.affinity;
    }
    if (c.exact_match != kAbsent) {
      pod.metadata.annotations[kExactMatch] = c.exact_match;
    }
    auto prefs = podReservationPrefs(pod);
    ASSERT_TRUE(prefs.ok()) << prefs.status();
    auto r = decode<api::scheduling::Reservation>(c.reservation);
    auto got = matchReservation(*prefs, pod, r, c.node_labels, resourceList(c.requests),
                                resourceList(c.allocatable));
    if (!c.want_error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(got.status().message().find(c.want_error), std::string::npos) << got.status();
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(ReservationMatchingTest, MatchReservationOwnersAndShortForm) {
  runMatchCases({
      {.name = "owner matches, no affinity", .reservation = owned(), .want = true},
      {.name = "owner does not match",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"template":{},"owners":[{"object":{"name":"web-1"}}]}})"},
      {.name = "no owners match nothing",
       .reservation = R"({"metadata":{"name":"r1"},"spec":{"template":{}}})"},
      {.name = "[{}] matches everything",
       .reservation = R"({"metadata":{"name":"r1"},"spec":{"template":{},"owners":[{}]}})",
       .want = true},
      {.name = "invalid owner selector",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"template":{},"owners":[{"labelSelector":{"matchExpressions":[{"key":"app","operator":"Near","values":["x"]}]}}]}})",
       .want_error = "reservation 'r1': spec.owners[0].labelSelector.matchExpressions[0].operator"},
      {.name = "short form without owners: not matched without affinity",
       .reservation = kShortFormUnowned},
      {.name = "short form without owners: matched by name",
       .reservation = kShortFormUnowned,
       .affinity = R"({"name":"r1"})",
       .want = true},
      {.name = "short form without owners: another name",
       .reservation = kShortFormUnowned,
       .affinity = R"({"name":"r2"})"},
      {.name = "short form without owners: a selector alone is not enough",
       .reservation =
           R"({"metadata":{"name":"r1","labels":{"pool":"a"}},"spec":{"resources":{"requests":{"cpu":"2"}}}})",
       .affinity = R"({"reservationSelector":{"pool":"a"}})"},
      {.name = "short form without owners: by name, exact match still checked",
       .reservation = kShortFormUnowned,
       .affinity = R"({"name":"r1"})",
       .exact_match = R"({"resourceNames":["cpu"]})",
       .requests = {{"cpu", "1"}}},
      {.name = "short form without owners: by name, unschedulable is skipped",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"resources":{"requests":{"cpu":"2"}},"unschedulable":true}})",
       .affinity = R"({"name":"r1"})",
       .want = true},
      {.name = "short form with owners: owners decide",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"resources":{"requests":{"cpu":"2"}},"owners":[{"labelSelector":{"matchLabels":{"app":"web"}}}]}})",
       .want = true},
      {.name = "short form with owners: owners still required by name",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"resources":{"requests":{"cpu":"2"}},"owners":[{"labelSelector":{"matchLabels":{"app":"db"}}}]}})",
       .affinity = R"({"name":"r1"})"},
  });
}

TEST(ReservationMatchingTest, MatchReservationAffinityName) {
  runMatchCases({
      {.name = "name matches",
       .reservation = owned(),
       .affinity = R"({"name":"r1"})",
       .want = true},
      {.name = "another name", .reservation = owned(), .affinity = R"({"name":"r2"})"},
      {.name = "name matches but owners do not",
       .reservation =
           R"({"metadata":{"name":"r1"},"spec":{"template":{},"owners":[{"object":{"name":"web-1"}}]}})",
       .affinity = R"({"name":"r1"})"},
      {.name = "by name: unschedulable, taints and selectors are skipped",
       .reservation = owned(
           R"("unschedulable":true,"taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])",
           R"("labels":{"pool":"a"})"),
       .affinity =
           R"({"name":"r1","reservationSelector":{"pool":"b"},"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["r2"]}]}]}})",
       .want = true},
      {.name = "by name: exact match still checked",
       .reservation = owned(),
       .affinity = R"({"name":"r1"})",
       .exact_match = R"({"resourceNames":["cpu"]})",
       .requests = {{"cpu", "1"}}},
  });
}

TEST(ReservationMatchingTest, MatchReservationUnschedulableAndTaints) {
  runMatchCases({
      {.name = "unschedulable", .reservation = owned(R"("unschedulable":true)")},
      {.name = "terminating",
       .reservation = owned("", R"("deletionTimestamp":"2024-01-01T00:00:00Z")")},
      {.name = "unschedulable, tolerated",
       .reservation = owned(R"("unschedulable":true)"),
       .affinity = kTolerateUnschedulable,
       .want = true},
      {.name = "terminating, tolerated",
       .reservation = owned("", R"("deletionTimestamp":"2024-01-01T00:00:00Z")"),
       .affinity = kTolerateUnschedulable,
       .want = true},
      {.name = "unschedulable, another toleration",
       .reservation = owned(R"("unschedulable":true)"),
       .affinity =
           R"({"tolerations":[{"key":"other","operator":"Exists","effect":"NoSchedule"}]})"},
      {.name = "NoSchedule taint, no affinity",
       .reservation = owned(R"("taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])")},
      {.name = "NoSchedule taint, tolerated by value",
       .reservation = owned(R"("taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])"),
       .affinity =
           R"({"tolerations":[{"key":"dedicated","operator":"Equal","value":"x","effect":"NoSchedule"}]})",
       .want = true},
      {.name = "NoSchedule taint, toleration for another value",
       .reservation = owned(R"("taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])"),
       .affinity =
           R"({"tolerations":[{"key":"dedicated","operator":"Equal","value":"y","effect":"NoSchedule"}]})"},
      {.name = "NoExecute taint, untolerated",
       .reservation = owned(R"("taints":[{"key":"dedicated","effect":"NoExecute"}])"),
       .affinity =
           R"({"tolerations":[{"key":"dedicated","operator":"Exists","effect":"NoSchedule"}]})"},
      {.name = "PreferNoSchedule taint is not checked",
       .reservation = owned(R"("taints":[{"key":"dedicated","effect":"PreferNoSchedule"}])"),
       .want = true},
      {.name = "Exists with no key tolerates every taint",
       .reservation = owned(
           R"("taints":[{"key":"a","effect":"NoSchedule"},{"key":"b","value":"v","effect":"NoExecute"}])"),
       .affinity = R"({"tolerations":[{"operator":"Exists"}]})",
       .want = true},
      {.name = "every taint must be tolerated",
       .reservation = owned(
           R"("taints":[{"key":"a","effect":"NoSchedule"},{"key":"b","effect":"NoSchedule"}])"),
       .affinity = R"({"tolerations":[{"key":"a","operator":"Exists"}]})"},
  });
}

TEST(ReservationMatchingTest, MatchReservationSelectorsOnMergedLabels) {
  // Node labels zone=a unless a case says otherwise.
  const std::string zone_b = owned("", R"("labels":{"zone":"b","pool":"gpu"})");
  runMatchCases({
      {.name = "reservationSelector on a reservation label",
       .reservation = zone_b,
       .affinity = R"({"reservationSelector":{"pool":"gpu"}})",
       .want = true},
      {.name = "reservationSelector on a node label the reservation lacks",
       .reservation = owned(),
       .affinity = R"({"reservationSelector":{"zone":"a"}})",
       .want = true},
      {.name = "reservation labels win over node labels",
       .reservation = zone_b,
       .affinity = R"({"reservationSelector":{"zone":"a"}})"},
      {.name = "reservation labels win over node labels (matching value)",
       .reservation = zone_b,
       .affinity = R"({"reservationSelector":{"zone":"b"}})",
       .want = true},
      {.name = "reservationSelector: every label must be equal",
       .reservation = zone_b,
       .affinity = R"({"reservationSelector":{"zone":"b","pool":"cpu"}})"},
      {.name = "reservationSelector: missing label",
       .reservation = owned(),
       .affinity = R"({"reservationSelector":{"rack":"r1"}})"},
      {.name = "term on merged labels: reservation value",
       .reservation = zone_b,
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}]}})",
       .want = true},
      {.name = "term on merged labels: the node value is hidden",
       .reservation = zone_b,
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}})"},
      {.name = "term on a node label",
       .reservation = owned(),
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"gpus","operator":"Gt","values":["2"]}]}]}})",
       .want = true,
       .node_labels = {{"zone", "a"}, {"gpus", "4"}}},
      {.name = "terms are ORed",
       .reservation = zone_b,
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["x"]}]},{"matchExpressions":[{"key":"pool","operator":"Exists"}]}]}})",
       .want = true},
      {.name = "no term matches",
       .reservation = zone_b,
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["x"]}]},{"matchExpressions":[{"key":"pool","operator":"DoesNotExist"}]}]}})"},
      {.name = "matchFields on the fake node's name",
       .reservation = owned(),
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["r1"]}]}]}})",
       .want = true},
      {.name = "matchFields on another name",
       .reservation = owned(),
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["r2"]}]}]}})"},
      {.name = "an empty term list matches nothing",
       .reservation = owned(),
       .affinity =
           R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[]}})"},
      {.name = "selector and terms must both hold",
       .reservation = zone_b,
       .affinity =
           R"({"reservationSelector":{"pool":"gpu"},"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"NotIn","values":["b"]}]}]}})"},
      {.name = "selectors do not bypass the owners",
       .reservation =
           R"({"metadata":{"name":"r1","labels":{"pool":"gpu"}},"spec":{"template":{},"owners":[{"object":{"name":"web-1"}}]}})",
       .affinity = R"({"reservationSelector":{"pool":"gpu"}})"},
  });
}

TEST(ReservationMatchingTest, MatchReservationExactMatch) {
  runMatchCases({
      {.name = "equal quantities",
       .reservation = owned(),
       .exact_match = R"({"resourceNames":["cpu"]})",
       .want = true,
       .requests = {{"cpu", "2000m"}, {"memory", "1Gi"}},
       .allocatable = {{"cpu", "2"}, {"memory", "4Gi"}}},
      {.name = "a listed resource differs",
       .reservation = owned(),
       .exact_match = R"({"resourceNames":["cpu","memory"]})",
       .requests = {{"cpu", "2"}, {"memory", "1Gi"}},
       .allocatable = {{"cpu", "2"}, {"memory", "4Gi"}}},
      {.name = "without the annotation quantities may differ",
       .reservation = owned(),
       .want = true,
       .requests = {{"cpu", "1"}},
       .allocatable = {{"cpu", "4"}}},
      {.name = "listed resource only on the pod",
       .reservation = owned(),
       .exact_match = R"({"resourceNames":["cpu","memory"]})",
       .requests = {{"cpu", "2"}, {"memory", "1Gi"}},
       .allocatable = {{"cpu", "2"}}},
      {.name = "absent on both sides does not stop the check (koord fix of a Koordinator quirk)",
       .reservation = owned(),
       .exact_match = R"({"resourceNames":["nvidia.com/gpu","cpu"]})",
       .requests = {{"cpu", "1"}},
       .allocatable = {{"cpu", "2"}}},
      {.name = "checked after the selectors pass",
       .reservation = owned("", R"("labels":{"pool":"gpu"})"),
       .affinity = R"({"reservationSelector":{"pool":"gpu"}})",
       .exact_match = R"({"resourceNames":["cpu"]})",
       .requests = {{"cpu", "1"}}},
  });
}

TEST(ReservationMatchingTest, MatchReservationReportsInvalidTermsInHandBuiltPrefs) {
  // podReservationPrefs rejects such terms; prefs built by hand still get an error, not a match.
  PodReservationPrefs prefs;
  prefs.affinity = decode<api::extension::ReservationAffinity>(
      R"({"requiredDuringSchedulingIgnoredDuringExecution":{"reservationSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]},{"matchExpressions":[{"key":"zone","operator":"In"}]}]}})");
  const auto pod = basePod();
  auto r = decode<api::scheduling::Reservation>(owned());
  auto got = matchReservation(prefs, pod, r, {{"zone", "a"}}, {}, {});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(got.status().message().find("reservationSelectorTerms[1].matchExpressions[0]"),
            std::string::npos)
      << got.status();
}

TEST(ReservationMatchingTest, PrefsRequiredIsAffinityOrPreAllocation) {
  PodReservationPrefs prefs;
  EXPECT_FALSE(prefs.required());
  prefs.ignored = true;
  prefs.exact_match = api::extension::ExactMatchReservationSpec{};
  EXPECT_FALSE(prefs.required());
  prefs.pre_allocation_required = true;
  EXPECT_TRUE(prefs.required());
  prefs.pre_allocation_required = false;
  prefs.affinity = api::extension::ReservationAffinity{};
  EXPECT_TRUE(prefs.required());
}

}  // namespace
}  // namespace koord::extender::plugins::common
