// Quantity formatting: Go's Quantity.String(), i.e. CanonicalizeBytes, or the input text that
// ParseQuantity cached (rebuilt here from the spelling fields).
#include <string>

#include "koord/resource/quantity.hpp"
#include "quantity_internal.hpp"

namespace koord::resource {

namespace {

constexpr int kMaxBinaryPower = 6;  // Ei

// The DecimalSI suffix for 10^exponent, or nullptr where there is none.
const char* decimalSuffix(int64_t exponent) {
  switch (exponent) {
    case -9:
      return "n";
    case -6:
      return "u";
    case -3:
      return "m";
    case 0:
      return "";
    case 3:
      return "k";
    case 6:
      return "M";
    case 9:
      return "G";
    case 12:
      return "T";
    case 15:
      return "P";
    case 18:
      return "E";
    default:
      return nullptr;
  }
}

const char* binarySuffix(int power) {
  static constexpr const char* kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return kSuffixes[power];
}

void appendExponent(std::string& out, int64_t exponent) {
  out.push_back('e');
  if (exponent < 0) {
    out.push_back('-');
  }
  appendDigits(out, static_cast<UInt128>(exponent < 0 ? -exponent : exponent));
}

// Go's CanonicalizeBytes for DecimalSI and DecimalExponent: the exponent is lowered to a multiple
// of three and the mantissa printed whole.
void appendDecimal(std::string& out, UInt128 mag, int64_t exponent, QuantityFormat format) {
  const int64_t extra_zeros = ((exponent % 3) + 3) % 3;
  exponent -= extra_zeros;
  appendDigits(out, mag);
  out.append(static_cast<size_t>(extra_zeros), '0');
  if (format == QuantityFormat::kDecimalSI) {
    if (const char* suffix = decimalSuffix(exponent)) {
      out.append(suffix);
      return;
    }
  } else if (exponent == 0) {
    return;
  }
  appendExponent(out, exponent);
}

// The integer mag * 10^exponent when it is one and fits in 128 bits.
bool integral(UInt128 mag, int64_t exponent, UInt128* out) {
  return exponent >= 0 && scaleUp(mag, exponent, out);
}

std::string canonical(const Quantity& q) {
  const Int128 m = QuantityAccess::mantissa(q);
  const int64_t e = QuantityAccess::exponent(q);
  if (m == 0) {
    return "0";
  }
  std::string out;
  out.reserve(24);
  if (m < 0) {
    out.push_back('-');
  }
  const UInt128 mag = magnitude(m);
  UInt128 whole = 0;
  if (q.format() == QuantityFormat::kBinarySI && integral(mag, e, &whole) && whole >= 1024) {
    int power = 0;
    while (power < kMaxBinaryPower && whole % 1024 == 0) {
      whole /= 1024;
      ++power;
    }
    appendDigits(out, whole);
    out.append(binarySuffix(power));
    return out;
  }
  // BinarySI below 1024 or not integral is shown as DecimalSI, as in Go.
  appendDecimal(out, mag, e,
                q.format() == QuantityFormat::kDecimalExponent ? QuantityFormat::kDecimalExponent
                                                               : QuantityFormat::kDecimalSI);
  return out;
}

// Rebuilds the text Go's parser cached; see Spelling in quantity_internal.hpp.
std::string cached(const Quantity& q, const Spelling& s) {
  const Int128 m = QuantityAccess::mantissa(q);
  const int64_t e = QuantityAccess::exponent(q);
  const UInt128 mag = magnitude(m);
  std::string out;
  if (m < 0) {
    out.push_back('-');
  } else if ((s.flags & kPlus) != 0) {
    out.push_back('+');
  }
  out.append(s.lead_zeros, '0');
  if (q.format() == QuantityFormat::kBinarySI) {
    UInt128 whole = 0;
    (void)scaleUp(mag, e, &whole);
    appendDigits(out, whole >> (10 * s.aux));
    if ((s.flags & kDot) != 0) {
      out.push_back('.');
    }
    out.append(binarySuffix(s.aux));
    return out;
  }
  UInt128 shifted = 0;
  (void)scaleUp(mag, s.aux, &shifted);
  std::string digits;
  appendDigits(digits, shifted);
  const size_t fraction = s.fraction_digits;
  out.append(digits, 0, digits.size() - fraction);
  if ((s.flags & kDot) != 0) {
    out.push_back('.');
    out.append(digits, digits.size() - fraction, fraction);
  }
  const int64_t exponent = e - s.aux + static_cast<int64_t>(fraction);
  if (q.format() == QuantityFormat::kDecimalSI) {
    out.append(decimalSuffix(exponent));
    return out;
  }
  out.push_back((s.flags & kUpperE) != 0 ? 'E' : 'e');
  if ((s.flags & kExpPlus) != 0) {
    out.push_back('+');
  } else if ((s.flags & kExpMinus) != 0) {
    out.push_back('-');
  }
  out.append(s.exp_lead_zeros, '0');
  appendDigits(out, static_cast<UInt128>(exponent < 0 ? -exponent : exponent));
  return out;
}

}  // namespace

std::string formatQuantity(const Quantity& q) {
  const Spelling s = QuantityAccess::spelling(q);
  if ((s.flags & kPreserved) != 0) {
    return cached(q, s);
  }
  return canonical(q);
}

}  // namespace koord::resource
