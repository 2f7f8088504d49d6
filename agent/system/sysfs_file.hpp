// Reading single-value files of sysfs and procfs (one number, one CPU list, one word per file).
//
// Contract: every function takes the full path of the file (the caller has already joined it to
// its injected root) and names that path in every error:
//   kNotFound         "failed to read '<path>': no such file"
//   kPermissionDenied "failed to read '<path>': permission denied"
//   kUnavailable      "failed to read '<path>': <strerror>" (any other I/O error)
//   kInvalidArgument  "failed to parse '<path>': <what was expected and what was found>"
// Values are trimmed of surrounding whitespace (sysfs ends every value with a newline).
// Stateless and thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::system {

// The whole content of the file, as read.
[[nodiscard]] Result<std::string> readSysFile(const std::filesystem::path& path);

// The trimmed content of the file.
[[nodiscard]] Result<std::string> readSysString(const std::filesystem::path& path);

// A decimal integer, optionally negative ("-1" is what sysfs prints for "no NUMA node").
[[nodiscard]] Result<int64_t> readSysInt(const std::filesystem::path& path);

// A CPU list in the kernel's list format ("0-3,8"); the empty file is the empty set.
[[nodiscard]] Result<cpuset::CpuSet> readSysCpuList(const std::filesystem::path& path);

// A size as sysfs prints cache sizes: decimal bytes with an optional K, M or G suffix
// (binary multiples): "32K" is 32768. `path` only names the file in errors.
[[nodiscard]] Result<int64_t> parseSysSize(std::string_view text,
                                           const std::filesystem::path& path);

// The numbers N of the entries named "<prefix>N" (N decimal, nothing after it) in `dir`, sorted
// ascending: listNumbered(".../cpu", "cpu") gives the cpuN folders. A missing `dir` gives
// kNotFound.
[[nodiscard]] Result<std::vector<int32_t>> listNumbered(const std::filesystem::path& dir,
                                                        std::string_view prefix);

// The trimmed text with surrounding whitespace removed.
[[nodiscard]] std::string_view trimSpace(std::string_view text);

// A whole decimal int64 (optional leading '-'); false when `text` is anything else.
[[nodiscard]] bool parseInt64(std::string_view text, int64_t* out);

}  // namespace koord::agent::system
