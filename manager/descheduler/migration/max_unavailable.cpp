#include "manager/descheduler/migration/max_unavailable.hpp"

#include <algorithm>

namespace koord::manager::descheduler::migration {
namespace {

int64_t scaled(int64_t replicas, const config::IntOrPercent& value) {
  if (!value.is_percent) {
    return value.value;
  }
  // Both are non-negative, so integer division is Go's math.Floor of the product.
  return value.value * replicas / 100;
}

}  // namespace

int64_t maxUnavailable(int64_t replicas, const std::optional<config::IntOrPercent>& value) {
  replicas = std::max<int64_t>(replicas, 0);
  int64_t result = 0;
  if (value.has_value()) {
    result = std::max<int64_t>(scaled(replicas, *value), 1);
  } else if (replicas > 10) {
    result = scaled(replicas, config::IntOrPercent{true, 10});
  } else if (replicas >= 4) {
    result = 2;
  } else {
    result = 1;
  }
  return std::min(result, replicas);
}

int64_t maxMigrating(int64_t replicas, const std::optional<config::IntOrPercent>& value) {
  return maxUnavailable(replicas, value);
}

}  // namespace koord::manager::descheduler::migration
