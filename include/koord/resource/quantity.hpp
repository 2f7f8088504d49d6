// Quantity: an exact Kubernetes resource quantity (k8s.io/apimachinery/pkg/api/resource).
//
// Grammar (as Kubernetes): <sign><digits>[.<digits>]<suffix>, suffix one of the binary SI
// (Ki Mi Gi Ti Pi Ei), decimal SI (n u m "" k M G T P E) or a decimal exponent (e3, E-2).
// parse() accepts exactly what Go's ParseQuantity accepts, quirks included ("5." and ".5" parse;
// so do digit-less forms such as "-", "." or "Ki", which Go reads as zero), except where a value
// does not fit this representation (see below).
//
// Values are exact: a 128-bit integer mantissa times 10^exponent. Parsing rounds a value finer
// than 1n away from zero to the next nano and caps a BinarySI value at 2^63-1, as Go does.
// The format (suffix family) of the parsed text is kept and drives formatting: toString() returns
// exactly what Go's Quantity.String() returns after ParseQuantity, including the verbatim input
// that Go's parser caches for some non-canonical spellings ("1.500" stays "1.500", kubernetes
// #138165); any arithmetic result is canonical ("1.5" -> "1500m", "1536Mi" stays "1536Mi",
// "1.5Gi" -> "1536Mi", "0.1" -> "100m", "1e3" -> "1e3").
//
// Limits (kOutOfRange where Go would go on): more than 38 significant digits after rounding to
// nano; an exponent outside int32 (Go wraps it modulo 2^32; kubernetes #141203 rejects it).
// Deviations from Go, chosen where Go corrupts a value: a BinarySI value that is a multiple of
// 1024^7 prints as "<n>Ei" (Go drops the suffix); value() and milliValue() round away from zero and
// saturate on every path (newer Go does the same). Text with more than 65535 leading zeros prints
// canonical where Go would echo it.
//
// Value type, 32 bytes, trivially copyable; thread-compatible. Comparison, arithmetic and the
// int64 accessors never allocate; toString() does, and parse() only for errors and fractional
// binary values.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::resource {

enum class QuantityFormat : uint8_t { kDecimalSI, kBinarySI, kDecimalExponent };

class Quantity {
 public:
  // Zero, DecimalSI.
  Quantity() = default;

  // Parses the full grammar; errors are kInvalidArgument (the text is not a quantity, with Go's
  // message: "quantities must match the regular expression ...", "unable to parse quantity's
  // suffix", "unable to parse numeric part of quantity") or kOutOfRange (see Limits above).
  [[nodiscard]] static Result<Quantity> parse(std::string_view text);
  // An integer value, e.g. fromInt(4) is "4", fromInt(1024*1024, BinarySI) is "1Mi".
  [[nodiscard]] static Quantity fromInt(int64_t value,
                                        QuantityFormat format = QuantityFormat::kDecimalSI);
  // A value in thousandths, e.g. fromMilli(1500) is "1500m".
  [[nodiscard]] static Quantity fromMilli(int64_t milli,
                                          QuantityFormat format = QuantityFormat::kDecimalSI);
  // value * 10^scale exactly (Go's NewScaledQuantity), e.g. fromScaled(5, -9) is "5n".
  [[nodiscard]] static Quantity fromScaled(int64_t value, int32_t scale,
                                           QuantityFormat format = QuantityFormat::kDecimalSI);

  // Go's String(): canonical Kubernetes text, or the parsed text where Go keeps it verbatim.
  [[nodiscard]] std::string toString() const;
  [[nodiscard]] QuantityFormat format() const { return format_; }
  // The same value in another format (canonical text; Go: assigning q.Format).
  [[nodiscard]] Quantity withFormat(QuantityFormat format) const;

  // The value rounded up to an integer, away from zero (Go's Value()); saturates at int64 limits.
  [[nodiscard]] int64_t value() const { return scaledValue(0); }
  // The value in thousandths rounded up, away from zero (Go's MilliValue()); saturates.
  [[nodiscard]] int64_t milliValue() const { return scaledValue(-3); }
  // The value in units of 10^scale rounded up, away from zero (Go's ScaledValue()); saturates.
  [[nodiscard]] int64_t scaledValue(int32_t scale) const;
  // The value as a double (for ratios and percentages only); +-inf beyond double's range.
  [[nodiscard]] double toDouble() const;

  [[nodiscard]] bool isZero() const { return mantissa_ == 0; }
  // -1, 0 or 1.
  [[nodiscard]] int sign() const { return mantissa_ < 0 ? -1 : (mantissa_ > 0 ? 1 : 0); }

  // Exact arithmetic; kOutOfRange when the result needs more than 38 significant digits. The
  // result keeps this quantity's format, unless this quantity is zero: then it takes other's
  // (Go's Add and Sub, so that 0 + 1Gi prints "1Gi").
  [[nodiscard]] Result<Quantity> add(const Quantity& other) const;
  [[nodiscard]] Result<Quantity> sub(const Quantity& other) const;
  // this * factor, exactly; keeps the format. kOutOfRange as above.
  [[nodiscard]] Result<Quantity> mul(int64_t factor) const;
  [[nodiscard]] Quantity negated() const;

  // Numeric comparison (format and spelling are ignored).
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b);
  friend bool operator==(const Quantity& a, const Quantity& b) {
    return a.mantissa_ == b.mantissa_ && a.exponent_ == b.exponent_;
  }

 private:
  __extension__ using Int128 = __int128;

  // value = mantissa_ * 10^exponent_; normalized: mantissa_ has no trailing decimal zeros (or is 0
  // with exponent_ 0), and |mantissa_| <= 2^127-1. Equal values have equal members.
  Int128 mantissa_ = 0;
  int64_t exponent_ = 0;
  // How Go's parser would echo the input; see quantity_internal.hpp (all zero: canonical).
  uint16_t spell_lead_zeros_ = 0;
  uint16_t spell_exp_lead_zeros_ = 0;
  QuantityFormat format_ = QuantityFormat::kDecimalSI;
  uint8_t spell_flags_ = 0;
  uint8_t spell_fraction_digits_ = 0;
  uint8_t spell_aux_ = 0;

  friend class QuantityAccess;
};

}  // namespace koord::resource
