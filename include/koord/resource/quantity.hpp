// Quantity: an exact Kubernetes resource quantity (k8s.io/apimachinery/pkg/api/resource).
//
// Grammar (as Kubernetes): <sign><digits>[.<digits>]<suffix>, suffix one of the binary SI
// (Ki Mi Gi Ti Pi Ei), decimal SI (n u m "" k M G T P E) or a decimal exponent (e3, E-2).
// Values are exact: the number is a 128-bit integer mantissa times 10^exponent; values finer than
// 1n are rounded up to the next nano, as Kubernetes does. The format (the suffix family) of the
// parsed text is kept and drives canonical formatting, identical to Quantity.String() in Go:
// "1.5" -> "1500m", "1536Mi" stays "1536Mi", "0.1" -> "100m", "1e3" -> "1e3".
// Value type; thread-compatible; all operations are noexcept except formatting's allocation.
#pragma once

#include <cstdint>
#include <compare>
#include <string>
#include <string_view>

#include "koord/common/result.hpp"

namespace koord::resource {

enum class QuantityFormat { DecimalSI, BinarySI, DecimalExponent };

class Quantity {
 public:
  // Zero, DecimalSI.
  Quantity() = default;

  // Parses the full grammar; errors are kInvalidArgument ("quantities must match the regular
  // expression ...") or kOutOfRange (beyond what Kubernetes can represent).
  [[nodiscard]] static Result<Quantity> parse(std::string_view text);
  // An integer value, e.g. fromInt(4) is "4", fromInt(1024*1024, BinarySI) is "1Mi".
  [[nodiscard]] static Quantity fromInt(int64_t value,
                                        QuantityFormat format = QuantityFormat::DecimalSI);
  // A value in thousandths, e.g. fromMilli(1500) is "1500m".
  [[nodiscard]] static Quantity fromMilli(int64_t milli,
                                          QuantityFormat format = QuantityFormat::DecimalSI);

  // Canonical Kubernetes text.
  [[nodiscard]] std::string toString() const;
  [[nodiscard]] QuantityFormat format() const { return format_; }

  // The value rounded up to an integer (Go's Value()); saturates at int64 limits.
  [[nodiscard]] int64_t value() const;
  // The value in thousandths rounded up (Go's MilliValue()); saturates at int64 limits.
  [[nodiscard]] int64_t milliValue() const;
  // The value as a double (for ratios and percentages only).
  [[nodiscard]] double toDouble() const;

  [[nodiscard]] bool isZero() const { return mantissa_ == 0; }
  // -1, 0 or 1.
  [[nodiscard]] int sign() const { return mantissa_ < 0 ? -1 : (mantissa_ > 0 ? 1 : 0); }

  // Exact arithmetic; kOutOfRange on overflow of the internal representation. The result keeps
  // this quantity's format (Go: Add keeps the receiver's format).
  [[nodiscard]] Result<Quantity> add(const Quantity& other) const;
  [[nodiscard]] Result<Quantity> sub(const Quantity& other) const;
  [[nodiscard]] Quantity negated() const;

  // Numeric comparison (format is ignored).
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b);
  friend bool operator==(const Quantity& a, const Quantity& b) {
    return (a <=> b) == std::strong_ordering::equal;
  }

 private:
  // value = mantissa_ * 10^exponent_; normalized so that mantissa_ has no trailing zeros (or is 0
  // with exponent_ 0). exponent_ >= -9.
  __int128 mantissa_ = 0;
  int32_t exponent_ = 0;
  QuantityFormat format_ = QuantityFormat::DecimalSI;

  friend class QuantityAccess;
};

}  // namespace koord::resource
