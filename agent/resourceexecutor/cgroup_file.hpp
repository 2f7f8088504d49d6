// Writing one cgroup control file, the way runc does: open the existing file write-only
// (O_TRUNC, never O_CREAT) and hand the whole value to one write(2), since the kernel parses each
// write on its own. The empty value is written as "\n". Stateless and thread-safe.
#pragma once

#include <filesystem>
#include <string_view>

#include "koord/common/status.hpp"

namespace koord::agent::resourceexecutor {

// Errors: "failed to write '<file>': <strerror> (value '<value>')" with kNotFound
// (ENOENT, ENOTDIR), kPermissionDenied (EACCES, EPERM), kInvalidArgument (EINVAL, ERANGE),
// kFailedPrecondition (EBUSY) or kUnavailable (anything else, or a short write).
[[nodiscard]] Status writeCgroupFile(const std::filesystem::path& file, std::string_view value);

}  // namespace koord::agent::resourceexecutor
