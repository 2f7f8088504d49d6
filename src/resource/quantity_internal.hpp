// Internals shared by the Quantity translation units: 128-bit helpers and raw field access.
#pragma once

#include <cstdint>
#include <string>

#include "koord/resource/quantity.hpp"

namespace koord::resource {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

// The largest mantissa magnitude, 2^127-1 (kept symmetric so negation never overflows).
inline constexpr UInt128 kMaxMagnitude = (static_cast<UInt128>(1) << 127) - 1;
// 10^38 is the largest power of ten below 2^127.
inline constexpr int kMaxPow10 = 38;

// |v|: exact, since mantissas stay within kMaxMagnitude.
inline UInt128 magnitude(Int128 v) {
  return v < 0 ? -static_cast<UInt128>(v) : static_cast<UInt128>(v);
}

// 10^n for 0 <= n <= 38.
UInt128 pow10(int n);
// Number of decimal digits of v (1 for 0).
int decimalDigits(UInt128 v);
// Appends the decimal digits of v.
void appendDigits(std::string& out, UInt128 v);
// Strips trailing decimal zeros from *m into *e; zero becomes (0, 0). Inline: on every add.
inline void normalize(Int128* m, int64_t* e) {
  if (*m == 0) {
    *e = 0;
    return;
  }
  constexpr Int128 kInt64Limit = static_cast<Int128>(1) << 63;
  if (*m < kInt64Limit && *m >= -kInt64Limit) {
    auto small = static_cast<int64_t>(*m);
    int64_t exponent = *e;
    while (small % 10 == 0) {
      small /= 10;
      ++exponent;
    }
    *m = small;
    *e = exponent;
    return;
  }
  while (*m % 10 == 0) {
    *m /= 10;
    ++*e;
  }
}
// *out = v * 10^n when it fits in kMaxMagnitude.
[[nodiscard]] bool scaleUp(UInt128 v, int64_t n, UInt128* out);

// Bits of Quantity::spell_flags_. When kPreserved is set, toString() rebuilds the parsed text
// (Go's ParseQuantity caches it); the other fields say how it was spelled:
//   spell_lead_zeros_      zeros between the sign and the first significant digit
//   spell_fraction_digits_ digits after the '.', when kDot is set
//   spell_aux_             decimal: trailing zeros of the digit string (0..2) not in the
//                          normalized mantissa; binary: the suffix power of 1024 (1..6)
//   spell_exp_lead_zeros_  zeros before the digits of a decimal exponent ("1e03")
inline constexpr uint8_t kPreserved = 1;
inline constexpr uint8_t kPlus = 2;
inline constexpr uint8_t kDot = 4;
inline constexpr uint8_t kUpperE = 8;
inline constexpr uint8_t kExpPlus = 16;
inline constexpr uint8_t kExpMinus = 32;

struct Spelling {
  uint8_t flags = 0;
  uint8_t fraction_digits = 0;
  uint8_t aux = 0;
  uint16_t lead_zeros = 0;
  uint16_t exp_lead_zeros = 0;
};

class QuantityAccess {
 public:
  // A quantity from a mantissa and exponent (normalized here), with no spelling.
  static Quantity make(Int128 mantissa, int64_t exponent, QuantityFormat format) {
    normalize(&mantissa, &exponent);
    return makeNormalized(mantissa, exponent, format);
  }
  // As make(), for a mantissa and exponent that are already normalized.
  static Quantity makeNormalized(Int128 mantissa, int64_t exponent, QuantityFormat format) {
    Quantity q;
    q.mantissa_ = mantissa;
    q.exponent_ = exponent;
    q.format_ = format;
    return q;
  }
  static void setSpelling(Quantity* q, const Spelling& s) {
    q->spell_flags_ = s.flags;
    q->spell_fraction_digits_ = s.fraction_digits;
    q->spell_aux_ = s.aux;
    q->spell_lead_zeros_ = s.lead_zeros;
    q->spell_exp_lead_zeros_ = s.exp_lead_zeros;
  }
  static Spelling spelling(const Quantity& q) {
    return Spelling{q.spell_flags_, q.spell_fraction_digits_, q.spell_aux_, q.spell_lead_zeros_,
                    q.spell_exp_lead_zeros_};
  }
  static Int128 mantissa(const Quantity& q) { return q.mantissa_; }
  static int64_t exponent(const Quantity& q) { return q.exponent_; }
};

// Go's String() (CanonicalizeBytes, or the cached parse text): defined in quantity_format.cpp.
std::string formatQuantity(const Quantity& q);

}  // namespace koord::resource
