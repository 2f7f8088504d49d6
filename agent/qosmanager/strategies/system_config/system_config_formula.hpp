// koordlet's system config formulas (qosmanager/plugins/sysreconcile/system_config.go and the
// validators of pkg/koordlet/util/system/system_file.go).
//
//   min_free_kbytes = (node memory capacity in bytes / 1024) × minFreeKbytesFactor / 10000
//     (the factor is in 1/10000 of memory: 100 is 1%), written only when the result lies in
//     [10 MiB, 10 GiB] = [10240, 10485760] KiB (koordlet's MinFreeKbytesValidator).
//   watermark_scale_factor = watermarkScaleFactor as configured, written only in [10, 400]
//     (koordlet's WatermarkScaleFactorValidator; the kernel itself takes 1..1000).
// Integer arithmetic truncates as Go's does. Pure functions; thread-safe.
#pragma once

#include <cstdint>

namespace koord::agent::qosmanager::strategies::system_config {

inline constexpr int64_t kMinFreeKbytesLowest = int64_t{10} * 1024;          // 10 MiB in KiB
inline constexpr int64_t kMinFreeKbytesHighest = int64_t{10} * 1024 * 1024;  // 10 GiB in KiB
inline constexpr int64_t kWatermarkScaleFactorLowest = 10;
inline constexpr int64_t kWatermarkScaleFactorHighest = 400;

// (memory_bytes / 1024) × factor / 10000.
[[nodiscard]] int64_t minFreeKbytes(int64_t memory_bytes, int64_t factor);

// Whether koordlet writes these values.
[[nodiscard]] bool minFreeKbytesInRange(int64_t kbytes);
[[nodiscard]] bool watermarkScaleFactorInRange(int64_t factor);

}  // namespace koord::agent::qosmanager::strategies::system_config
