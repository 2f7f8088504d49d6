// The Reservation and slo-controller-config validating webhooks.
#include "manager/webhook/object_validating.hpp"

#include <gtest/gtest.h>

#include <string>

#include "test/unit/manager/webhook/fixture.hpp"

namespace koord::manager::webhook {
namespace {

using api::Json;
using testing::json;
using testing::request;

api::admission::AdmissionRequest reservationRequest(std::string operation, const Json& object,
                                                    const Json& old = Json()) {
  return request(std::move(operation), "reservations", object, old, "scheduling.koordinator.sh");
}

constexpr const char* kReservation = R"({"apiVersion": "scheduling.koordinator.sh/v1alpha1",
  "kind": "Reservation", "metadata": {"name": "r1"},
  "spec": {"template": {"spec": {"containers": [{"name": "c",
    "resources": {"requests": {"cpu": "2"}}}]}}, "owners": [{"object": {"name": "p"}}],
    "ttl": "1h"}})";

TEST(ReservationValidatingTest, CreateAndUpdate) {
  ReservationValidatingHandler handler({});
  EXPECT_TRUE(handler.admit(reservationRequest("CREATE", json(kReservation))).allowed);

  Json bad = json(kReservation);
  bad["spec"].erase("owners");
  bad["spec"]["ttl"] = "-1h";
  auto denied = handler.admit(reservationRequest("CREATE", bad));
  EXPECT_FALSE(denied.allowed);
  ASSERT_TRUE(denied.result.has_value());
  EXPECT_EQ(denied.result->code, 403);
  EXPECT_EQ(denied.result->message.rfind("failed to validate Reservation 'r1': ", 0), 0U)
      << denied.result->message;
  EXPECT_NE(denied.result->message.find("spec.ttl: must not be negative"), std::string::npos);

  Json moved = json(kReservation);
  moved["spec"]["ttl"] = "2h";
  EXPECT_TRUE(handler.admit(reservationRequest("UPDATE", moved, json(kReservation))).allowed);
  moved["spec"]["owners"] = json(R"([{"object": {"name": "q"}}])");
  auto immutable = handler.admit(reservationRequest("UPDATE", moved, json(kReservation)));
  EXPECT_FALSE(immutable.allowed);
  EXPECT_EQ(immutable.result->message,
            "failed to validate the update of Reservation 'r1': spec.owners: field is immutable");
}

TEST(ReservationValidatingTest, BadInput) {
  ReservationValidatingHandler handler({});
  auto missing = handler.admit(reservationRequest("CREATE", Json()));
  EXPECT_FALSE(missing.allowed);
  EXPECT_EQ(missing.result->code, 400);
  EXPECT_EQ(missing.result->message,
            "failed to decode Reservation: request.object: expected object");
  auto no_old = handler.admit(reservationRequest("UPDATE", json(kReservation)));
  EXPECT_FALSE(no_old.allowed);
  EXPECT_EQ(no_old.result->code, 400);
  auto wrong = handler.admit(
      reservationRequest("CREATE", json(R"({"spec": {"allocatePolicy": "Default"}})")));
  EXPECT_FALSE(wrong.allowed);
  EXPECT_EQ(wrong.result->code, 400);
  // DELETE and other resources are none of its business.
  EXPECT_TRUE(handler.admit(reservationRequest("DELETE", Json())).allowed);
  EXPECT_TRUE(handler.admit(request("CREATE", "pods", Json())).allowed);
}

Json configMap(const std::string& ns, const std::string& name, const Json& data) {
  Json cm = json(R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}})");
  cm["metadata"]["namespace"] = ns;
  cm["metadata"]["name"] = name;
  cm["data"] = data;
  return cm;
}

TEST(ConfigMapValidatingTest, OnlyTheSloControllerConfigIsChecked) {
  ConfigMapValidatingHandler handler({});
  const Json good = json(R"({"colocation-config": "{\"enable\": true}",
      "resource-threshold-config": "{\"clusterStrategy\": {\"enable\": true}}"})");
  const Json bad =
      json(R"({"resource-threshold-config": "{\"clusterStrategy\": {\"enabel\": true}}"})");
  struct Case {
    std::string name;
    std::string operation;
    Json object;
    std::string message;  // "" when allowed
  };
  const std::vector<Case> cases = {
      {"valid config", "CREATE", configMap("koordinator-system", "slo-controller-config", good),
       ""},
      {"invalid config on CREATE", "CREATE",
       configMap("koordinator-system", "slo-controller-config", bad),
       "invalid slo-controller-config: resource-threshold-config: line 1: clusterStrategy: "
       "unknown field \"enabel\" (did you mean \"enable\"?)"},
      {"invalid config on UPDATE", "UPDATE",
       configMap("koordinator-system", "slo-controller-config", bad),
       "invalid slo-controller-config: resource-threshold-config: line 1: clusterStrategy: "
       "unknown field \"enabel\" (did you mean \"enable\"?)"},
      {"same name, other namespace", "CREATE", configMap("default", "slo-controller-config", bad),
       ""},
      {"other name", "CREATE", configMap("koordinator-system", "other", bad), ""},
      {"DELETE", "DELETE", Json(), ""},
  };
  for (const auto& tc : cases) {
    auto response = handler.admit(request(tc.operation, "configmaps", tc.object, tc.object));
    EXPECT_EQ(response.allowed, tc.message.empty()) << tc.name;
    if (!tc.message.empty()) {
      ASSERT_TRUE(response.result.has_value()) << tc.name;
      EXPECT_EQ(response.result->code, 403) << tc.name;
      EXPECT_EQ(response.result->message, tc.message) << tc.name;
    }
  }
}

TEST(ConfigMapValidatingTest, NamesAreConfigurableAndBadObjectsDenied) {
  ConfigMapValidatingHandler handler({}, "koord", "slo");
  const Json bad = json(R"({"cpu-burst-config": "not json"})");
  EXPECT_FALSE(
      handler.admit(request("CREATE", "configmaps", configMap("koord", "slo", bad))).allowed);
  EXPECT_TRUE(handler
                  .admit(request("CREATE", "configmaps",
                                 configMap("koordinator-system", "slo-controller-config", bad)))
                  .allowed);
  auto missing = handler.admit(request("CREATE", "configmaps", Json()));
  EXPECT_FALSE(missing.allowed);
  EXPECT_EQ(missing.result->code, 400);
  auto wrong = handler.admit(request("CREATE", "configmaps", json(R"({"data": {"a": 1}})")));
  EXPECT_FALSE(wrong.allowed);
  EXPECT_EQ(wrong.result->code, 400);
}

}  // namespace
}  // namespace koord::manager::webhook
