#include "koord/api/scheduling/reservation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace koord::api::scheduling {
namespace {

constexpr const char* kFullReservation = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1",
  "kind": "Reservation",
  "metadata": {"name": "reservation-demo", "uid": "r-uid", "labels": {"team": "a"}},
  "spec": {
    "template": {
      "metadata": {"namespace": "default"},
      "spec": {
        "containers": [{"name": "stress", "image": "polinux/stress",
                        "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}],
        "schedulerName": "koord-scheduler",
        "tolerations": [{"key": "dedicated", "operator": "Exists"}]
      }
    },
    "owners": [
      {"object": {"name": "pod-demo-0", "namespace": "default"}},
      {"controller": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web",
                      "uid": "d-uid", "controller": true, "namespace": "default"}},
      {"labelSelector": {"matchLabels": {"app": "web"}}}
    ],
    "ttl": "1h",
    "allocateOnce": false,
    "allocatePolicy": "Restricted",
    "preAllocationPolicy": {"mode": "Cluster", "enableMultiple": true},
    "taints": [{"key": "reserved", "effect": "NoSchedule"}],
    "futureSpecField": {"x": 1}
  },
  "status": {
    "phase": "Available",
    "nodeName": "node-1",
    "conditions": [{"type": "Scheduled", "status": "True", "reason": "Scheduled",
                    "lastProbeTime": "2024-05-01T10:00:00Z",
                    "lastTransitionTime": "2024-05-01T10:00:00Z"}],
    "currentOwners": [{"namespace": "default", "name": "pod-demo-0", "uid": "p-uid"}],
    "allocatable": {"cpu": "500m", "memory": "1Gi"},
    "allocated": {"cpu": "500m"}
  },
  "futureTopLevel": true
})";

constexpr const char* kShortForm =
    R"({"apiVersion":"scheduling.koordinator.sh/v1","kind":"Reservation","metadata":{"name":"game-server-reservation"},"spec":{"resources":{"requests":{"cpu":"4","memory":"8Gi"}}}})";

Reservation decodeOrDie(const char* text) {
  auto r = decode<Reservation>(text);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : Reservation{};
}

TEST(ReservationTest, DecodesEveryField) {
  Reservation r = decodeOrDie(kFullReservation);
  EXPECT_EQ(r.apiVersion, "scheduling.koordinator.sh/v1alpha1");
  EXPECT_EQ(r.metadata.name, "reservation-demo");
  ASSERT_TRUE(r.spec.template_.has_value());
  ASSERT_EQ(r.spec.template_->spec.containers.size(), 1U);
  EXPECT_EQ(r.spec.template_->spec.schedulerName, "koord-scheduler");
  ASSERT_EQ(r.spec.owners.size(), 3U);
  EXPECT_EQ(r.spec.owners[0].object->name, "pod-demo-0");
  EXPECT_EQ(r.spec.owners[1].controller->reference.kind, "Deployment");
  EXPECT_EQ(r.spec.owners[1].controller->namespace_, "default");
  EXPECT_TRUE(r.spec.owners[1].controller->reference.extra.is_null());
  EXPECT_EQ(r.spec.owners[2].labelSelector->matchLabels.at("app"), "web");
  EXPECT_EQ(r.spec.ttl, "1h");
  EXPECT_EQ(r.spec.allocateOnce, false);
  EXPECT_EQ(r.spec.allocatePolicy, ReservationAllocatePolicy::kRestricted);
  EXPECT_EQ(r.spec.preAllocationPolicy->mode, PreAllocationMode::kCluster);
  EXPECT_TRUE(r.spec.preAllocationPolicy->enableMultiple);
  ASSERT_EQ(r.spec.taints.size(), 1U);
  EXPECT_EQ(r.status.phase, kReservationAvailable);
  EXPECT_EQ(r.status.nodeName, "node-1");
  EXPECT_EQ(r.status.allocatable.at("memory").toString(), "1Gi");
  EXPECT_EQ(r.status.currentOwners[0].uid, "p-uid");
  EXPECT_TRUE(validateReservation(r).isOk()) << validateReservation(r);
}

TEST(ReservationTest, RoundTripKeepsUnknownFields) {
  Json in = Json::parse(kFullReservation);
  Reservation r = decodeOrDie(kFullReservation);
  Json out = toJson(r);
  EXPECT_EQ(out["futureTopLevel"], true);
  EXPECT_EQ(out["spec"]["futureSpecField"]["x"], 1);
  EXPECT_EQ(out["spec"]["owners"], in["spec"]["owners"]);
  EXPECT_EQ(out["spec"]["preAllocationPolicy"], in["spec"]["preAllocationPolicy"]);
  EXPECT_EQ(out["status"]["conditions"], in["status"]["conditions"]);
  // Decoding what we wrote yields the same model.
  Reservation again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, r);
}

TEST(ReservationTest, ShortFormValidatesAndExpands) {
  Reservation r = decodeOrDie(kShortForm);
  EXPECT_EQ(r.apiVersion, "scheduling.koordinator.sh/v1");
  EXPECT_TRUE(r.spec.owners.empty());
  EXPECT_FALSE(r.spec.template_.has_value());
  Status valid = validateReservation(r);
  EXPECT_TRUE(valid.isOk()) << valid;

  auto tmpl = effectiveTemplate(r);
  ASSERT_TRUE(tmpl.has_value());
  ASSERT_EQ(tmpl->spec.containers.size(), 1U);
  const auto& c = tmpl->spec.containers[0];
  EXPECT_EQ(c.name, "reservation");
  EXPECT_EQ(c.resources.requests.at("cpu").toString(), "4");
  EXPECT_EQ(c.resources.requests.at("memory").toString(), "8Gi");
  EXPECT_TRUE(c.resources.limits.empty());

  // Written back as it came: the short form, without an owners key, apiVersion kept.
  Json out = toJson(r);
  EXPECT_EQ(out["apiVersion"], "scheduling.koordinator.sh/v1");
  EXPECT_EQ(out["spec"], Json::parse(R"({"resources":{"requests":{"cpu":"4","memory":"8Gi"}}})"));
}

TEST(ReservationTest, EffectiveTemplatePrefersTheTemplate) {
  Reservation full = decodeOrDie(kFullReservation);
  EXPECT_EQ(effectiveTemplate(full), full.spec.template_);
  EXPECT_FALSE(effectiveTemplate(Reservation{}).has_value());
}

TEST(ReservationTest, Defaults) {
  Reservation r = decodeOrDie(kShortForm);
  applyReservationDefaults(r);
  EXPECT_EQ(r.spec.allocateOnce, true);
  EXPECT_EQ(r.spec.ttl, "24h");

  Reservation with_expires = decodeOrDie(kShortForm);
  with_expires.spec.expires = "2030-01-01T00:00:00Z";
  with_expires.spec.allocateOnce = false;
  applyReservationDefaults(with_expires);
  EXPECT_FALSE(with_expires.spec.ttl.has_value());
  EXPECT_EQ(with_expires.spec.allocateOnce, false);
}

TEST(ReservationTest, ValidationListsEveryError) {
  struct Case {
    std::string name;
    std::string spec;
    std::vector<std::string> errors;
  };
  const std::vector<Case> cases = {
      {"empty spec",
       "{}",
       {"spec.template: required (or the short form spec.resources)",
        "spec.owners: required (at least one owner)"}},
      {"template and short form",
       R"({"template":{"spec":{}},"resources":{"requests":{"cpu":"1"}},
           "owners":[{"object":{"name":"p"}}]})",
       {"spec.resources: must not be set together with spec.template"}},
      {"short form without requests, negative limit",
       R"({"resources":{"limits":{"cpu":"-1"}}})",
       {"spec.resources.requests: required", "spec.resources.limits.cpu: must not be negative"}},
      {"owner with nothing set, bad ttl, empty expires",
       R"({"template":{},"owners":[{"object":{"name":"p"}},{}],"ttl":"1 day","expires":""})",
       {"spec.owners[1]: must set at least one of object, controller, labelSelector",
        "spec.ttl: invalid duration \"1 day\": unknown unit \" day\"",
        "spec.expires: must not be empty"}},
      {"negative ttl",
       R"({"template":{},"owners":[{"labelSelector":{}}],"ttl":"-1h"})",
       {"spec.ttl: must not be negative"}},
      {"ttl and expires both, expires not a time",
       R"({"template":{},"owners":[{"labelSelector":{}}],"ttl":"1h","expires":"tomorrow"})",
       {"spec.expires: invalid time \"tomorrow\": want RFC 3339 such as 2006-01-02T15:04:05Z",
        "spec.ttl: must not be set together with spec.expires"}},
  };
  for (const auto& tc : cases) {
    std::string text = R"({"metadata":{"name":"r1"},"spec":)" + tc.spec + "}";
    auto r = decode<Reservation>(text);
    ASSERT_TRUE(r.ok()) << tc.name << ": " << r.status();
    Status s = validateReservation(*r);
    ASSERT_FALSE(s.isOk()) << tc.name;
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    std::string want = "failed to validate Reservation 'r1': ";
    for (size_t i = 0; i < tc.errors.size(); ++i) {
      want += (i > 0 ? "; " : "") + tc.errors[i];
    }
    EXPECT_EQ(s.message(), want) << tc.name;
  }
}

TEST(ReservationTest, ValidationAcceptsTtlAndExpiresTogether) {
  // The API server defaults ttl even when expires is set; expires is checked first.
  auto r = decode<Reservation>(R"({"spec":{"template":{},"owners":[{"object":{"name":"p"}}],
                                   "ttl":"24h","expires":"2030-01-01T00:00:00Z"}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(validateReservation(*r).isOk());
}

TEST(ReservationTest, UpdateKeepsTheSpecThatPlacedIt) {
  auto old = decode<Reservation>(R"({"metadata":{"name":"r1"},"spec":{"template":{},
      "owners":[{"object":{"name":"p"}}],"ttl":"1h"}})");
  ASSERT_TRUE(old.ok()) << old.status();
  Reservation updated = *old;
  updated.spec.ttl = "2h";  // ttl may change
  updated.spec.unschedulable = true;
  EXPECT_TRUE(validateReservationUpdate(*old, updated).isOk());
  updated.spec.owners.clear();
  updated.spec.allocateOnce = false;
  updated.spec.allocatePolicy = ReservationAllocatePolicy::kRestricted;
  Status s = validateReservationUpdate(*old, updated);
  EXPECT_EQ(s.message(),
            "failed to validate the update of Reservation 'r1': spec.owners: field is immutable; "
            "spec.allocateOnce: field is immutable; spec.allocatePolicy: field is immutable; "
            "spec.owners: required (at least one owner)");
}

TEST(ReservationTest, DecodeErrors) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"spec":{"allocatePolicy":"Default"}})",
       "spec.allocatePolicy: unsupported value \"Default\": supported values: \"\", "
       "\"Aligned\", \"Restricted\""},
      {R"({"spec":{"owners":[{"controller":{"namespace":7}}]}})",
       "spec.owners[0].controller.namespace: expected string, got number"},
      {R"({"spec":{"resources":{"requests":{"cpu":"lots"}}}})", ""},
      {R"({"spec":{"preAllocationPolicy":{"mode":"Node"}}})",
       "spec.preAllocationPolicy.mode: unsupported value \"Node\": supported values: "
       "\"Default\", \"Cluster\""},
      {R"({"status":{"allocatable":[]}})", "status.allocatable: expected object, got array"},
  };
  for (const auto& tc : cases) {
    auto r = decode<Reservation>(tc.text);
    ASSERT_FALSE(r.ok()) << tc.text;
    if (tc.message.empty()) {
      EXPECT_EQ(r.status().message().rfind("spec.resources.requests.cpu: ", 0), 0U) << r.status();
    } else {
      EXPECT_EQ(r.status().message(), tc.message);
    }
  }
}

}  // namespace
}  // namespace koord::api::scheduling
