// Group and version of slo.koordinator.sh. Kinds and plurals sit with their models.
#pragma once

#include <string_view>

namespace koord::api::slo {

inline constexpr std::string_view kGroup = "slo.koordinator.sh";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "slo.koordinator.sh/v1alpha1";

}  // namespace koord::api::slo
