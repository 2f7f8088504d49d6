#include "agent/metricsadvisor/cgroup_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "agent/system/sysfs_file.hpp"

namespace koord::agent::metricsadvisor {

namespace {

// Closes the descriptor on every path out of readWholeFile.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

Status fileError(const std::string& path, int err) {
  return Status::fromErrno(err, "failed to read '" + path + "'");
}

Status checkRelativeDir(std::string_view dir) {
  if (!dir.empty() && dir.front() == '/') {
    return Status::invalidArgument("failed to read cgroup '" + std::string(dir) +
                                   "': the path must be relative to the hierarchy root");
  }
  size_t start = 0;
  while (start <= dir.size()) {
    const size_t slash = dir.find('/', start);
    const size_t end = slash == std::string_view::npos ? dir.size() : slash;
    if (dir.substr(start, end - start) == "..") {
      return Status::invalidArgument("failed to read cgroup '" + std::string(dir) +
                                     "': the path must not contain '..'");
    }
    start = end + 1;
  }
  return Status::ok();
}

std::string joinCgroupPath(std::string_view prefix, std::string_view dir, std::string_view file) {
  std::string path;
  path.reserve(prefix.size() + dir.size() + file.size() + 2);
  path.append(prefix);
  if (!dir.empty()) {
    path.push_back('/');
    path.append(dir);
  }
  path.push_back('/');
  path.append(file);
  return path;
}

// POSIX open/read rather than system::readSysFile (a stat and an ifstream per file): the node
// collector reads procfs every cycle.
Status readWholeFile(const std::string& path, std::string* content) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fileError(path, errno);
  }
  const FdCloser closer(fd);
  return readDescriptor(fd, ReadMode::kStream, path, content);
}

Status readDescriptor(int fd, ReadMode mode, const std::string& path, std::string* content) {
  content->clear();
  size_t chunk = 4096;
  while (true) {
    const size_t used = content->size();
    content->resize(used + chunk);
    const ssize_t n = mode == ReadMode::kWholeFromStart
                          ? ::pread(fd, content->data() + used, chunk, static_cast<off_t>(used))
                          : ::read(fd, content->data() + used, chunk);
    if (n < 0) {
      const int err = errno;
      content->resize(used);
      if (err == EINTR) {
        continue;
      }
      content->clear();
      return err == EISDIR ? Status::invalidArgument("failed to parse '" + path +
                                                     "': is a directory, expected a file")
                           : fileError(path, err);
    }
    content->resize(used + static_cast<size_t>(n));
    if (n == 0 || (mode == ReadMode::kWholeFromStart && static_cast<size_t>(n) < chunk)) {
      return Status::ok();
    }
    chunk = std::max(chunk, content->size());  // read bigger files in fewer calls
  }
}

bool parseUint64(std::string_view text, uint64_t* out) {
  if (text.empty()) {
    return false;
  }
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return false;
  }
  *out = value;
  return true;
}

Result<uint64_t> parseUint64Content(std::string_view content, const std::string& path) {
  const std::string_view text = system::trimSpace(content);
  uint64_t value = 0;
  if (!parseUint64(text, &value)) {
    return Status::invalidArgument("failed to parse '" + path +
                                   "': expected an unsigned integer, got '" + std::string(text) +
                                   "'");
  }
  return value;
}

bool findKeyValue(std::string_view text, std::string_view key, uint64_t* out) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t eol = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    if (line.size() <= key.size() || line.compare(0, key.size(), key) != 0) {
      continue;
    }
    std::string_view rest = line.substr(key.size());
    if (rest.front() != ':' && rest.front() != ' ' && rest.front() != '\t') {
      continue;  // a longer key that starts with `key`
    }
    if (rest.front() == ':') {
      rest.remove_prefix(1);
    }
    rest = system::trimSpace(rest);
    if (rest.size() > 2 && rest.substr(rest.size() - 2) == "kB") {
      rest = system::trimSpace(rest.substr(0, rest.size() - 2));
    }
    return parseUint64(rest, out);
  }
  return false;
}

Status missingKey(const std::string& path, std::string_view key) {
  return Status::invalidArgument("failed to parse '" + path + "': expected a line '" +
                                 std::string(key) + " <unsigned integer>'");
}

}  // namespace koord::agent::metricsadvisor
