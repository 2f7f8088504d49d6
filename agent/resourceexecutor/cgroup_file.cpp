#include "agent/resourceexecutor/cgroup_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace koord::agent::resourceexecutor {

namespace {

Status writeError(const std::filesystem::path& file, std::string_view value, int err) {
  const Status status = Status::fromErrno(err, "failed to write '" + file.string() + "'");
  return {status.code(), status.message() + " (value '" + std::string(value) + "')"};
}

}  // namespace

Status writeCgroupFile(const std::filesystem::path& file, std::string_view value) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) {
    return writeError(file, value, errno);
  }
  // A zero-byte write(2) may never reach the kernel's handler, so the empty value is sent as a
  // lone newline, which every cgroup file strips.
  const std::string_view payload = value.empty() ? std::string_view("\n") : value;
  ssize_t written = 0;
  do {
    written = ::write(fd, payload.data(), payload.size());
  } while (written < 0 && errno == EINTR);
  const int write_errno = errno;
  ::close(fd);
  if (written < 0) {
    return writeError(file, value, write_errno);
  }
  if (static_cast<size_t>(written) != payload.size()) {
    return Status::unavailable("failed to write '" + file.string() + "': short write of " +
                               std::to_string(written) + " of " + std::to_string(payload.size()) +
                               " bytes (value '" + std::string(value) + "')");
  }
  return Status::ok();
}

}  // namespace koord::agent::resourceexecutor
