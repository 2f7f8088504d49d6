// Shared pieces of the nodedevice tests: Device and Node JSON.
#pragma once

#include <string>
#include <vector>

#include "koord/api/codec.hpp"

namespace koord::manager::nodedevice::testing {

struct Gpu {
  int minor = 0;
  bool health = true;
  std::string memory = "16Gi";
  std::string type = "gpu";
};

inline api::Json deviceJson(const std::string& name, const std::vector<Gpu>& gpus,
                            const std::string& model = "A100",
                            const std::string& driver = "535.104.05") {
  api::Json devices = api::Json::array();
  for (const Gpu& gpu : gpus) {
    api::Json resources = {{"koordinator.sh/gpu-core", "100"},
                           {"koordinator.sh/gpu-memory-ratio", "100"}};
    if (gpu.type != "gpu") {
      resources = {{"koordinator.sh/rdma", "100"}};
    } else if (!gpu.memory.empty()) {
      resources["koordinator.sh/gpu-memory"] = gpu.memory;
    }
    devices.push_back({{"type", gpu.type},
                       {"id", "GPU-" + std::to_string(gpu.minor)},
                       {"minor", gpu.minor},
                       {"health", gpu.health},
                       {"resources", resources}});
  }
  api::Json labels = api::Json::object();
  if (!model.empty()) {
    labels["node.koordinator.sh/gpu-model"] = model;
  }
  if (!driver.empty()) {
    labels["node.koordinator.sh/gpu-driver-version"] = driver;
  }
  return {{"apiVersion", "scheduling.koordinator.sh/v1alpha1"},
          {"kind", "Device"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          {"spec", {{"devices", devices}}}};
}

inline api::Json nodeJson(const std::string& name) {
  return {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/hostname", name}}}}},
      {"status",
       {{"capacity", {{"cpu", "8"}, {"memory", "32Gi"}, {"kubernetes.io/batch-cpu", "4000"}}},
        {"allocatable", {{"cpu", "8"}, {"memory", "30Gi"}, {"kubernetes.io/batch-cpu", "4000"}}}}}};
}

}  // namespace koord::manager::nodedevice::testing
