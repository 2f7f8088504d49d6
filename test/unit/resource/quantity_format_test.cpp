// Quantity formatting and construction against Kubernetes' tables.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

#include "koord/resource/quantity.hpp"
#include "quantity_test_util.hpp"

namespace koord::resource {
namespace {

using F = QuantityFormat;

struct StringCase {
  Quantity in;
  std::string_view expect;
  std::string_view alternate;  // another spelling that must print as `expect`
};

// Names the case by its text in test output and ctest names.
void PrintTo(const StringCase& c, std::ostream* os) {
  *os << "\"" << c.expect << "\"";
}

// quantity_test.go TestQuantityString.
const StringCase kTestQuantityString[] = {
    {dec(1024 * 1024 * 1024, 0, F::kBinarySI), "1Gi", "1024Mi"},
    {dec(300 * 1024 * 1024, 0, F::kBinarySI), "300Mi", "307200Ki"},
    {dec(6 * 1024, 0, F::kBinarySI), "6Ki", ""},
    {dec(1001LL * 1024 * 1024 * 1024, 0, F::kBinarySI), "1001Gi", "1025024Mi"},
    {dec(1024LL * 1024 * 1024 * 1024, 0, F::kBinarySI), "1Ti", "1024Gi"},
    {dec(5, 0, F::kBinarySI), "5", "5000m"},
    {dec(500, -3, F::kBinarySI), "500m", "0.5"},
    {dec(1, 9, F::kDecimalSI), "1G", "1000M"},
    {dec(1000, 6, F::kDecimalSI), "1G", "0.001T"},
    {dec(1000000, 3, F::kDecimalSI), "1G", ""},
    {dec(1000000000, 0, F::kDecimalSI), "1G", ""},
    {dec(1, -3, F::kDecimalSI), "1m", "1000u"},
    {dec(80, -3, F::kDecimalSI), "80m", ""},
    {dec(1080, -3, F::kDecimalSI), "1080m", "1.08"},
    {dec(108, -2, F::kDecimalSI), "1080m", "1080000000n"},
    {dec(10800, -4, F::kDecimalSI), "1080m", ""},
    {dec(300, 6, F::kDecimalSI), "300M", ""},
    {dec(1, 12, F::kDecimalSI), "1T", ""},
    {dec(1, 18, F::kDecimalSI), "1E", ""},
    {dec(1, 21, F::kDecimalSI), "1e21", "1000E"},
    {dec(5, 21, F::kDecimalSI), "5e21", "5000E"},
    {dec(1, 24, F::kDecimalSI), "1e24", "1000000E"},
    {dec(1234567, 6, F::kDecimalSI), "1234567M", ""},
    {dec(1234567, -3, F::kBinarySI), "1234567m", ""},
    {dec(3, 3, F::kDecimalSI), "3k", ""},
    {dec(1025, 0, F::kBinarySI), "1025", ""},
    {dec(0, 0, F::kDecimalSI), "0", ""},
    {dec(0, 0, F::kBinarySI), "0", ""},
    {dec(1, 9, F::kDecimalExponent), "1e9", ".001e12"},
    {dec(1, -3, F::kDecimalExponent), "1e-3", "0.001e0"},
    {dec(1, -9, F::kDecimalExponent), "1e-9", "1000e-12"},
    {dec(80, -3, F::kDecimalExponent), "80e-3", ""},
    {dec(300, 6, F::kDecimalExponent), "300e6", ""},
    {dec(1, 12, F::kDecimalExponent), "1e12", ""},
    {dec(1, 3, F::kDecimalExponent), "1e3", ""},
    {dec(3, 3, F::kDecimalExponent), "3e3", ""},
    {dec(3, 3, F::kDecimalSI), "3k", ""},
    {dec(0, 0, F::kDecimalExponent), "0", "00"},
    {dec(1, -9, F::kDecimalSI), "1n", ""},
    {dec(80, -9, F::kDecimalSI), "80n", ""},
    {dec(1080, -9, F::kDecimalSI), "1080n", ""},
    {dec(108, -8, F::kDecimalSI), "1080n", ""},
    {dec(10800, -10, F::kDecimalSI), "1080n", ""},
    {dec(1, -6, F::kDecimalSI), "1u", ""},
    {dec(80, -6, F::kDecimalSI), "80u", ""},
    {dec(1080, -6, F::kDecimalSI), "1080u", ""},
};

class TestQuantityString : public ::testing::TestWithParam<StringCase> {};

TEST_P(TestQuantityString, PrintsCanonicalText) {
  const StringCase& c = GetParam();
  EXPECT_EQ(c.in.toString(), c.expect);
  Quantity parsed = mustParse(c.expect);
  EXPECT_EQ(parsed, c.in);
  EXPECT_EQ(parsed.toString(), c.expect);
  if (!c.alternate.empty()) {
    Quantity alternate = mustParse(c.alternate);
    EXPECT_EQ(alternate, c.in);
    EXPECT_EQ(alternate.toString(), c.expect);
  }
}

TEST_P(TestQuantityString, NegationPrintsWithAMinus) {
  const StringCase& c = GetParam();
  if (c.in.isZero()) {
    EXPECT_EQ(c.in.negated().toString(), "0");  // never "-0"
    return;
  }
  EXPECT_EQ(c.in.negated().toString(), "-" + std::string(c.expect));
}

INSTANTIATE_TEST_SUITE_P(KubernetesTable, TestQuantityString,
                         ::testing::ValuesIn(kTestQuantityString));

// quantity_test.go TestQuantityNeg.
TEST(QuantityFormatTest, TestQuantityNeg) {
  Quantity q = dec(901, -2);
  EXPECT_EQ(q.negated().toString(), "-9010m");
  EXPECT_NE(q.negated(), q);
  EXPECT_EQ(q.negated().negated(), q);
}

// quantity_test.go TestNewSet: NewQuantity(value, format).
TEST(QuantityFormatTest, TestNewSet) {
  struct Case {
    int64_t value;
    F format;
    std::string_view expect;
  };
  for (const Case& c :
       {Case{1, F::kDecimalSI, "1"}, Case{1000, F::kDecimalSI, "1k"},
        Case{1234000, F::kDecimalSI, "1234k"}, Case{1024, F::kBinarySI, "1Ki"},
        Case{1000000, F::kDecimalExponent, "1e6"}, Case{1024 * 1024, F::kBinarySI, "1Mi"}}) {
    Quantity q = Quantity::fromInt(c.value, c.format);
    EXPECT_EQ(q.toString(), c.expect);
    EXPECT_EQ(q.format(), c.format);
    EXPECT_EQ(mustParse(q.toString()).value(), c.value);
  }
}

// quantity_test.go TestMilliNewSet: NewMilliQuantity(value, format).
TEST(QuantityFormatTest, TestMilliNewSet) {
  struct Case {
    int64_t value;
    F format;
    std::string_view expect;
  };
  for (const Case& c :
       {Case{1, F::kDecimalSI, "1m"}, Case{1000, F::kDecimalSI, "1"},
        Case{1234000, F::kDecimalSI, "1234"}, Case{1024, F::kBinarySI, "1024m"},
        Case{1000000, F::kDecimalExponent, "1e3"}, Case{1024 * 1024, F::kBinarySI, "1048576m"}}) {
    Quantity q = Quantity::fromMilli(c.value, c.format);
    EXPECT_EQ(q.toString(), c.expect);
    EXPECT_EQ(mustParse(q.toString()).milliValue(), c.value);
  }
}

// quantity_test.go TestNewScaledSet: NewScaledQuantity(value, scale).
TEST(QuantityFormatTest, TestNewScaledSet) {
  struct Case {
    int64_t value;
    int32_t scale;
    std::string_view expect;
  };
  for (const Case& c :
       {Case{1, -9, "1n"}, Case{1000, -9, "1u"}, Case{1, -6, "1u"}, Case{1000, -6, "1m"},
        Case{1, -3, "1m"}, Case{1000, -3, "1"}, Case{1, 0, "1"}, Case{0, -9, "0"}, Case{0, -6, "0"},
        Case{0, -3, "0"}, Case{0, 0, "0"}}) {
    Quantity q = Quantity::fromScaled(c.value, c.scale);
    EXPECT_EQ(q.toString(), c.expect);
    EXPECT_EQ(mustParse(q.toString()).scaledValue(c.scale), c.value);
  }
}

// quantity_golden_test.go quantitySerializationCases: String() of each row.
TEST(QuantityFormatTest, TestQuantitySerializationGolden) {
  struct Case {
    Quantity q;
    std::string_view want;
  };
  const Case cases[] = {
      {Quantity(), "0"},
      {mustParse("1"), "1"},
      {mustParse("-1"), "-1"},
      {mustParse("1Ki"), "1Ki"},
      {mustParse("1024Mi"), "1Gi"},
      {mustParse("1000M"), "1G"},
      {mustParse("1e3"), "1e3"},
      {mustParse("0.1"), "100m"},
      {Quantity::fromMilli(1441), "1441m"},
      {mustParse("0.000000000000001"), "1n"},
      {mustParse("1.441"), "1.441"},
      {mustParse("1.000001"), "1.000001"},
      {mustParse("1.000000001"), "1.000000001"},
      {mustParse("1.5"), "1500m"},
      {mustParse("9223372036854775807"), "9223372036854775807"},
      {Quantity::fromInt(kMinInt64), "-9223372036854775808"},
      {mustParse("9223372036854775808"), "9223372036854775808"},
      {mustParse("18446744073709551616"), "18446744073709551616"},
      {Quantity::fromScaled(kMaxInt64, 1), "92233720368547758070"},
      {mustParse("1E"), "1E"},
      {mustParse("100E"), "100E"},
      {mustParse("1000E"), "1e21"},
      {mustParse("1e100"), "10e99"},
      {Quantity::fromScaled(1, 21), "1e21"},
      {mustParse("8Ei"), "9223372036854775807"},
      {mustParse("-20Ei"), "-9223372036854775807"},
      {mustParse("-9.5Gi"), "-9728Mi"},
      {mustParse("-9.5000000001Gi"), "-10200547328107374183n"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.q.toString(), c.want);
    // TestQuantitySerializationRoundTripsByteStable: decode and re-encode keeps the bytes.
    EXPECT_EQ(mustParse(c.q.toString()).toString(), c.want);
  }
}

TEST(QuantityFormatTest, WithFormatChangesOnlyTheText) {
  Quantity q = mustParse("1536Mi");
  EXPECT_EQ(q.withFormat(F::kDecimalSI).toString(), "1610612736");
  EXPECT_EQ(q.withFormat(F::kDecimalExponent).toString(), "1610612736");
  EXPECT_EQ(mustParse("1.5k").withFormat(F::kDecimalExponent).toString(), "1500");
  EXPECT_EQ(mustParse("15k").withFormat(F::kDecimalExponent).toString(), "15e3");
  EXPECT_EQ(q.withFormat(F::kDecimalSI), q);
}

// Go prints a BinarySI multiple of 1024^7 without its suffix, corrupting it; this prints Ei.
TEST(QuantityFormatTest, BinaryBeyondEiKeepsTheEiSuffix) {
  Quantity ei = mustParse("1Ei");
  Quantity sum = ei;
  for (int i = 1; i < 1024; ++i) {
    sum = *sum.add(ei);
  }
  EXPECT_EQ(sum.toString(), "1024Ei");
  EXPECT_EQ(sum, mustParse("1180591620717411303424"));  // 2^70
}

}  // namespace
}  // namespace koord::resource
