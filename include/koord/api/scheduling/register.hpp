// Group and versions of scheduling.koordinator.sh. Kinds and plurals sit with their models.
#pragma once

#include <string_view>

namespace koord::api::scheduling {

inline constexpr std::string_view kGroup = "scheduling.koordinator.sh";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "scheduling.koordinator.sh/v1alpha1";
// Reservation is also accepted as scheduling.koordinator.sh/v1 (see reservation.hpp).
inline constexpr std::string_view kVersionV1 = "v1";
inline constexpr std::string_view kGroupVersionV1 = "scheduling.koordinator.sh/v1";

}  // namespace koord::api::scheduling
