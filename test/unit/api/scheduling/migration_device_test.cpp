#include <gtest/gtest.h>

#include <string>

#include "koord/api/scheduling/device.hpp"
#include "koord/api/scheduling/pod_migration_job.hpp"

namespace koord::api::scheduling {
namespace {

constexpr const char* kJob = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1",
  "kind": "PodMigrationJob",
  "metadata": {"name": "migrationjob-demo"},
  "spec": {
    "paused": false,
    "ttl": "5m",
    "mode": "ReservationFirst",
    "podRef": {"namespace": "default", "name": "pod-demo-5f9b977566-c7lvk"},
    "reservationOptions": {
      "template": {"metadata": {"labels": {"x": "y"}},
                   "spec": {"template": {"spec": {}}, "owners": [{"object": {"name": "p"}}]}},
      "preemptionOptions": {}
    },
    "deleteOptions": {"gracePeriodSeconds": 0, "propagationPolicy": "Background"}
  },
  "status": {
    "phase": "Running",
    "status": "ReservationCreated",
    "conditions": [{"type": "ReservationCreated", "status": "True"}],
    "nodeName": "node-2",
    "preemptedPodsReservation": [{"namespace": "default", "name": "r-1", "nodeName": "node-2",
                                  "phase": "Available",
                                  "podsRef": [{"name": "victim-new"}]}],
    "newStatusField": 1
  }
})";

TEST(PodMigrationJobTest, RoundTrip) {
  auto job = decode<PodMigrationJob>(kJob);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->spec.mode, kPodMigrationJobModeReservationFirst);
  EXPECT_EQ(job->spec.podRef->name, "pod-demo-5f9b977566-c7lvk");
  ASSERT_TRUE(job->spec.reservationOptions.has_value());
  ASSERT_TRUE(job->spec.reservationOptions->template_.has_value());
  EXPECT_EQ(job->spec.reservationOptions->template_->spec.owners.size(), 1U);
  EXPECT_TRUE(job->spec.reservationOptions->preemptionOptions.has_value());
  EXPECT_EQ(job->spec.deleteOptions->gracePeriodSeconds, 0);
  EXPECT_EQ(job->status.phase, kPodMigrationJobRunning);
  EXPECT_EQ(job->status.preemptedPodsReservation[0].podsRef[0].name, "victim-new");

  Json out = toJson(*job);
  Json in = Json::parse(kJob);
  EXPECT_EQ(out["status"]["newStatusField"], 1);
  EXPECT_EQ(out["spec"]["reservationOptions"]["preemptionOptions"], Json::object());
  EXPECT_EQ(out["spec"]["podRef"], in["spec"]["podRef"]);
  EXPECT_EQ(out["status"]["preemptedPodsReservation"], in["status"]["preemptedPodsReservation"]);
  // A condition's zero times are written as null, as Go writes them.
  EXPECT_TRUE(out["status"]["conditions"][0]["lastProbeTime"].is_null());
  PodMigrationJob again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, *job);
}

TEST(PodMigrationJobTest, PodRefIsRequired) {
  auto job = decode<PodMigrationJob>(R"({"spec":{"mode":"EvictDirectly"}})");
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().message(), "spec.podRef: required");
}

constexpr const char* kDevice = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1",
  "kind": "Device",
  "metadata": {"name": "node-1", "labels": {"node.koordinator.sh/gpu-model": "A100"}},
  "spec": {
    "devices": [
      {"type": "gpu", "id": "GPU-8c25ea37", "minor": 0, "health": true,
       "resources": {"koordinator.sh/gpu-core": "100", "koordinator.sh/gpu-memory": "80Gi",
                     "koordinator.sh/gpu-memory-ratio": "100"},
       "topology": {"socketID": -1, "nodeID": 0, "pcieID": "pci0000:3a", "busID": "0000:3b:00.0"}},
      {"type": "rdma", "id": "0000:1f:00.0", "minor": 1, "health": false,
       "resources": {"koordinator.sh/rdma": "100"},
       "topology": {"socketID": 0, "nodeID": 0, "pcieID": "pci0000:1e"},
       "vfGroups": [{"labels": {"type": "general"},
                     "vfs": [{"minor": 0, "busID": "0000:1f:00.2"}, {"minor": 1}]}],
       "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z",
                       "reason": "ok", "message": ""}]}
    ]
  },
  "status": {"allocations": [{"type": "gpu",
                              "entries": [{"name": "p", "namespace": "default", "uuid": "u",
                                           "minors": [0]}]}]}
})";

TEST(DeviceTest, RoundTrip) {
  auto device = decode<Device>(kDevice);
  ASSERT_TRUE(device.ok()) << device.status();
  ASSERT_EQ(device->spec.devices.size(), 2U);
  const DeviceInfo& gpu = device->spec.devices[0];
  EXPECT_EQ(gpu.type, "gpu");
  EXPECT_EQ(gpu.minor, 0);
  EXPECT_TRUE(gpu.health);
  EXPECT_EQ(gpu.topology->socketID, -1);
  EXPECT_EQ(gpu.resources.at("koordinator.sh/gpu-memory").toString(), "80Gi");
  const DeviceInfo& rdma = device->spec.devices[1];
  EXPECT_EQ(rdma.vfGroups[0].vfs.size(), 2U);
  EXPECT_EQ(rdma.vfGroups[0].vfs[1].minor, 1);
  EXPECT_EQ(device->status.allocations[0].entries[0].minors, std::vector<int32_t>{0});

  Json out = toJson(*device);
  Json in = Json::parse(kDevice);
  EXPECT_EQ(out["spec"]["devices"][0], in["spec"]["devices"][0]);
  // health false and minor 0 are written; the empty busID of a VF is not.
  EXPECT_EQ(out["spec"]["devices"][1]["health"], false);
  EXPECT_EQ(out["spec"]["devices"][1]["vfGroups"][0]["vfs"][0]["minor"], 0);
  EXPECT_FALSE(out["spec"]["devices"][1]["vfGroups"][0]["vfs"][1].contains("busID"));
  EXPECT_FALSE(out["spec"]["devices"][1]["topology"].contains("busID"));
  EXPECT_EQ(out["spec"]["devices"][1]["topology"]["pcieID"], "pci0000:1e");
  EXPECT_EQ(out["status"], in["status"]);
  Device again;
  ASSERT_TRUE(fromJson(out, again, "").isOk());
  EXPECT_EQ(again, *device);
}

TEST(DeviceTest, ListDecodes) {
  std::string list = std::string(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1",
      "kind":"DeviceList","metadata":{"resourceVersion":"7"},"items":[)") +
                     kDevice + "]}";
  auto devices = decode<DeviceList>(list);
  ASSERT_TRUE(devices.ok()) << devices.status();
  ASSERT_EQ(devices->items.size(), 1U);
  EXPECT_EQ(devices->metadata.resourceVersion, "7");
}

TEST(DeviceTest, TypeErrorsNameThePath) {
  auto device = decode<Device>(R"({"spec":{"devices":[{"health":"yes"}]}})");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().message(), "spec.devices[0].health: expected boolean, got string");
}

}  // namespace
}  // namespace koord::api::scheduling
