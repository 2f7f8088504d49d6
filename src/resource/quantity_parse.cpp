// Quantity::parse: Go's ParseQuantity (k8s.io/apimachinery/pkg/api/resource/quantity.go),
// including which inputs it accepts, how it rounds and caps, and which input text it caches.
#include <algorithm>
#include <limits>
#include <string>

#include "koord/resource/quantity.hpp"
#include "quantity_internal.hpp"

namespace koord::resource {

namespace {

constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";

// Go's fast path handles at most this many digits (maxInt64Factors).
constexpr int64_t kFastDigits = 18;
constexpr int64_t kNanoExponent = -9;
constexpr UInt128 kBinaryCap = static_cast<UInt128>(std::numeric_limits<int64_t>::max());

Status invalid(std::string_view text, std::string_view cause) {
  return Status::invalidArgument("failed to parse quantity '" + std::string(text) +
                                 "': " + std::string(cause));
}

Status outOfRange(std::string_view text, std::string_view cause) {
  return Status::outOfRange("failed to parse quantity '" + std::string(text) +
                            "': " + std::string(cause));
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

bool isSuffixChar(char c) {
  switch (c) {
    case 'e':
    case 'E':
    case 'i':
    case 'n':
    case 'u':
    case 'm':
    case 'k':
    case 'K':
    case 'M':
    case 'G':
    case 'T':
    case 'P':
      return true;
    default:
      return false;
  }
}

// The pieces of a quantity's text (Go's parseQuantityString).
struct Lexed {
  bool negative = false;
  bool plus = false;
  size_t lead_zeros = 0;  // zeros after the sign, before num
  std::string_view num;   // integer digits after the leading zeros
  bool dot = false;
  std::string_view denom;  // fraction digits
  std::string_view suffix;
};

// False where Go answers ErrFormatWrong.
bool lex(std::string_view s, Lexed* out) {
  size_t pos = 0;
  const size_t end = s.size();
  if (s[0] == '-') {
    out->negative = true;
    ++pos;
  } else if (s[0] == '+') {
    out->plus = true;
    ++pos;
  }
  size_t i = pos;
  while (i < end && s[i] == '0') {
    ++i;
  }
  out->lead_zeros = i - pos;
  if (i >= end) {
    return true;
  }
  pos = i;
  while (i < end && isDigit(s[i])) {
    ++i;
  }
  out->num = s.substr(pos, i - pos);
  if (i >= end) {
    return true;
  }
  pos = i;
  if (s[pos] == '.') {
    out->dot = true;
    i = ++pos;
    while (i < end && isDigit(s[i])) {
      ++i;
    }
    out->denom = s.substr(pos, i - pos);
    if (i >= end) {
      return true;
    }
    pos = i;
  }
  const size_t suffix_start = pos;
  i = pos;
  while (i < end && isSuffixChar(s[i])) {
    ++i;
  }
  if (i < end && (s[i] == '-' || s[i] == '+')) {
    ++i;
  }
  while (i < end && isDigit(s[i])) {
    ++i;
  }
  if (i < end) {
    return false;
  }
  out->suffix = s.substr(suffix_start);
  return true;
}

struct Suffix {
  int base = 10;
  int64_t exponent = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
};

enum class SuffixResult { kOk, kInvalid, kOutOfRange };

// Go's strconv.ParseInt(s, 10, 64).
bool parseInt64(std::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) {
    return false;
  }
  UInt128 v = 0;
  for (char c : s) {
    if (!isDigit(c)) {
      return false;
    }
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > static_cast<UInt128>(std::numeric_limits<int64_t>::max()) + 1) {
      return false;
    }
  }
  if (!negative && v > static_cast<UInt128>(std::numeric_limits<int64_t>::max())) {
    return false;
  }
  *out = negative ? static_cast<int64_t>(-static_cast<Int128>(v)) : static_cast<int64_t>(v);
  return true;
}

// Go's suffixer.interpret.
SuffixResult interpret(std::string_view s, Suffix* out) {
  struct Entry {
    std::string_view text;
    int base;
    int exponent;
  };
  static constexpr Entry kTable[] = {
      {"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},
      {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
      {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
  };
  for (const Entry& entry : kTable) {
    if (entry.text == s) {
      out->base = entry.base;
      out->exponent = entry.exponent;
      out->format = entry.base == 2 ? QuantityFormat::kBinarySI : QuantityFormat::kDecimalSI;
      return SuffixResult::kOk;
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    int64_t exponent = 0;
    if (!parseInt64(s.substr(1), &exponent)) {
      return SuffixResult::kInvalid;
    }
    if (exponent < std::numeric_limits<int32_t>::min() ||
        exponent > std::numeric_limits<int32_t>::max()) {
      return SuffixResult::kOutOfRange;
    }
    out->base = 10;
    out->exponent = exponent;
    out->format = QuantityFormat::kDecimalExponent;
    return SuffixResult::kOk;
  }
  return SuffixResult::kInvalid;
}

// The digits a then b, as one decimal string.
struct Digits {
  std::string_view a;
  std::string_view b;
  [[nodiscard]] size_t size() const { return a.size() + b.size(); }
  [[nodiscard]] unsigned at(size_t i) const {
    char c = i < a.size() ? a[i] : b[i - a.size()];
    return static_cast<unsigned>(c - '0');
  }
};

// The magnitude of `digits` * 10^exp_last (exp_last: the weight of the last digit), rounded
// away from zero to a multiple of 10^-9. False when it needs more than 127 bits.
bool decimalMagnitude(const Digits& digits, int64_t exp_last, UInt128* mag, int64_t* exp) {
  const int64_t target = std::max(exp_last, kNanoExponent);
  const auto length = static_cast<int64_t>(digits.size());
  const int64_t keep = std::max<int64_t>(0, length - (target - exp_last));
  UInt128 m = 0;
  int64_t pending_zeros = 0;
  for (int64_t i = 0; i < keep; ++i) {
    unsigned d = digits.at(static_cast<size_t>(i));
    if (d == 0) {
      pending_zeros += m != 0 ? 1 : 0;
      continue;
    }
    if (pending_zeros != 0 && !scaleUp(m, pending_zeros, &m)) {
      return false;
    }
    pending_zeros = 0;
    if (m > (kMaxMagnitude - d) / 10) {
      return false;
    }
    m = m * 10 + d;
  }
  bool sticky = false;
  for (auto i = static_cast<size_t>(keep); i < digits.size() && !sticky; ++i) {
    sticky = digits.at(i) != 0;
  }
  if (sticky) {
    if (pending_zeros != 0 && !scaleUp(m, pending_zeros, &m)) {
      return false;
    }
    pending_zeros = 0;
    if (m == kMaxMagnitude) {
      return false;
    }
    ++m;
  }
  *mag = m;
  *exp = target + pending_zeros;
  return true;
}

// Go's slow path for a binary suffix: digits / 10^fraction * 1024^power, rounded up to nano,
// capped at 2^63-1.
bool binaryMagnitude(const Lexed& lexed, int power, UInt128* mag, int64_t* exp) {
  const size_t fraction = lexed.denom.size();
  if (lexed.num.size() > 19) {
    *mag = kBinaryCap;
    *exp = 0;
    return true;
  }
  // Multiply the decimal digit string by 1024 `power` times, in place; the 19 leading zeros
  // leave room for the factor (2^60 has 19 digits).
  std::string buffer(19 + lexed.num.size() + lexed.denom.size(), '0');
  std::copy(lexed.num.begin(), lexed.num.end(), buffer.begin() + 19);
  std::copy(lexed.denom.begin(), lexed.denom.end(), buffer.begin() + 19 + lexed.num.size());
  for (int r = 0; r < power; ++r) {
    unsigned carry = 0;
    for (size_t j = buffer.size(); j-- > 0;) {
      unsigned v = static_cast<unsigned>(buffer[j] - '0') * 1024 + carry;
      buffer[j] = static_cast<char>('0' + v % 10);
      carry = v / 10;
    }
  }
  std::string_view all(buffer);
  size_t first = all.find_first_not_of('0');
  if (first == std::string_view::npos) {
    *mag = 0;
    *exp = 0;
    return true;
  }
  if (all.size() - first > fraction + 19) {
    *mag = kBinaryCap;
    *exp = 0;
    return true;
  }
  Digits digits{all.substr(first), {}};
  if (!decimalMagnitude(digits, -static_cast<int64_t>(fraction), mag, exp)) {
    return false;
  }
  // Cap when mag * 10^exp > 2^63-1 (exp >= -9 after rounding, so the limit fits).
  UInt128 limit = kBinaryCap;
  UInt128 value = *mag;
  const bool above = *exp >= 0 ? !scaleUp(*mag, *exp, &value) || value > kBinaryCap
                               : (scaleUp(kBinaryCap, -*exp, &limit) && *mag > limit);
  if (above) {
    *mag = kBinaryCap;
    *exp = 0;
  }
  return true;
}

// Go's ParseQuantity keeps the input text when its int64 fast path finds it "canonical". Returns
// the spelling that rebuilds the text, or flags == 0 where Go does not keep it.
Spelling cachedSpelling(const Lexed& lexed, const Suffix& suffix, int64_t normalized_exponent) {
  Spelling s;
  if (lexed.lead_zeros > std::numeric_limits<uint16_t>::max()) {
    return s;
  }
  s.flags = kPreserved;
  s.flags |= lexed.plus ? kPlus : 0;
  s.flags |= lexed.dot ? kDot : 0;
  s.fraction_digits = static_cast<uint8_t>(lexed.denom.size());
  s.lead_zeros = static_cast<uint16_t>(lexed.lead_zeros);
  if (suffix.base == 2) {
    s.aux = static_cast<uint8_t>(suffix.exponent / 10);
    return s;
  }
  const int64_t scale = suffix.exponent - static_cast<int64_t>(lexed.denom.size());
  s.aux = static_cast<uint8_t>(normalized_exponent - scale);
  if (suffix.format == QuantityFormat::kDecimalExponent) {
    std::string_view text = lexed.suffix.substr(1);
    s.flags |= lexed.suffix[0] == 'E' ? kUpperE : 0;
    if (text[0] == '+' || text[0] == '-') {
      s.flags |= text[0] == '+' ? kExpPlus : kExpMinus;
      text.remove_prefix(1);
    }
    const auto magnitude =
        static_cast<UInt128>(suffix.exponent < 0 ? -suffix.exponent : suffix.exponent);
    const size_t zeros = text.size() - static_cast<size_t>(decimalDigits(magnitude));
    if (zeros > std::numeric_limits<uint16_t>::max()) {
      return Spelling{};
    }
    s.exp_lead_zeros = static_cast<uint16_t>(zeros);
  }
  return s;
}

}  // namespace

Result<Quantity> Quantity::parse(std::string_view text) {
  if (text.empty()) {
    return invalid(text, kErrFormatWrong);
  }
  Lexed lexed;
  if (!lex(text, &lexed)) {
    return invalid(text, kErrFormatWrong);
  }
  Suffix suffix;
  switch (interpret(lexed.suffix, &suffix)) {
    case SuffixResult::kOk:
      break;
    case SuffixResult::kInvalid:
      return invalid(text, kErrSuffix);
    case SuffixResult::kOutOfRange:
      return outOfRange(text, "the exponent does not fit in 32 bits");
  }

  const bool has_digit = lexed.lead_zeros != 0 || !lexed.num.empty() || !lexed.denom.empty();
  const auto num_digits = static_cast<int64_t>(std::max<size_t>(lexed.num.size(), 1));
  const auto fraction = static_cast<int64_t>(lexed.denom.size());

  // Go's int64 fast path: where it applies, digit-less text is zero and some text is cached.
  bool fast = false;
  bool cache_text = false;
  UInt128 mag = 0;
  int64_t exp = 0;
  QuantityFormat format = suffix.format;
  if (suffix.base == 10) {
    const int64_t scale = suffix.exponent - fraction;
    fast = num_digits + fraction <= kFastDigits && scale >= kNanoExponent;
    if (fast && scale % 3 == 0 && !lexed.num.empty()) {
      const Digits shifted{lexed.num, lexed.denom};
      const size_t n = shifted.size();
      const bool ends_000 =
          n >= 3 && shifted.at(n - 1) == 0 && shifted.at(n - 2) == 0 && shifted.at(n - 3) == 0;
      cache_text = !ends_000;
    }
    if (!fast && !has_digit) {
      return invalid(text, kErrNumeric);
    }
    if (!decimalMagnitude(Digits{lexed.num, lexed.denom}, scale, &mag, &exp)) {
      return outOfRange(text, "the value needs more than 38 significant digits");
    }
  } else {
    const int power = static_cast<int>(suffix.exponent / 10);
    const int64_t precision = 15 - num_digits - (suffix.exponent * 3 / 10) - 1;
    fast = fraction == 0 && precision >= 0;
    if (!fast && !has_digit) {
      return invalid(text, kErrNumeric);
    }
    if (fast) {
      UInt128 value = 0;
      for (char c : lexed.num) {
        value = value * 10 + static_cast<unsigned>(c - '0');
      }
      cache_text = (value & 7) != 0;
      mag = value << suffix.exponent;
    } else {
      if (!binaryMagnitude(lexed, power, &mag, &exp)) {
        return outOfRange(text, "the value needs more than 38 significant digits");
      }
      // A non-zero value below 1 (after rounding) is not shown in binary (Go).
      if (mag != 0 && exp < 0 && mag < pow10(static_cast<int>(-exp))) {
        format = QuantityFormat::kDecimalSI;
      }
    }
  }

  const Int128 signed_mag = lexed.negative ? -static_cast<Int128>(mag) : static_cast<Int128>(mag);
  Quantity q = QuantityAccess::make(signed_mag, exp, format);
  if (cache_text && mag != 0) {
    QuantityAccess::setSpelling(&q, cachedSpelling(lexed, suffix, QuantityAccess::exponent(q)));
  }
  return q;
}

}  // namespace koord::resource
