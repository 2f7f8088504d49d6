// The extender's score scale: prioritize answers each node's 0..100 runtime score as
// kube-scheduler's extender priority, 0..10 (rounded half up, clamped); kube-scheduler multiplies
// it by the extender's weight and by 10 (MaxNodeScore / MaxExtenderPriority) before adding it to
// its own plugins' scores. A contract between the server (prioritize's answer) and
// plugins/kube/prioritize.hpp (the simulator and the Reservation loop add it as kube-scheduler
// does), so it lives here, below both.
#pragma once

#include <algorithm>
#include <cstdint>

#include "koord/api/extender/types.hpp"

namespace koord::extender::framework {

[[nodiscard]] inline int64_t toExtenderScore(int64_t score) {
  const int64_t scaled = (score * api::extender::kMaxExtenderPriority + 50) / 100;
  return std::clamp(scaled, api::extender::kMinExtenderPriority,
                    api::extender::kMaxExtenderPriority);
}

}  // namespace koord::extender::framework
