// The Device informer's decoder for this controller: one bad entry of spec.devices (a resource
// quantity that does not parse, a field of the wrong type) must not hide the node's other GPUs or
// stop the informer (the default decoder fails the whole Device, and a list with such a Device
// would never sync).
//
// Each spec.devices[] entry is decoded on its own; one that does not decode is left out of the
// cached Device, with one warning naming the Device, the entry's index and the error. The rest of
// the Device decodes as with the default decoder (and fails the same way).
#pragma once

#include "koord/api/scheduling/device.hpp"
#include "koord/common/result.hpp"
#include "koord/k8s/informer.hpp"
#include "koord/log/logger.hpp"

namespace koord::manager::nodedevice {

[[nodiscard]] Result<api::scheduling::Device> decodeDeviceSkippingBadEntries(
    api::Json&& object, const log::Logger& logger);

// decodeDeviceSkippingBadEntries as an Informer<Device>::Decoder logging on `logger`.
[[nodiscard]] k8s::Informer<api::scheduling::Device>::Decoder deviceDecoder(log::Logger logger);

}  // namespace koord::manager::nodedevice
