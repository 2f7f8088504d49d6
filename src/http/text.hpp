// Small text helpers shared by the HTTP sources (private to koord_http).
#pragma once

#include <string>
#include <string_view>

namespace koord::http::detail {

bool equalsIgnoreCase(std::string_view a, std::string_view b);
// Decodes %XX escapes (malformed escapes are kept as they are); '+' becomes ' ' when asked.
std::string percentDecode(std::string_view text, bool plus_is_space);
// Whether `c` may appear in an RFC 9110 token (a method or a header name).
bool isTokenChar(char c);
// The value of a hexadecimal digit (either case), or -1 when `c` is not one.
int hexDigitValue(char c);

}  // namespace koord::http::detail
