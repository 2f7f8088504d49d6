#include "agent/qosmanager/strategies/system_config/system_config_formula.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agent/qosmanager/strategies/system_config/system_config_settings.hpp"

namespace koord::agent::qosmanager::strategies::system_config {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kGi = int64_t{1} << 30;

struct MinFreeCase {
  std::string name;
  int64_t memory_bytes;
  int64_t factor;
  int64_t want_kbytes;
  bool in_range;
};

// (bytes / 1024) × factor / 10000, kept in [10240, 10485760] KiB.
TEST(SystemConfigFormula, MinFreeKbytes) {
  const std::vector<MinFreeCase> cases = {
      {"8 GiB at 1%", 8 * kGi, 100, 83886, true},  // 8388608 KiB / 100
      {"16 GiB at 1.5%", 16 * kGi, 150, 251658, true},
      {"bytes below a KiB are dropped", 8 * kGi + 1023, 100, 83886, true},
      {"8 GiB at 0.01%: below 10 MiB", 8 * kGi, 1, 838, false},
      {"exactly 10 MiB", 1024000 * int64_t{1024}, 100, 10240, true},
      {"just below 10 MiB", 1023999 * int64_t{1024}, 100, 10239, false},
      {"1 TiB at 0.97%: just below 10 GiB", 1024 * kGi, 97, 10415295, true},
      {"1 TiB at 1.5%: above 10 GiB", 1024 * kGi, 150, 16106127, false},
      {"10 GiB upper bound", 1048576000 * int64_t{1024}, 100, 10485760, true},
  };
  for (const MinFreeCase& c : cases) {
    SCOPED_TRACE(c.name);
    const int64_t got = minFreeKbytes(c.memory_bytes, c.factor);
    EXPECT_EQ(got, c.want_kbytes);
    EXPECT_EQ(minFreeKbytesInRange(got), c.in_range);
  }
}

TEST(SystemConfigFormula, WatermarkScaleFactorRange) {
  EXPECT_FALSE(watermarkScaleFactorInRange(9));
  EXPECT_TRUE(watermarkScaleFactorInRange(10));
  EXPECT_TRUE(watermarkScaleFactorInRange(150));
  EXPECT_TRUE(watermarkScaleFactorInRange(400));
  EXPECT_FALSE(watermarkScaleFactorInRange(401));
}

TEST(SystemConfigSettings, UnsetFieldsStayUnset) {
  const auto settings = systemConfigSettingsFrom(api::slo::SystemStrategy{});
  ASSERT_TRUE(settings.ok());
  EXPECT_FALSE(settings->min_free_kbytes_factor.has_value());
  EXPECT_FALSE(settings->watermark_scale_factor.has_value());
}

TEST(SystemConfigSettings, ValidValuesPassThrough) {
  api::slo::SystemStrategy strategy;
  strategy.minFreeKbytesFactor = 100;
  strategy.watermarkScaleFactor = 150;
  strategy.memcgReapBackGround = 1;  // not applied, not checked
  const auto settings = systemConfigSettingsFrom(strategy);
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->min_free_kbytes_factor, 100);
  EXPECT_EQ(settings->watermark_scale_factor, 150);
}

TEST(SystemConfigSettings, OutOfRangeFieldsAreNamed) {
  struct Case {
    std::optional<int64_t> factor;
    std::optional<int64_t> watermark;
    std::string message;
  };
  const std::vector<Case> cases = {
      {0, std::nullopt, "systemStrategy.minFreeKbytesFactor is 0: must be > 0"},
      {-100, std::nullopt, "systemStrategy.minFreeKbytesFactor is -100: must be > 0"},
      {std::nullopt, 9, "systemStrategy.watermarkScaleFactor is 9: must be 10..400"},
      {100, 1000, "systemStrategy.watermarkScaleFactor is 1000: must be 10..400"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    api::slo::SystemStrategy strategy;
    strategy.minFreeKbytesFactor = c.factor;
    strategy.watermarkScaleFactor = c.watermark;
    const auto settings = systemConfigSettingsFrom(strategy);
    ASSERT_FALSE(settings.ok());
    EXPECT_EQ(settings.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(settings.status().message(), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace koord::agent::qosmanager::strategies::system_config
