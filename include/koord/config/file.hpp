// Reading small configuration files into memory.
#pragma once

#include <cstddef>
#include <string>

#include "koord/common/result.hpp"

namespace koord::config {

// Configuration files are small; anything above this is almost certainly the wrong file.
inline constexpr std::size_t kDefaultMaxFileBytes = std::size_t{16} << 20;

// Reads the whole regular file (or pipe, e.g. /dev/stdin) at `path`, reading at most
// max_bytes + 1 bytes whatever the file's size. Errors name the path and read
// "failed to read '<path>': <cause>"; codes: kNotFound when it does not exist, kPermissionDenied
// when it is not readable, kInvalidArgument for a directory, kResourceExhausted when it is larger
// than max_bytes, kUnavailable for other I/O errors. Thread-safe.
[[nodiscard]] Result<std::string> readFile(const std::string& path,
                                           std::size_t max_bytes = kDefaultMaxFileBytes);

}  // namespace koord::config
