// Fuzz target for koord-manager's Device decoder (manager/nodedevice/device_decoder.hpp, the
// nodedevice controller's informer decoder): any JSON must give a Device or an error, never a
// crash. Checked for every input:
//  - where spec.devices is an array of N entries and the Device decodes, each entry is either
//    kept or left out with one warning: kept + warnings == N;
//  - where the default decoder (k8s::decodeObject) accepts the object, this decoder gives the same
//    Device and warns about nothing;
//  - a decoded Device encodes (toJson) to JSON that decodes again to the same encoding.
//
// Input: the object's JSON, as the informer gets it from kube-apiserver (not JSON: ignored).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/api/scheduling/device.hpp"
#include "koord/k8s/client.hpp"
#include "koord/log/logger.hpp"
#include "manager/nodedevice/device_decoder.hpp"

// NOLINTNEXTLINE(readability-identifier-naming): the name libFuzzer calls.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using koord::api::Json;
  using koord::api::scheduling::Device;
  auto parsed = koord::api::parseJson(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!parsed.ok()) {
    return 0;
  }
  const Json original = *parsed;
  auto warnings = std::make_shared<size_t>(0);
  const koord::log::Logger logger(
      koord::log::LogSink::toCallback(
          [warnings](koord::log::LogLevel level, std::string_view line) {
            if (level == koord::log::LogLevel::kWarn && !line.empty()) {
              ++*warnings;
            }
          }),
      koord::log::LogOptions{});
  auto decoder = koord::manager::nodedevice::deviceDecoder(logger);
  koord::Result<Device> decoded = decoder(Json(original));
  if (!decoded.ok()) {
    return 0;
  }
  const Json* devices = nullptr;
  if (original.is_object() && original.contains("spec") && original["spec"].is_object() &&
      original["spec"].contains("devices") && original["spec"]["devices"].is_array()) {
    devices = &original["spec"]["devices"];
  }
  if (devices != nullptr && decoded->spec.devices.size() + *warnings != devices->size()) {
    std::abort();  // an entry neither kept nor reported
  }
  if (koord::Result<Device> strict = koord::k8s::decodeObject<Device>(original);
      strict.ok() && (*warnings != 0 || !(*strict == *decoded))) {
    std::abort();  // differs from the default decoder on an object both accept
  }
  const Json encoded = koord::api::scheduling::toJson(*decoded);
  koord::Result<Device> again = decoder(Json(encoded));
  if (!again.ok() || koord::api::scheduling::toJson(*again) != encoded) {
    std::abort();  // the cached Device does not survive its own encoding
  }
  return 0;
}
