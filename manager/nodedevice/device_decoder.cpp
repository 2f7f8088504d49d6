#include "manager/nodedevice/device_decoder.hpp"

#include <string>
#include <utility>

#include "koord/k8s/client.hpp"

namespace koord::manager::nodedevice {

Result<api::scheduling::Device> decodeDeviceSkippingBadEntries(api::Json&& object,
                                                               const log::Logger& logger) {
  if (object.is_object() && object.contains("spec") && object["spec"].is_object() &&
      object["spec"].contains("devices") && object["spec"]["devices"].is_array()) {
    const api::Json& meta = object.contains("metadata") ? object["metadata"] : api::Json();
    const std::string name = meta.is_object() && meta.contains("name") && meta["name"].is_string()
                                 ? meta["name"].get<std::string>()
                                 : std::string();
    api::Json kept = api::Json::array();
    api::Json& devices = object["spec"]["devices"];
    for (size_t i = 0; i < devices.size(); ++i) {
      const std::string path = "spec.devices[" + std::to_string(i) + "]";
      api::scheduling::DeviceInfo info;
      const Status decoded = api::scheduling::fromJson(devices[i], info, path);
      if (!decoded.isOk()) {
        logger.warn(
            "device entry left out: it does not decode",
            {{"device", name}, {"index", static_cast<int64_t>(i)}, {"error", decoded.message()}});
        continue;
      }
      kept.push_back(std::move(devices[i]));
    }
    devices = std::move(kept);
  }
  return k8s::decodeObject<api::scheduling::Device>(std::move(object));
}

k8s::Informer<api::scheduling::Device>::Decoder deviceDecoder(log::Logger logger) {
  return [logger = std::move(logger)](api::Json&& object) {
    return decodeDeviceSkippingBadEntries(std::move(object), logger);
  };
}

}  // namespace koord::manager::nodedevice
