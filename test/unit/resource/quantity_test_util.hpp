// Helpers shared by the Quantity tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string_view>

#include "koord/resource/quantity.hpp"

namespace koord::resource {

inline constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kMinInt64 = std::numeric_limits<int64_t>::min();

// Parses text, failing the test (and returning zero) when it does not parse.
inline Quantity mustParse(std::string_view text) {
  Result<Quantity> q = Quantity::parse(text);
  EXPECT_TRUE(q.ok()) << text << ": " << q.status();
  return q.valueOr(Quantity());
}

// Go's decQuantity(i, exponent, format) / intQuantity: i * 10^exponent.
inline Quantity dec(int64_t i, int32_t exponent,
                    QuantityFormat format = QuantityFormat::kDecimalSI) {
  return Quantity::fromScaled(i, exponent, format);
}

// gtest prints quantities in failure messages as their text.
inline void PrintTo(const Quantity& q, std::ostream* os) {
  *os << q.toString();
}

inline std::ostream& operator<<(std::ostream& os, QuantityFormat format) {
  switch (format) {
    case QuantityFormat::kDecimalSI:
      return os << "DecimalSI";
    case QuantityFormat::kBinarySI:
      return os << "BinarySI";
    case QuantityFormat::kDecimalExponent:
      return os << "DecimalExponent";
  }
  return os;
}

}  // namespace koord::resource
