// The built-in koord-extender plugins, listed in one place (no self-registration):
// NodeReservation, PriorityQoS, BatchResources, DeviceResources, Reservation.
// docs/extender-plugins.md describes each.
#pragma once

#include "extender/framework/registry.hpp"

namespace koord::extender::plugins {

// A registry with every built-in plugin under its kName.
[[nodiscard]] framework::Registry builtinPlugins();

}  // namespace koord::extender::plugins
