// FakeCgroupWriter: an in-memory CgroupWriter for the executor tests. It keeps one value per
// (dir, resource), logs every write, can fail chosen writes, and enforces the kernel's cpuset
// rules (cgroup v1) so that a test sees what the kernel would refuse:
//   - a cpuset that is not a subset of its parent's is refused (kPermissionDenied, as EACCES);
//   - a cpuset that would no longer hold a child's is refused (kFailedPrecondition, as EBUSY).
// Folders are only checked against parents and children that have a value.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/resourceexecutor/cgroup_writer.hpp"
#include "koord/cpuset/cpu_set.hpp"

namespace koord::agent::resourceexecutor::testing {

class FakeCgroupWriter final : public CgroupWriter {
 public:
  // Sets a value without any check (the tree the test starts from).
  void set(const std::filesystem::path& dir, CgroupResource resource, std::string value) {
    values_[{dir.string(), resource}] = std::move(value);
  }
  [[nodiscard]] std::optional<std::string> get(const std::filesystem::path& dir,
                                               CgroupResource resource) const {
    const auto it = values_.find({dir.string(), resource});
    return it == values_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  // The next write of (dir, resource) fails with `status`.
  void failNext(const std::filesystem::path& dir, CgroupResource resource, Status status) {
    failures_[{dir.string(), resource}] = std::move(status);
  }
  // Every write attempted, "<dir> <resource>=<value>", in order.
  [[nodiscard]] const std::vector<std::string>& writes() const { return writes_; }
  void clearWrites() { writes_.clear(); }

  [[nodiscard]] system::CgroupVersion version() const override {
    return system::CgroupVersion::kV1;
  }
  [[nodiscard]] Result<std::string> fileName(CgroupResource resource) const override {
    return std::string(cgroupResourceName(resource));
  }
  [[nodiscard]] Result<std::filesystem::path> filePath(
      CgroupResource resource, const std::filesystem::path& dir) const override {
    return std::filesystem::path("/fake") / dir / cgroupResourceName(resource);
  }
  [[nodiscard]] Status write(CgroupResource resource, const std::filesystem::path& dir,
                             std::string_view value) override {
    writes_.push_back(dir.string() + " " + std::string(cgroupResourceName(resource)) + "=" +
                      std::string(value));
    const Key key{dir.string(), resource};
    if (const auto it = failures_.find(key); it != failures_.end()) {
      Status status = it->second;
      failures_.erase(it);
      return status;
    }
    if (isCpusetResource(resource)) {
      KOORD_RETURN_IF_ERROR(checkCpuset(resource, dir, value));
    }
    values_[key] = std::string(value);
    return Status::ok();
  }
  [[nodiscard]] Result<std::string> read(CgroupResource resource,
                                         const std::filesystem::path& dir) const override {
    const auto value = get(dir, resource);
    if (!value.has_value()) {
      return Status::notFound("failed to read '" + filePath(resource, dir)->string() +
                              "': No such file or directory");
    }
    return *value;
  }

 private:
  using Key = std::pair<std::string, CgroupResource>;

  Status checkCpuset(CgroupResource resource, const std::filesystem::path& dir,
                     std::string_view value) const {
    const auto set = cpuset::CpuSet::parse(value);
    if (!set.ok()) {
      return set.status();
    }
    const std::string file = filePath(resource, dir)->string();
    if (const auto parent = get(dir.parent_path(), resource); parent.has_value()) {
      if (!set->isSubsetOf(cpuset::CpuSet::parse(*parent).valueOr({}))) {
        return Status::permissionDenied("failed to write '" + file + "': Permission denied");
      }
    }
    for (const auto& [key, child] : values_) {
      if (key.second == resource && std::filesystem::path(key.first).parent_path() == dir &&
          !cpuset::CpuSet::parse(child).valueOr({}).isSubsetOf(*set)) {
        return Status::failedPrecondition("failed to write '" + file +
                                          "': Device or resource busy");
      }
    }
    return Status::ok();
  }

  std::map<Key, std::string> values_;
  std::map<Key, Status> failures_;
  std::vector<std::string> writes_;
};

}  // namespace koord::agent::resourceexecutor::testing
