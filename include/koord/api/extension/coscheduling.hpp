// Gang scheduling annotations (apis/extension/coscheduling.go). Plain-text values except
// gang.scheduling.koordinator.sh/groups, a JSON list of "namespace/gang" names.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koord/api/extension/enum_codec.hpp"
#include "koord/common/result.hpp"

namespace koord::api::extension {

enum class GangMode { kStrict, kNonStrict };
constexpr std::array<EnumName<GangMode>, 2> enumNames(GangMode) {
  return {{{GangMode::kStrict, "Strict"}, {GangMode::kNonStrict, "NonStrict"}}};
}
KOORD_API_ENUM_CODEC(GangMode)

enum class GangMatchPolicy { kOnlyWaiting, kWaitingAndRunning, kOnceSatisfied };
constexpr std::array<EnumName<GangMatchPolicy>, 3> enumNames(GangMatchPolicy) {
  return {{{GangMatchPolicy::kOnlyWaiting, "only-waiting"},
           {GangMatchPolicy::kWaitingAndRunning, "waiting-and-running"},
           {GangMatchPolicy::kOnceSatisfied, "once-satisfied"}}};
}
KOORD_API_ENUM_CODEC(GangMatchPolicy)

// What a pod's labels and annotations say about its gang.
struct GangSpec {
  std::string name;  // gangNameOf(); "" when the pod is in no gang
  // The deprecated label pod-group.scheduling.sigs.k8s.io/min-available, else the annotation.
  std::optional<int32_t> minAvailable;
  std::optional<int32_t> totalNumber;      // unset reads as minAvailable
  std::optional<std::string> waitingTime;  // Go duration text, validated
  // Absent or unknown spellings read as the defaults, as Koordinator reads them.
  GangMode mode = GangMode::kStrict;
  // gang.scheduling.koordinator.sh/match-policy, else the pod-group.scheduling.sigs.k8s.io alias.
  GangMatchPolicy matchPolicy = GangMatchPolicy::kOnceSatisfied;
  std::vector<std::string> groups;  // "namespace/gang" names bundled with this gang

  bool operator==(const GangSpec&) const = default;
};

// Reads every gang label and annotation. kInvalidArgument names the first bad value:
//   failed to parse annotation 'gang.scheduling.koordinator.sh/min-available': expected an
//   integer, got "x"
// (labels read "failed to parse label '...'").
[[nodiscard]] Result<GangSpec> gangSpecOf(const std::map<std::string, std::string>& labels,
                                          const std::map<std::string, std::string>& annotations);

[[nodiscard]] Result<std::vector<std::string>> parseGangGroups(std::string_view value);
[[nodiscard]] std::string formatGangGroups(const std::vector<std::string>& groups);

}  // namespace koord::api::extension
