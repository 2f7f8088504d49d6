#include "agent/qosmanager/strategies/memory_qos/memory_qos_formula.hpp"

#include <algorithm>

namespace koord::agent::qosmanager::strategies::memory_qos {

MemoryQosValues containerMemoryQos(int64_t request, int64_t limit, int64_t node_allocatable,
                                   const MemoryQosProfile& profile, int64_t page_size) {
  request = std::max<int64_t>(request, 0);
  MemoryQosValues out;
  out.min = request * profile.min_limit_percent / 100;
  out.low = request * profile.low_limit_percent / 100;
  if (profile.throttling_percent == 0) {
    out.high = kMemoryMax;
  } else {
    const int64_t bound = limit > 0 ? limit : node_allocatable;
    if (bound <= 0 || page_size <= 0) {
      out.high = std::nullopt;
    } else {
      const int64_t high = request + (bound - request) * profile.throttling_percent / 100;
      out.high = high / page_size * page_size;
    }
  }
  if (out.low > 0 && out.low < out.min) {
    out.low = out.min;
  }
  if (out.high.has_value() && *out.high > 0 && *out.high < out.min) {
    out.high = out.min;
  }
  return out;
}

}  // namespace koord::agent::qosmanager::strategies::memory_qos
