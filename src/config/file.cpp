#include "koord/config/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace koord::config {
namespace {

Status readError(const std::string& path, int error) {
  return Status::fromErrno(error, "failed to read '" + path + "'");
}

// Closes the descriptor on every path out of readFile().
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Result<std::string> readFile(const std::string& path, std::size_t max_bytes) {
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    return readError(path, errno);
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return readError(path, errno);
  }
  if (S_ISDIR(info.st_mode)) {
    return readError(path, EISDIR);
  }
  if (S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) > max_bytes) {
    return Status::resourceExhausted("failed to read '" + path + "': file is " +
                                     std::to_string(info.st_size) + " bytes, more than the " +
                                     std::to_string(max_bytes) + " allowed");
  }
  std::string content;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return readError(path, errno);
    }
    if (n == 0) {
      break;
    }
    content.append(buffer, static_cast<std::size_t>(n));
    if (content.size() > max_bytes) {
      return Status::resourceExhausted("failed to read '" + path + "': more than the " +
                                       std::to_string(max_bytes) + " bytes allowed");
    }
  }
  return content;
}

}  // namespace koord::config
