// Group and version of scheduling.sigs.k8s.io (the scheduler-plugins types Koordinator vendors).
#pragma once

#include <string_view>

namespace koord::api::sigs {

inline constexpr std::string_view kGroup = "scheduling.sigs.k8s.io";
inline constexpr std::string_view kVersion = "v1alpha1";
inline constexpr std::string_view kGroupVersion = "scheduling.sigs.k8s.io/v1alpha1";

}  // namespace koord::api::sigs
