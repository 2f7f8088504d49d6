// Quantity comparison, arithmetic and integer accessors against Kubernetes' tables.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string_view>
#include <type_traits>
#include <vector>

#include "koord/resource/quantity.hpp"
#include "quantity_test_util.hpp"

namespace koord::resource {
namespace {

using F = QuantityFormat;

int cmp(const Quantity& a, const Quantity& b) {
  auto order = a <=> b;
  return order < 0 ? -1 : (order > 0 ? 1 : 0);
}

// quantity_test.go TestQuantityCmp.
TEST(QuantityArithTest, TestQuantityCmp) {
  struct Case {
    std::string_view x;
    std::string_view y;
    int expect;
  };
  for (const Case& c : {Case{"0", "0", 0}, Case{"100m", "50m", 1}, Case{"50m", "100m", -1},
                        Case{"10000T", "100Gi", 1}, Case{"1Gi", "1073741824", 0},
                        Case{"1.5", "1500m", 0}, Case{"-1", "1n", -1}, Case{"1e30", "1E", 1},
                        Case{"-1e30", "-1E", -1}, Case{"1e-2147483647", "1n", 0}}) {
    EXPECT_EQ(cmp(mustParse(c.x), mustParse(c.y)), c.expect) << c.x << " vs " << c.y;
    EXPECT_EQ(cmp(mustParse(c.y), mustParse(c.x)), -c.expect) << c.y << " vs " << c.x;
    EXPECT_EQ(mustParse(c.x) == mustParse(c.y), c.expect == 0);
  }
}

// quantity_test.go TestQuantityCmpInt64AndDec.
TEST(QuantityArithTest, TestQuantityCmpInt64AndDec) {
  constexpr int64_t kE18 = 1000000LL * 1000000 * 1000000;
  struct Case {
    Quantity a;
    Quantity b;
    int cmp;
  };
  const Case cases[] = {
      {dec(901, -2), dec(901, -2), 0},
      {dec(90, -1), dec(901, -2), -1},
      {dec(901, -2), dec(900, -2), 1},
      {dec(0, 0), dec(0, 0), 0},
      {dec(0, 1), dec(0, -1), 0},
      {dec(0, -1), dec(0, 1), 0},
      {dec(800, -3), dec(1, 0), -1},
      {dec(800, -3), dec(79, -2), 1},
      {dec(kMaxInt64, 0), dec(1, -1), 1},
      {dec(kMaxInt64, 1), dec(1, 0), 1},
      {dec(kMaxInt64, 1), dec(1, 1), 1},
      {dec(kMaxInt64, 1), dec(0, 1), 1},
      {dec(kMaxInt64, -16), dec(1, 3), -1},
      {dec(kMinInt64, 0), dec(0, 0), -1},
      {dec(kMinInt64, -18), dec(-1, 0), -1},
      {dec(kMinInt64, -19), dec(-1, 0), 1},
      {dec(kE18, -17), dec(1, 1), 0},
      {dec(kE18, -17), dec(-10, 0), 1},
      {dec(-kE18, -17), dec(-10, 0), 0},
      {dec(kE18, -17), dec(1, 0), 1},
      {dec(kE18 + 1, -17), dec(1, 1), 1},
      {dec(kE18 - 1, -17), dec(1, 1), -1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(cmp(c.a, c.b), c.cmp) << c.a.toString() << " vs " << c.b.toString();
    EXPECT_EQ(cmp(c.b, c.a), -c.cmp) << c.b.toString() << " vs " << c.a.toString();
  }
}

struct BinaryCase {
  Quantity a;
  Quantity b;
  Quantity expect;
  F format;
};

// quantity_test.go TestAdd, with the format Go's Add leaves on the receiver.
TEST(QuantityArithTest, TestAdd) {
  const BinaryCase cases[] = {
      {dec(10, 0), dec(1, 1), dec(20, 0), F::kDecimalSI},
      {dec(10, 0), dec(1, 0, F::kBinarySI), dec(11, 0), F::kDecimalSI},
      {dec(10, 0, F::kBinarySI), dec(1, 0), dec(11, 0), F::kBinarySI},
      {Quantity(), dec(50, 0), dec(50, 0), F::kDecimalSI},
      {dec(50, 0), Quantity(), dec(50, 0), F::kDecimalSI},
      {Quantity(), Quantity(), dec(0, 0), F::kDecimalSI},
      {dec(0, 0), dec(5, 0, F::kBinarySI), dec(5, 0), F::kBinarySI},
      {dec(1, -9), dec(1, 18), mustParse("1000000000000000000000000001n"), F::kDecimalSI},
  };
  for (const BinaryCase& c : cases) {
    Result<Quantity> sum = c.a.add(c.b);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(*sum, c.expect);
    EXPECT_EQ(sum->format(), c.format);
  }
}

// quantity_test.go TestSub.
TEST(QuantityArithTest, TestSub) {
  const BinaryCase cases[] = {
      {dec(10, 0), dec(1, 1), dec(0, 0), F::kDecimalSI},
      {dec(10, 0), dec(1, 0, F::kBinarySI), dec(9, 0), F::kDecimalSI},
      {dec(10, 0, F::kBinarySI), dec(1, 0), dec(9, 0), F::kBinarySI},
      {Quantity(), dec(50, 0), dec(-50, 0), F::kDecimalSI},
      {dec(50, 0), Quantity(), dec(50, 0), F::kDecimalSI},
      {Quantity(), Quantity(), dec(0, 0), F::kDecimalSI},
  };
  for (const BinaryCase& c : cases) {
    Result<Quantity> difference = c.a.sub(c.b);
    ASSERT_TRUE(difference.ok()) << difference.status();
    EXPECT_EQ(*difference, c.expect);
    EXPECT_EQ(difference->format(), c.format);
  }
}

// quantity_test.go TestQuantityAddZeroPreservesSuffix and TestQuantitySubZeroPreservesSuffix.
TEST(QuantityArithTest, ZeroPreservesSuffix) {
  Quantity zero = mustParse("0");
  for (std::string_view text : {"100m", "1Gi"}) {
    Quantity value = mustParse(text);
    EXPECT_EQ(value.add(zero)->toString(), text);
    EXPECT_EQ(zero.add(value)->toString(), text);
    EXPECT_EQ(value.sub(zero)->toString(), text);
    EXPECT_EQ(zero.sub(value)->toString(), value.negated().toString());
    EXPECT_EQ(zero.sub(value)->toString(), "-" + std::string(text));
  }
}

// quantity_test.go TestNegAndSubAtMostNegative, TestSubMostNegativeCrossScale,
// TestZeroSubMostNegativeInheritsFormat: -MinInt64 does not wrap.
TEST(QuantityArithTest, MostNegative) {
  Quantity min = Quantity::fromInt(kMinInt64);
  EXPECT_EQ(min.negated().toString(), "9223372036854775808");
  EXPECT_EQ(Quantity().sub(min)->toString(), "9223372036854775808");
  EXPECT_EQ(Quantity::fromInt(1).sub(min)->toString(), "9223372036854775809");
  EXPECT_EQ(Quantity::fromScaled(kMinInt64, -3).negated().toString(), "9223372036854775808m");
  EXPECT_EQ(Quantity::fromMilli(1).sub(Quantity::fromMilli(kMinInt64))->toString(),
            "9223372036854775809m");
  EXPECT_EQ(Quantity::fromScaled(1, 1).sub(min)->toString(), "9223372036854775818");
  Quantity binary = *Quantity().sub(Quantity::fromInt(kMinInt64, F::kBinarySI));
  EXPECT_EQ(binary.format(), F::kBinarySI);
  EXPECT_EQ(binary.toString(), "8Ei");
  EXPECT_EQ(binary, mustParse("9223372036854775808"));
  EXPECT_EQ(Quantity::fromInt(kMinInt64 + 1).negated().value(), kMaxInt64);
}

// quantity_test.go TestMul: the exact product (Go's ok flag only says whether it fits int64).
TEST(QuantityArithTest, TestMul) {
  struct Case {
    Quantity a;
    int64_t b;
    std::string_view expect;
  };
  const Case cases[] = {
      {dec(10, 0), 10, "100"},
      {dec(10, 0), 1, "10"},
      {dec(10, 0, F::kBinarySI), 1, "10"},
      {Quantity(), 50, "0"},
      {dec(50, 0), 0, "0"},
      {dec(10, 0), -10, "-100"},
      {dec(-10, 0), 1, "-10"},
      {dec(-50, 0), -50, "2500"},
      {dec(kMaxInt64, 0), -1, "-9223372036854775807"},
      {dec(kMaxInt64, 0), 2, "18446744073709551614"},
      {dec(kMaxInt64, 0), 10, "92233720368547758070"},
      {dec(kMinInt64, 0), -1, "9223372036854775808"},
      {dec(kMinInt64, 0), 2, "-18446744073709551616"},
      {dec(kMinInt64, 0), -10, "92233720368547758080"},
      {dec(kMinInt64 / 2, 0), 2, "-9223372036854775808"},
      {mustParse("1Gi"), 3, "3Gi"},
  };
  for (const Case& c : cases) {
    Result<Quantity> product = c.a.mul(c.b);
    ASSERT_TRUE(product.ok()) << product.status();
    EXPECT_EQ(product->toString(), c.expect) << c.a.toString() << " * " << c.b;
  }
}

// quantity_test.go TestAddSubRoundTrip and TestAddSubRoundTripAcrossScales (seeded here).
TEST(QuantityArithTest, TestAddSubRoundTrip) {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int64_t> values(0, kMaxInt64);
  for (int scale = -10; scale <= 10; ++scale) {
    Quantity q;
    std::vector<int64_t> order;
    for (int i = 0; i < 100; ++i) {
      order.push_back(values(random));
      q = *q.add(Quantity::fromScaled(order.back(), scale));
    }
    for (int64_t j : order) {
      q = *q.sub(Quantity::fromScaled(j, scale));
    }
    EXPECT_TRUE(q.isZero()) << q.toString();
  }
  Quantity q;
  std::vector<Quantity> added;
  for (int i = 0; i < 100; ++i) {
    int64_t j = values(random);
    added.push_back(Quantity::fromScaled(j, static_cast<int32_t>(j % 8 - 4)));
    Result<Quantity> next = q.add(added.back());
    ASSERT_TRUE(next.ok()) << next.status();
    q = *next;
  }
  for (const Quantity& term : added) {
    q = *q.sub(term);
  }
  EXPECT_TRUE(q.isZero()) << q.toString();
}

// quantity_test.go TestNegateRoundTrip.
TEST(QuantityArithTest, TestNegateRoundTrip) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int64_t> values(0, kMaxInt64);
  for (int scale = -10; scale <= 10; ++scale) {
    for (int i = 0; i < 100; ++i) {
      Quantity q = Quantity::fromScaled(values(random), scale);
      EXPECT_EQ(q.negated().negated(), q);
    }
  }
}

TEST(QuantityArithTest, OverflowIsOutOfRange) {
  Quantity max = mustParse("170141183460469231731687303715884105727");
  EXPECT_EQ(max.add(Quantity::fromInt(1)).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(max.negated().sub(Quantity::fromInt(1)).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(max.mul(2).status().code(), StatusCode::kOutOfRange);
  // 1e60 + 1 needs 61 significant digits; 1e60 + 1e59 does not.
  Quantity big = mustParse("1e60");
  EXPECT_EQ(big.add(Quantity::fromInt(1)).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(big.add(mustParse("1e59"))->toString(), "1100e57");
  EXPECT_EQ(max.sub(max)->toString(), "0");
}

// quantity_test.go TestScaledValue: NewScaledQuantity(1, from).ScaledValue(to).
TEST(QuantityArithTest, TestScaledValue) {
  struct Case {
    int32_t from;
    int32_t to;
    int64_t expected;
  };
  const Case cases[] = {
      {-9, -9, 1},
      {-9, -6, 1},
      {-9, -3, 1},
      {-9, 0, 1},
      {-6, -9, 1000},
      {-6, -6, 1},
      {-6, -3, 1},
      {-6, 0, 1},
      {-3, -9, 1000 * 1000},
      {-3, -6, 1000},
      {-3, -3, 1},
      {-3, 0, 1},
      {0, -9, 1000 * 1000 * 1000},
      {0, -6, 1000000},
      {0, -3, 1000},
      {0, 0, 1},
      {2, -2, 100 * 100},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Quantity::fromScaled(1, c.from).scaledValue(c.to), c.expected)
        << c.from << " -> " << c.to;
  }
}

// quantity_overflow_test.go quantityAccessorCases: Value, MilliValue and ScaledValue(Kilo)
// round away from zero and saturate.
TEST(QuantityArithTest, QuantityAccessorCases) {
  struct Case {
    Quantity q;
    int sign;
    int64_t value;
    int64_t milli;
    int64_t kilo;
  };
  const Case cases[] = {
      {mustParse("9223372036854775807"), 1, kMaxInt64, kMaxInt64, 9223372036854776},
      {Quantity::fromInt(kMinInt64), -1, kMinInt64, kMinInt64, -9223372036854776},
      {mustParse("1E"), 1, 1000000000000000000, kMaxInt64, 1000000000000000},
      {mustParse("8Ei"), 1, kMaxInt64, kMaxInt64, 9223372036854776},
      {mustParse("-8Ei"), -1, -kMaxInt64, kMinInt64, -9223372036854776},
      {mustParse("-20Ei"), -1, -kMaxInt64, kMinInt64, -9223372036854776},
      {mustParse("9223372036854775808"), 1, kMaxInt64, kMaxInt64, 9223372036854776},
      {mustParse("18446744073709551616"), 1, kMaxInt64, kMaxInt64, 18446744073709552},
      {mustParse("100E"), 1, kMaxInt64, kMaxInt64, 100000000000000000},
      {mustParse("1000E"), 1, kMaxInt64, kMaxInt64, 1000000000000000000},
      {mustParse("1e100"), 1, kMaxInt64, kMaxInt64, kMaxInt64},
      {Quantity::fromScaled(kMaxInt64, 1), 1, kMaxInt64, kMaxInt64, 92233720368547759},
      {mustParse("-9223372036854775807"), -1, kMinInt64 + 1, kMinInt64, -9223372036854776},
      {mustParse("-1e30"), -1, kMinInt64, kMinInt64, kMinInt64},
      {mustParse("-1000E"), -1, kMinInt64, kMinInt64, -1000000000000000000},
      {mustParse("-9.5Gi"), -1, -10200547328, -10200547328000, -10200548},
      {mustParse("-9.5000000001Gi"), -1, -10200547329, -10200547328108, -10200548},
      {Quantity::fromMilli(kMaxInt64), 1, 9223372036854776, kMaxInt64, 9223372036855},
      {Quantity::fromMilli(kMinInt64), -1, -9223372036854776, kMinInt64, -9223372036855},
      {Quantity::fromScaled(0, 500), 0, 0, 0, 0},
      {*Quantity::fromInt(kMaxInt64).add(Quantity::fromInt(kMaxInt64)), 1, kMaxInt64, kMaxInt64,
       18446744073709552},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.q.sign(), c.sign) << c.q.toString();
    EXPECT_EQ(c.q.value(), c.value) << c.q.toString();
    EXPECT_EQ(c.q.milliValue(), c.milli) << c.q.toString();
    EXPECT_EQ(c.q.scaledValue(3), c.kilo) << c.q.toString();
  }
}

TEST(QuantityArithTest, ValueRoundsAwayFromZero) {
  EXPECT_EQ(mustParse("100m").value(), 1);
  EXPECT_EQ(mustParse("-100m").value(), -1);
  EXPECT_EQ(mustParse("1.5").value(), 2);
  EXPECT_EQ(mustParse("-1.5").value(), -2);
  EXPECT_EQ(mustParse("2").value(), 2);
  EXPECT_EQ(mustParse("1n").milliValue(), 1);
  EXPECT_EQ(mustParse("1500u").milliValue(), 2);
  EXPECT_EQ(mustParse("1e-2147483647").value(), 1);
}

// quantity_test.go TestQuantityAsApproximateFloat64 and TestStringQuantityAsApproximateFloat64.
TEST(QuantityArithTest, ToDouble) {
  EXPECT_EQ(Quantity().toDouble(), 0.0);
  EXPECT_EQ(dec(7 * 1024 * 1024, 4).toDouble(), 7.0 * 1024 * 1024 * 10000);
  EXPECT_EQ(dec(7 * 1024 * 1024, -8).toDouble(), 7.0 * 1024 * 1024 / 100000000);
  EXPECT_EQ(dec(kMaxInt64, 0, F::kBinarySI).toDouble(), 9223372036854775807.0);
  EXPECT_EQ(dec(12, 18).toDouble(), 1.2e19);
  EXPECT_EQ(dec(12, 500).toDouble(), INFINITY);
  EXPECT_EQ(dec(-12, 500).toDouble(), -INFINITY);
  EXPECT_EQ(mustParse("2Ki").toDouble(), 2048.0);
  EXPECT_EQ(mustParse("1.1Ki").toDouble(), 1126.4);
  EXPECT_EQ(mustParse("1Mi").toDouble(), 1.048576e+06);
  EXPECT_EQ(mustParse("2Gi").toDouble(), 2.147483648e+09);
}

TEST(QuantityArithTest, CompactRepresentation) {
  static_assert(sizeof(Quantity) == 32);
  static_assert(std::is_trivially_copyable_v<Quantity>);
}

}  // namespace
}  // namespace koord::resource
