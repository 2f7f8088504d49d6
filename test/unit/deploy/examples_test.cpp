// The examples of deploy/examples/: every custom resource validates against its CRD with no field
// the apiserver would prune, every kind has an example, the release-note examples are there, and
// broken variants of the examples are rejected with the field named.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "deploy_test_util.hpp"
#include "koord/api/registry.hpp"
#include "test/support/schema/crd.hpp"
#include "test/support/schema/validator.hpp"

namespace koord::deploy_test {
namespace {

using testing::schema::Json;

// apiVersions of objects that are not custom resources (no CRD schema to check against).
bool isBuiltIn(const std::string& api_version) {
  static const std::set<std::string> kBuiltIn = {"v1", "apps/v1", "batch/v1",
                                                 "descheduler/v1alpha2"};
  return kBuiltIn.count(api_version) != 0;
}

std::string objectName(const Manifest& m) {
  return m.file + "#" + std::to_string(m.index) + " (" + m.doc.value.value("kind", "?") + ")";
}

TEST(ExamplesTest, EveryCustomResourceValidatesWithNothingPruned) {
  const testing::schema::CrdCatalog catalog = loadCatalog();
  ASSERT_EQ(catalog.size(), 12u) << "10 CRDs, two of them serving two versions";
  int checked = 0;
  for (const Manifest& example : loadManifests("deploy/examples")) {
    SCOPED_TRACE(objectName(example));
    const std::string api_version = example.doc.value.value("apiVersion", "");
    const std::string kind = example.doc.value.value("kind", "");
    if (isBuiltIn(api_version)) {
      continue;
    }
    const Json* schema = catalog.find(api_version, kind);
    ASSERT_NE(schema, nullptr) << "no CRD serves " << api_version << " " << kind;
    auto result = testing::schema::validateObject(*schema, example.doc.value);
    for (const auto& error : result.errors) {
      ADD_FAILURE() << "line " << example.doc.lineOf("") << ": " << error.toString();
    }
    for (const std::string& warning : result.warnings) {
      ADD_FAILURE() << warning;
    }
    ++checked;
  }
  EXPECT_GE(checked, 12);
}

TEST(ExamplesTest, EveryExampleDecodesIntoItsModel) {
  int checked = 0;
  for (const Manifest& example : loadManifests("deploy/examples")) {
    SCOPED_TRACE(objectName(example));
    if (example.doc.value.value("apiVersion", "") == "descheduler/v1alpha2") {
      continue;  // a component config, not an API object (see descheduler_config_test)
    }
    if (example.doc.value.value("kind", "") == "Namespace") {
      continue;  // a built-in kind koord has no model for; the apiserver checks it
    }
    Status status = api::validateKnownObject(example.doc.value);
    EXPECT_TRUE(status.isOk()) << status;
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST(ExamplesTest, EveryCrdKindHasAnExample) {
  std::set<std::string> example_kinds;
  for (const Manifest& example : loadManifests("deploy/examples")) {
    example_kinds.insert(example.doc.value.value("kind", ""));
  }
  for (const Manifest& crd : loadManifests("deploy/crds")) {
    const std::string kind = crd.doc.value.at("spec").at("names").at("kind");
    EXPECT_TRUE(example_kinds.count(kind)) << "no example of " << kind;
  }
}

TEST(ExamplesTest, ReleaseNoteExamplesAreShipped) {
  const std::vector<std::string> files = yamlFiles("deploy/examples");
  const std::set<std::string> have(files.begin(), files.end());
  for (const char* file : {"podmigrationjob-v0.6.0.yaml", "node-reservation-v1.2.0.yaml",
                           "slo-controller-config-resctrl-v1.2.0.yaml",
                           "descheduler-config-v1.2.0.yaml", "reservation-short-form.yaml"}) {
    EXPECT_TRUE(have.count(file)) << file;
  }
}

TEST(ExamplesTest, NodeReservationAnnotationsOfV120Decode) {
  std::vector<Json> reservations;
  for (const Manifest& m : loadManifests("deploy/examples")) {
    if (m.file == "node-reservation-v1.2.0.yaml") {
      const std::string text =
          m.doc.value.at("metadata").at("annotations").at("node.koordinator.sh/reservation");
      reservations.push_back(Json::parse(text));
    }
  }
  ASSERT_EQ(reservations.size(), 2u);
  EXPECT_EQ(reservations[0].at("resources").at("cpu"), "5");
  EXPECT_EQ(reservations[1].at("reservedCPUs"), "0-3");
}

TEST(ExamplesTest, ResctrlConfigOfV120GivesBEThirtyPercentOfTheCache) {
  for (const Manifest& m : loadManifests("deploy/examples")) {
    if (m.file != "slo-controller-config-resctrl-v1.2.0.yaml") {
      continue;
    }
    EXPECT_EQ(m.doc.value.at("metadata").at("name"), "slo-controller-config");
    EXPECT_EQ(m.doc.value.at("metadata").at("namespace"), "koordinator-system");
    const Json qos = Json::parse(std::string(m.doc.value.at("data").at("resource-qos-config")));
    const Json& be = qos.at("clusterStrategy").at("beClass").at("resctrlQOS");
    EXPECT_EQ(be.at("enable"), true);
    EXPECT_EQ(be.at("catRangeEndPercent"), 30);
    EXPECT_EQ(qos.at("clusterStrategy").at("lsClass").at("resctrlQOS").at("catRangeEndPercent"),
              100);
    return;
  }
  FAIL() << "example missing";
}

TEST(ExamplesTest, ShortFormReservationIsVerbatimAndDefaultsLikeTheApiserver) {
  const std::string kVerbatim =
      "apiVersion: scheduling.koordinator.sh/v1\n"
      "kind: Reservation\n"
      "metadata:\n"
      "  name: game-server-reservation\n"
      "spec:\n"
      "  resources:\n"
      "    requests:\n"
      "      cpu: \"4\"\n"
      "      memory: \"8Gi\"\n";
  EXPECT_EQ(readSource("deploy/examples/reservation-short-form.yaml"), kVerbatim);

  const testing::schema::CrdCatalog catalog = loadCatalog();
  const Json* v1 = catalog.find("scheduling.koordinator.sh/v1", "Reservation");
  ASSERT_NE(v1, nullptr);
  auto docs = config::parseYamlDocuments(kVerbatim, "short-form");
  ASSERT_TRUE(docs.ok()) << docs.status();
  const Json& reservation = docs->front().value;
  auto result = testing::schema::validateObject(*v1, reservation);
  EXPECT_TRUE(result.ok()) << result.toStatus("short form");
  EXPECT_TRUE(result.warnings.empty());
  const Json defaulted = testing::schema::applyDefaults(*v1, reservation);
  EXPECT_EQ(defaulted.at("spec").at("allocateOnce"), true);
  EXPECT_EQ(defaulted.at("spec").at("ttl"), "24h");
  EXPECT_EQ(defaulted.at("spec").at("resources").at("requests").at("cpu"), "4");
  EXPECT_FALSE(defaulted.contains("status")) << "defaults never create a parent object";
}

struct BrokenExample {
  std::string name;
  std::string api_version;
  std::string kind;
  std::string yaml;
  std::string error;    // a substring of the errors, "" when the object is valid
  std::string warning;  // a substring of the warnings, "" when none expected
};

TEST(ExamplesTest, BrokenObjectsAreRejectedNamingTheField) {
  const std::vector<BrokenExample> cases = {
      {"reservation bad enum", "scheduling.koordinator.sh/v1alpha1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 1}}\n  allocatePolicy: Greedy\n",
       "spec.allocatePolicy: Unsupported value: \"Greedy\": supported values: \"Default\", "
       "\"Aligned\", \"Restricted\"",
       ""},
      {"reservation bad pre-allocation mode", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 1}}\n"
       "  preAllocationPolicy: {mode: Everywhere}\n",
       "spec.preAllocationPolicy.mode: Unsupported value: \"Everywhere\"", ""},
      {"reservation empty owners", "scheduling.koordinator.sh/v1alpha1", "Reservation",
       "metadata: {name: r}\nspec:\n  template: {spec: {}}\n  owners: []\n",
       "spec.owners: Invalid value: 0: should have at least 1 items", ""},
      {"reservation empty owner", "scheduling.koordinator.sh/v1alpha1", "Reservation",
       "metadata: {name: r}\nspec:\n  template: {spec: {}}\n  owners: [{}]\n",
       "spec.owners[0]: Invalid value: 0: should have at least 1 properties", ""},
      {"reservation controller owner without uid", "scheduling.koordinator.sh/v1alpha1",
       "Reservation",
       "metadata: {name: r}\nspec:\n  template: {spec: {}}\n"
       "  owners: [{controller: {apiVersion: apps/v1, kind: ReplicaSet, name: rs}}]\n",
       "spec.owners[0].controller.uid: Required value", ""},
      {"reservation quantity that is not one", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: four}}\n",
       "spec.resources.requests.cpu: Invalid value: \"four\": should match", ""},
      {"reservation ttl as a number", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 1}}\n  ttl: 3600\n",
       "spec.ttl: Invalid value: 3600: must be of type string", ""},
      {"reservation expires not a time", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 1}}\n  expires: tomorrow\n",
       "spec.expires: Invalid value: \"tomorrow\": must be of format date-time", ""},
      {"reservation without a name", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {labels: {a: b}}\nspec:\n  resources: {requests: {cpu: 1}}\n",
       "metadata.name: Required value", ""},
      {"reservation misspelt owners", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 1}}\n  ownres: []\n", "",
       "unknown field \"spec.ownres\""},
      {"migration job without podRef", "scheduling.koordinator.sh/v1alpha1", "PodMigrationJob",
       "metadata: {name: j}\nspec:\n  ttl: 5m\n", "spec.podRef: Required value", ""},
      {"migration job bad mode", "scheduling.koordinator.sh/v1alpha1", "PodMigrationJob",
       "metadata: {name: j}\nspec:\n  mode: Teleport\n  podRef: {name: p, namespace: d}\n",
       "spec.mode: Unsupported value: \"Teleport\"", ""},
      {"device minor beyond int32", "scheduling.koordinator.sh/v1alpha1", "Device",
       "metadata: {name: n}\nspec:\n  devices: [{type: gpu, minor: 3000000000}]\n",
       "spec.devices[0].minor: Invalid value: 3000000000: must be of format int32", ""},
      {"device topology without pcieID", "scheduling.koordinator.sh/v1alpha1", "Device",
       "metadata: {name: n}\nspec:\n  devices: [{type: gpu, topology: {socketID: 0, nodeID: 0}}]\n",
       "spec.devices[0].topology.pcieID: Required value", ""},
      {"nodeslo percent above 100", "slo.koordinator.sh/v1alpha1", "NodeSLO",
       "metadata: {name: n}\nspec:\n  resourceUsedThresholdWithBE: {cpuSuppressThresholdPercent: "
       "150}\n",
       "spec.resourceUsedThresholdWithBE.cpuSuppressThresholdPercent: Invalid value: 150: should "
       "be less than or equal to 100",
       ""},
      {"nodeslo network limit as bool", "slo.koordinator.sh/v1alpha1", "NodeSLO",
       "metadata: {name: n}\nspec:\n  resourceQOSStrategy: {beClass: {networkQOS: {ingressLimit: "
       "true}}}\n",
       "must be of type integer or string", ""},
      {"colocation profile bad qos", "config.koordinator.sh/v1alpha1", "ClusterColocationProfile",
       "metadata: {name: p}\nspec:\n  qosClass: Gold\n",
       "spec.qosClass: Unsupported value: \"Gold\": supported values: \"LSE\", \"LSR\", \"LS\", "
       "\"BE\", \"SYSTEM\"",
       ""},
      {"quota profile without nodeSelector", "quota.koordinator.sh/v1alpha1", "ElasticQuotaProfile",
       "metadata: {name: p, namespace: q}\nspec:\n  quotaName: q\n",
       "spec.nodeSelector: Required value", ""},
      {"podgroup negative minMember", "scheduling.sigs.k8s.io/v1alpha1", "PodGroup",
       "metadata: {name: g, namespace: d}\nspec:\n  minMember: -1\n",
       "spec.minMember: Invalid value: -1: should be greater than or equal to 0", ""},
      {"topology zone without type", "topology.node.k8s.io/v1alpha2", "NodeResourceTopology",
       "metadata: {name: n}\nzones: [{name: node-0}]\n", "zones[0].type: Required value", ""},
      {"v1alpha1 topology without policies", "topology.node.k8s.io/v1alpha1",
       "NodeResourceTopology", "metadata: {name: n}\nzones: []\n",
       "topologyPolicies: Required value", ""},
      {"valid short form for contrast", "scheduling.koordinator.sh/v1", "Reservation",
       "metadata: {name: r}\nspec:\n  resources: {requests: {cpu: 4, memory: 8Gi}}\n", "", ""},
  };
  const testing::schema::CrdCatalog catalog = loadCatalog();
  for (const BrokenExample& c : cases) {
    SCOPED_TRACE(c.name);
    const Json* schema = catalog.find(c.api_version, c.kind);
    ASSERT_NE(schema, nullptr);
    auto docs = config::parseYamlDocuments(c.yaml, c.name);
    ASSERT_TRUE(docs.ok()) << docs.status();
    Json object = docs->front().value;
    object["apiVersion"] = c.api_version;
    object["kind"] = c.kind;
    auto result = testing::schema::validateObject(*schema, object);
    const std::string errors = result.toStatus(c.name).message();
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << errors;
    } else {
      EXPECT_NE(errors.find(c.error), std::string::npos) << errors;
    }
    std::string warnings;
    for (const std::string& w : result.warnings) {
      warnings += w + "\n";
    }
    if (c.warning.empty()) {
      EXPECT_TRUE(result.warnings.empty()) << warnings;
    } else {
      EXPECT_NE(warnings.find(c.warning), std::string::npos) << warnings;
    }
  }
}

}  // namespace
}  // namespace koord::deploy_test
