// The CRDs of deploy/crds/: each file is one valid, structural CRD, and each kind has the scope,
// names, versions, status subresource and printer columns Koordinator gives it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "deploy_test_util.hpp"
#include "test/support/schema/crd.hpp"
#include "test/support/schema/validator.hpp"

namespace koord::deploy_test {
namespace {

using testing::schema::Json;

struct Column {
  std::string name;
  std::string type;
  std::string json_path;
};

struct ExpectedCrd {
  std::string file;
  std::string group;
  std::string kind;
  std::string plural;
  std::string scope;
  std::vector<std::string> short_names;
  std::vector<std::string> served;
  std::string storage;
  bool status_subresource;
  std::vector<Column> columns;
  // Spec (or top-level) fields that must be declared, as JSON paths.
  std::vector<std::string> fields;
};

const Column kAge{"Age", "date", ".metadata.creationTimestamp"};

std::vector<ExpectedCrd> expectedCrds() {
  return {
      {"scheduling.koordinator.sh_reservations.yaml",
       "scheduling.koordinator.sh",
       "Reservation",
       "reservations",
       "Cluster",
       {},
       {"v1alpha1", "v1"},
       "v1alpha1",
       true,
       {{"Phase", "string", ".status.phase"},
        kAge,
        {"Node", "string", ".status.nodeName"},
        {"TTL", "string", ".spec.ttl"},
        {"Expires", "string", ".spec.expires"}},
       {".spec.template", ".spec.resources.requests", ".spec.resources.limits", ".spec.owners",
        ".spec.ttl", ".spec.expires", ".spec.preAllocation", ".spec.preAllocationPolicy.mode",
        ".spec.allocateOnce", ".spec.allocatePolicy", ".spec.unschedulable", ".spec.taints",
        ".status.conditions", ".status.currentOwners", ".status.allocatable", ".status.allocated"}},
      {"scheduling.koordinator.sh_podmigrationjobs.yaml",
       "scheduling.koordinator.sh",
       "PodMigrationJob",
       "podmigrationjobs",
       "Cluster",
       {"pmj"},
       {"v1alpha1"},
       "v1alpha1",
       true,
       {{"Phase", "string", ".status.phase"},
        {"Status", "string", ".status.status"},
        kAge,
        {"Node", "string", ".status.nodeName"},
        {"Reservation", "string", ".spec.reservationOptions.reservationRef.name"},
        {"PodNamespace", "string", ".spec.podRef.namespace"},
        {"Pod", "string", ".spec.podRef.name"},
        {"NewPod", "string", ".status.podRef.name"},
        {"TTL", "string", ".spec.ttl"}},
       {".spec.paused", ".spec.mode", ".spec.reservationOptions.template",
        ".spec.reservationOptions.preemptionOptions", ".spec.deleteOptions.gracePeriodSeconds",
        ".status.reason", ".status.message", ".status.preemptedPodsRef",
        ".status.preemptedPodsReservation"}},
      {"scheduling.koordinator.sh_devices.yaml",
       "scheduling.koordinator.sh",
       "Device",
       "devices",
       "Cluster",
       {},
       {"v1alpha1"},
       "v1alpha1",
       false,
       {},
       {".spec.devices", ".status.allocations"}},
      {"slo.koordinator.sh_nodemetrics.yaml",
       "slo.koordinator.sh",
       "NodeMetric",
       "nodemetrics",
       "Cluster",
       {},
       {"v1alpha1"},
       "v1alpha1",
       true,
       {},
       {".spec.metricCollectPolicy.nodeAggregatePolicy.durations",
        ".status.nodeMetric.nodeUsage.resources", ".status.nodeMetric.aggregatedNodeUsages",
        ".status.nodeMetric.systemUsage", ".status.podsMetric", ".status.hostApplicationMetric",
        ".status.prodReclaimableMetric.resource", ".status.updateTime"}},
      {"slo.koordinator.sh_nodeslos.yaml",
       "slo.koordinator.sh",
       "NodeSLO",
       "nodeslos",
       "Cluster",
       {},
       {"v1alpha1"},
       "v1alpha1",
       true,
       {},
       {".spec.resourceUsedThresholdWithBE.cpuSuppressThresholdPercent",
        ".spec.resourceQOSStrategy.policies.cpuPolicy",
        ".spec.resourceQOSStrategy.beClass.resctrlQOS.catRangeEndPercent",
        ".spec.resourceQOSStrategy.lsrClass.memoryQOS.wmarkRatio",
        ".spec.resourceQOSStrategy.systemClass.networkQOS.ingressLimit",
        ".spec.cpuBurstStrategy.sharePoolThresholdPercent",
        ".spec.systemStrategy.totalNetworkBandwidth", ".spec.extensions",
        ".spec.hostApplications"}},
      {"config.koordinator.sh_clustercolocationprofiles.yaml",
       "config.koordinator.sh",
       "ClusterColocationProfile",
       "clustercolocationprofiles",
       "Cluster",
       {},
       {"v1alpha1"},
       "v1alpha1",
       true,
       {},
       {".spec.namespaceSelector", ".spec.selector", ".spec.probability", ".spec.qosClass",
        ".spec.priorityClassName", ".spec.koordinatorPriority", ".spec.labelKeysMapping",
        ".spec.annotationKeysMapping", ".spec.labelSuffixes", ".spec.schedulerName",
        ".spec.patch"}},
      {"quota.koordinator.sh_elasticquotaprofiles.yaml",
       "quota.koordinator.sh",
       "ElasticQuotaProfile",
       "elasticquotaprofiles",
       "Namespaced",
       {"eqp"},
       {"v1alpha1"},
       "v1alpha1",
       false,
       {},
       {".spec.quotaName", ".spec.quotaLabels", ".spec.resourceRatio", ".spec.nodeSelector"}},
      {"scheduling.sigs.k8s.io_elasticquotas.yaml",
       "scheduling.sigs.k8s.io",
       "ElasticQuota",
       "elasticquotas",
       "Namespaced",
       {},
       {"v1alpha1"},
       "v1alpha1",
       false,
       {},
       {".spec.min", ".spec.max", ".status.used"}},
      {"scheduling.sigs.k8s.io_podgroups.yaml",
       "scheduling.sigs.k8s.io",
       "PodGroup",
       "podgroups",
       "Namespaced",
       {},
       {"v1alpha1"},
       "v1alpha1",
       false,
       {},
       {".spec.minMember", ".spec.minResources", ".spec.scheduleTimeoutSeconds", ".status.phase",
        ".status.scheduleStartTime"}},
      {"topology.node.k8s.io_noderesourcetopologies.yaml",
       "topology.node.k8s.io",
       "NodeResourceTopology",
       "noderesourcetopologies",
       "Cluster",
       {"node-res-topo"},
       {"v1alpha1", "v1alpha2"},
       "v1alpha2",
       false,
       {},
       {".topologyPolicies", ".zones"}},
  };
}

const Json* findVersion(const Json& crd, const std::string& name) {
  for (const Json& version : crd.at("spec").at("versions")) {
    if (version.value("name", "") == name) {
      return &version;
    }
  }
  return nullptr;
}

// Walks ".a.b.c" through properties (the path must be declared, not merely allowed).
bool declares(const Json& schema, const std::string& json_path) {
  const Json* node = &schema;
  size_t pos = 1;
  while (pos <= json_path.size()) {
    size_t dot = json_path.find('.', pos);
    dot = dot == std::string::npos ? json_path.size() : dot;
    const std::string key = json_path.substr(pos, dot - pos);
    if (!node->contains("properties") || !node->at("properties").contains(key)) {
      return false;
    }
    node = &node->at("properties").at(key);
    pos = dot + 1;
  }
  return true;
}

TEST(CrdsTest, EveryFileHoldsOneValidStructuralCrd) {
  const std::vector<Manifest> crds = loadManifests("deploy/crds");
  ASSERT_EQ(crds.size(), yamlFiles("deploy/crds").size()) << "one document per file";
  for (const Manifest& crd : crds) {
    SCOPED_TRACE(crd.file);
    std::vector<std::string> problems = testing::schema::checkCrd(crd.doc.value);
    for (const std::string& problem : problems) {
      ADD_FAILURE() << problem;
    }
    auto summary = testing::schema::summarizeCrd(crd.doc.value);
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_EQ(crd.file, summary->group + "_" + summary->plural + ".yaml")
        << "files are named like Koordinator's config/crd/bases";
  }
}

TEST(CrdsTest, EveryKindHasKoordinatorsNamesScopeVersionsAndColumns) {
  const std::vector<Manifest> crds = loadManifests("deploy/crds");
  std::map<std::string, const Manifest*> by_file;
  for (const Manifest& crd : crds) {
    by_file[crd.file] = &crd;
  }
  std::set<std::string> expected_files;
  for (const ExpectedCrd& want : expectedCrds()) {
    SCOPED_TRACE(want.file);
    expected_files.insert(want.file);
    ASSERT_TRUE(by_file.count(want.file)) << "missing CRD file";
    const Json& crd = by_file.at(want.file)->doc.value;
    auto summary = testing::schema::summarizeCrd(crd);
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_EQ(summary->name, want.plural + "." + want.group);
    EXPECT_EQ(summary->group, want.group);
    EXPECT_EQ(summary->kind, want.kind);
    EXPECT_EQ(summary->plural, want.plural);
    EXPECT_EQ(summary->scope, want.scope);
    EXPECT_EQ(summary->short_names, want.short_names);
    EXPECT_EQ(summary->served_versions, want.served);
    EXPECT_EQ(summary->storage_version, want.storage);
    for (const std::string& version_name : want.served) {
      SCOPED_TRACE(version_name);
      const Json* version = findVersion(crd, version_name);
      ASSERT_NE(version, nullptr);
      const bool has_status =
          version->contains("subresources") && version->at("subresources").contains("status");
      EXPECT_EQ(has_status, want.status_subresource);
      std::vector<Column> columns;
      for (const Json& column : version->value("additionalPrinterColumns", Json::array())) {
        columns.push_back(
            {column.value("name", ""), column.value("type", ""), column.value("jsonPath", "")});
      }
      ASSERT_EQ(columns.size(), want.columns.size());
      for (size_t i = 0; i < columns.size(); ++i) {
        EXPECT_EQ(columns[i].name, want.columns[i].name);
        EXPECT_EQ(columns[i].type, want.columns[i].type);
        EXPECT_EQ(columns[i].json_path, want.columns[i].json_path);
      }
      const Json* schema = testing::schema::versionSchema(crd, version_name);
      ASSERT_NE(schema, nullptr);
      for (const std::string& field : want.fields) {
        EXPECT_TRUE(declares(*schema, field)) << field << " is not declared";
      }
    }
  }
  for (const auto& [file, manifest] : by_file) {
    EXPECT_TRUE(expected_files.count(file)) << file << " has no expectations here";
  }
}

TEST(CrdsTest, ReservationServesV1WithTheStorageSchemaAndNoConversion) {
  for (const Manifest& manifest : loadManifests("deploy/crds")) {
    if (manifest.file != "scheduling.koordinator.sh_reservations.yaml") {
      continue;
    }
    const Json& reservation = manifest.doc.value;
    EXPECT_EQ(reservation.at("spec").at("conversion").at("strategy"), "None");
    const Json* v1alpha1 = testing::schema::versionSchema(reservation, "v1alpha1");
    const Json* v1 = testing::schema::versionSchema(reservation, "v1");
    ASSERT_NE(v1alpha1, nullptr);
    ASSERT_NE(v1, nullptr);
    EXPECT_EQ(*v1alpha1, *v1) << "conversion None needs one schema for both versions";
    const Json& spec = v1->at("properties").at("spec");
    EXPECT_FALSE(spec.contains("required")) << "owners and template are optional (short form)";
    EXPECT_EQ(spec.at("properties").at("allocateOnce").at("default"), true);
    EXPECT_EQ(spec.at("properties").at("ttl").at("default"), "24h");
    return;
  }
  FAIL() << "no Reservation CRD";
}

}  // namespace
}  // namespace koord::deploy_test
