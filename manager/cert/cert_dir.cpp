#include "manager/cert/cert_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace koord::manager::cert {
namespace {

bool holds(const std::string& path, const std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return false;
  }
  const std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return !in.bad() && current == content;
}

// Writes all of `content`; false with errno set when a write fails.
bool writeAll(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Replaces `path` with `content` (temporary file, then rename); whether it changed.
Result<bool> replaceFile(const std::string& path, const std::string& content, mode_t mode) {
  if (holds(path, content)) {
    return false;
  }
  const std::string temporary = path + ".tmp";
  const auto failed = [&](const std::string& target) {
    const int cause = errno;
    ::unlink(temporary.c_str());
    return Status::fromErrno(cause, "failed to write '" + target + "'");
  };
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    return failed(temporary);
  }
  const bool synced = writeAll(fd, content) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!synced) {
    errno = saved;
    return failed(temporary);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    return failed(path);
  }
  return true;
}

}  // namespace

Result<bool> CertDir::write(const KeyPair& serving) const {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) {
    return Status::invalidArgument("failed to create '" + dir_ + "': " + error.message());
  }
  // The key first: a server that reloads between the two renames fails the key check and keeps
  // what it serves, rather than loading a certificate without its key.
  KOORD_ASSIGN_OR_RETURN(const bool key_changed, replaceFile(keyFile(), serving.key, 0600));
  KOORD_ASSIGN_OR_RETURN(const bool cert_changed, replaceFile(certFile(), serving.cert, 0644));
  return key_changed || cert_changed;
}

}  // namespace koord::manager::cert
