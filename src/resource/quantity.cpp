// Quantity arithmetic, comparison and integer accessors (parsing and formatting live in
// quantity_parse.cpp and quantity_format.cpp).
#include "koord/resource/quantity.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "quantity_internal.hpp"

namespace koord::resource {

namespace {

constexpr std::array<UInt128, kMaxPow10 + 1> makePow10() {
  std::array<UInt128, kMaxPow10 + 1> table{};
  UInt128 v = 1;
  for (auto& entry : table) {
    entry = v;
    v *= 10;
  }
  return table;
}

constexpr std::array<UInt128, kMaxPow10 + 1> kPow10 = makePow10();

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

int64_t saturate(bool negative, UInt128 mag) {
  if (negative) {
    return mag > static_cast<UInt128>(kInt64Max) + 1 ? kInt64Min : static_cast<int64_t>(-mag);
  }
  return mag > static_cast<UInt128>(kInt64Max) ? kInt64Max : static_cast<int64_t>(mag);
}

// -1, 0 or 1: |a| = ma * 10^ea against |b| = mb * 10^eb, both magnitudes non-zero.
int compareMagnitude(UInt128 ma, int64_t ea, UInt128 mb, int64_t eb) {
  if (ea == eb) {
    return ma < mb ? -1 : (ma > mb ? 1 : 0);
  }
  if (ea > eb) {
    UInt128 scaled = 0;
    if (!scaleUp(ma, ea - eb, &scaled)) {
      return 1;  // ma * 10^(ea-eb) exceeds 2^127 > mb.
    }
    return scaled < mb ? -1 : (scaled > mb ? 1 : 0);
  }
  return -compareMagnitude(mb, eb, ma, ea);
}

Status overflow(std::string_view op) {
  return Status::outOfRange("failed to " + std::string(op) +
                            " quantities: the result needs more than 38 significant digits");
}

// Mantissas below 2^62 scaled by at most 10^18 stay below 2^122: no overflow checks needed.
constexpr Int128 kSmallMantissa = static_cast<Int128>(1) << 62;
constexpr int64_t kSmallShift = 18;

bool small(Int128 m) {
  return m < kSmallMantissa && m > -kSmallMantissa;
}

// a + b for normalized operands; result in *out. False when it does not fit.
inline bool addRaw(Int128 ma, int64_t ea, Int128 mb, int64_t eb, Int128* m, int64_t* e) {
  if (ea < eb) {
    std::swap(ma, mb);
    std::swap(ea, eb);
  }
  if (ea - eb <= kSmallShift && small(ma) && small(mb)) {
    *m = ma * static_cast<Int128>(kPow10[static_cast<size_t>(ea - eb)]) + mb;
    *e = eb;
    normalize(m, e);
    return true;
  }
  // Now ea >= eb: bring a down to b's exponent.
  UInt128 scaled = 0;
  if (!scaleUp(magnitude(ma), ea - eb, &scaled)) {
    return false;
  }
  Int128 a = ma < 0 ? -static_cast<Int128>(scaled) : static_cast<Int128>(scaled);
  Int128 sum = 0;
  if (__builtin_add_overflow(a, mb, &sum) || magnitude(sum) > kMaxMagnitude) {
    return false;
  }
  *m = sum;
  *e = eb;
  normalize(m, e);
  return true;
}

}  // namespace

UInt128 pow10(int n) {
  return kPow10[static_cast<size_t>(n)];
}

int decimalDigits(UInt128 v) {
  int digits = 1;
  while (digits <= kMaxPow10 && v >= kPow10[static_cast<size_t>(digits)]) {
    ++digits;
  }
  return digits;
}

void appendDigits(std::string& out, UInt128 v) {
  char buf[40];
  int i = sizeof(buf);
  do {
    buf[--i] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  out.append(buf + i, sizeof(buf) - static_cast<size_t>(i));
}

bool scaleUp(UInt128 v, int64_t n, UInt128* out) {
  if (v == 0) {
    *out = 0;
    return true;
  }
  if (n > kMaxPow10) {
    return false;
  }
  UInt128 product = 0;
  if (__builtin_mul_overflow(v, kPow10[static_cast<size_t>(n)], &product) ||
      product > kMaxMagnitude) {
    return false;
  }
  *out = product;
  return true;
}

Quantity Quantity::fromInt(int64_t value, QuantityFormat format) {
  return QuantityAccess::make(value, 0, format);
}

Quantity Quantity::fromMilli(int64_t milli, QuantityFormat format) {
  return QuantityAccess::make(milli, -3, format);
}

Quantity Quantity::fromScaled(int64_t value, int32_t scale, QuantityFormat format) {
  return QuantityAccess::make(value, scale, format);
}

std::string Quantity::toString() const {
  return formatQuantity(*this);
}

Quantity Quantity::withFormat(QuantityFormat format) const {
  return QuantityAccess::makeNormalized(mantissa_, exponent_, format);
}

int64_t Quantity::scaledValue(int32_t scale) const {
  if (mantissa_ == 0) {
    return 0;
  }
  bool negative = mantissa_ < 0;
  int64_t shift = exponent_ - scale;
  if (shift == 0) {
    return saturate(negative, magnitude(mantissa_));
  }
  if (shift > 0) {
    UInt128 scaled = 0;
    if (!scaleUp(magnitude(mantissa_), shift, &scaled)) {
      return negative ? kInt64Min : kInt64Max;
    }
    return saturate(negative, scaled);
  }
  // Scale down, rounding away from zero: |mantissa_| < 2^127 < 10^39.
  if (-shift > kMaxPow10) {
    return negative ? -1 : 1;
  }
  if (mantissa_ >= kInt64Min && mantissa_ <= kInt64Max && -shift <= 18) {
    auto m = static_cast<int64_t>(mantissa_);
    auto divisor = static_cast<int64_t>(kPow10[static_cast<size_t>(-shift)]);
    int64_t q = m / divisor;
    if (m % divisor != 0) {
      q += negative ? -1 : 1;
    }
    return q;
  }
  UInt128 mag = magnitude(mantissa_);
  UInt128 divisor = kPow10[static_cast<size_t>(-shift)];
  UInt128 q = mag / divisor;
  if (mag % divisor != 0) {
    ++q;
  }
  return saturate(negative, q);
}

double Quantity::toDouble() const {
  if (mantissa_ == 0) {
    return 0.0;
  }
  auto m = static_cast<double>(mantissa_);
  if (exponent_ >= 0) {
    return m * std::pow(10.0, static_cast<double>(exponent_));
  }
  if (exponent_ >= -22) {
    return m / static_cast<double>(kPow10[static_cast<size_t>(-exponent_)]);
  }
  return m * std::pow(10.0, static_cast<double>(exponent_));
}

Result<Quantity> Quantity::add(const Quantity& other) const {
  if (other.mantissa_ == 0) {
    return QuantityAccess::makeNormalized(mantissa_, exponent_,
                                          mantissa_ == 0 ? other.format_ : format_);
  }
  if (mantissa_ == 0) {
    return QuantityAccess::makeNormalized(other.mantissa_, other.exponent_, other.format_);
  }
  Int128 m = 0;
  int64_t e = 0;
  if (!addRaw(mantissa_, exponent_, other.mantissa_, other.exponent_, &m, &e)) {
    return overflow("add");
  }
  return QuantityAccess::makeNormalized(m, e, format_);
}

Result<Quantity> Quantity::sub(const Quantity& other) const {
  if (mantissa_ == 0) {
    return QuantityAccess::makeNormalized(-other.mantissa_, other.exponent_, other.format_);
  }
  if (other.mantissa_ == 0) {
    return QuantityAccess::makeNormalized(mantissa_, exponent_, format_);
  }
  Int128 m = 0;
  int64_t e = 0;
  if (!addRaw(mantissa_, exponent_, -other.mantissa_, other.exponent_, &m, &e)) {
    return overflow("subtract");
  }
  return QuantityAccess::makeNormalized(m, e, format_);
}

Result<Quantity> Quantity::mul(int64_t factor) const {
  Int128 product = 0;
  if (__builtin_mul_overflow(mantissa_, static_cast<Int128>(factor), &product) ||
      magnitude(product) > kMaxMagnitude) {
    return overflow("multiply");
  }
  return QuantityAccess::make(product, exponent_, format_);
}

Quantity Quantity::negated() const {
  return QuantityAccess::makeNormalized(-mantissa_, exponent_, format_);
}

std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
  int sa = a.sign();
  int sb = b.sign();
  if (sa != sb) {
    return sa <=> sb;
  }
  if (sa == 0) {
    return std::strong_ordering::equal;
  }
  if (a.exponent_ == b.exponent_) {
    return a.mantissa_ <=> b.mantissa_;
  }
  if (small(a.mantissa_) && small(b.mantissa_)) {
    if (a.exponent_ > b.exponent_ && a.exponent_ - b.exponent_ <= kSmallShift) {
      return a.mantissa_ *
                 static_cast<Int128>(kPow10[static_cast<size_t>(a.exponent_ - b.exponent_)]) <=>
             b.mantissa_;
    }
    if (b.exponent_ > a.exponent_ && b.exponent_ - a.exponent_ <= kSmallShift) {
      return a.mantissa_ <=>
             b.mantissa_ *
                 static_cast<Int128>(kPow10[static_cast<size_t>(b.exponent_ - a.exponent_)]);
    }
  }
  int cmp =
      compareMagnitude(magnitude(a.mantissa_), a.exponent_, magnitude(b.mantissa_), b.exponent_);
  if (sa < 0) {
    cmp = -cmp;
  }
  return cmp <=> 0;
}

}  // namespace koord::resource
