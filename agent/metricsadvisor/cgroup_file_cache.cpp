#include "agent/metricsadvisor/cgroup_file_cache.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "agent/metricsadvisor/cgroup_file.hpp"

namespace koord::agent::metricsadvisor {

namespace {

// linux/magic.h
constexpr uint64_t kCgroupMagic = 0x27e0eb;
constexpr uint64_t kCgroup2Magic = 0x63677270;
constexpr uint64_t kSysfsMagic = 0x62656572;

// True when `fd` no longer reads its path's file because the file was unlinked. Only asked on
// regular filesystems (tests): kernfs fails the read of a removed cgroup's file with ENODEV.
bool unlinked(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && st.st_nlink == 0;
}

// True for the kernfs filesystems (cgroup v1, cgroup v2, sysfs).
bool onKernfs(int fd) {
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) {
    return false;
  }
  const auto type = static_cast<uint64_t>(fs.f_type);
  return type == kCgroupMagic || type == kCgroup2Magic || type == kSysfsMagic;
}

}  // namespace

CgroupFileCache::CgroupFileCache(size_t max_open_files) : max_open_files_(max_open_files) {}

CgroupFileCache::~CgroupFileCache() {
  for (const auto& [path, entry] : files_) {
    ::close(entry.fd);
  }
}

size_t CgroupFileCache::openFiles() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return files_.size();
}

void CgroupFileCache::maybeSweepLocked() {
  sweep_.countRead(files_, [](const Entry& entry) { ::close(entry.fd); });
}

Status CgroupFileCache::readLocked(const std::string& path) {
  if (!limit_checked_) {
    limit_checked_ = true;
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
      max_open_files_ = std::min<size_t>(max_open_files_, limit.rlim_cur / 4);
    }
  }
  maybeSweepLocked();
  const auto it = files_.find(path);
  if (it != files_.end()) {
    Status read = readDescriptor(it->second.fd, ReadMode::kWholeFromStart, path, &buffer_);
    if (read.isOk() && !(it->second.check_links && unlinked(it->second.fd))) {
      it->second.used = true;
      return read;
    }
    // Removed (ENODEV, unlinked) or failing: drop the descriptor and try the path afresh.
    ::close(it->second.fd);
    files_.erase(it);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fileError(path, errno);
  }
  Status read = readDescriptor(fd, ReadMode::kWholeFromStart, path, &buffer_);
  if (read.isOk() && files_.size() < max_open_files_) {
    files_.emplace(path, Entry{.fd = fd, .used = true, .check_links = !onKernfs(fd)});
  } else {
    ::close(fd);
  }
  return read;
}

void CgroupFileCache::keepOpen(const std::string& path) {
  const std::lock_guard<std::mutex> lock(mu_);
  maybeSweepLocked();
  const auto it = files_.find(path);
  if (it != files_.end()) {
    it->second.used = true;
  }
}

Result<uint64_t> CgroupFileCache::readUint64(const std::string& path) {
  const std::lock_guard<std::mutex> lock(mu_);
  KOORD_RETURN_IF_ERROR(readLocked(path));
  return parseUint64Content(buffer_, path);
}

Status CgroupFileCache::readKeys(const std::string& path, std::initializer_list<StatKey> keys) {
  const std::lock_guard<std::mutex> lock(mu_);
  KOORD_RETURN_IF_ERROR(readLocked(path));
  for (const StatKey& key : keys) {
    if (!findKeyValue(buffer_, key.key, key.value)) {
      return missingKey(path, key.key);
    }
  }
  return Status::ok();
}

}  // namespace koord::agent::metricsadvisor
