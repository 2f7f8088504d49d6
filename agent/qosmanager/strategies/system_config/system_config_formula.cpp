#include "agent/qosmanager/strategies/system_config/system_config_formula.hpp"

namespace koord::agent::qosmanager::strategies::system_config {

int64_t minFreeKbytes(int64_t memory_bytes, int64_t factor) {
  return memory_bytes / 1024 * factor / 10000;
}

bool minFreeKbytesInRange(int64_t kbytes) {
  return kbytes >= kMinFreeKbytesLowest && kbytes <= kMinFreeKbytesHighest;
}

bool watermarkScaleFactorInRange(int64_t factor) {
  return factor >= kWatermarkScaleFactorLowest && factor <= kWatermarkScaleFactorHighest;
}

}  // namespace koord::agent::qosmanager::strategies::system_config
