#include <utility>

#include "agent/resourceexecutor/cgroup_file.hpp"
#include "agent/resourceexecutor/target_writer.hpp"
#include "agent/system/sysfs_file.hpp"

namespace koord::agent::resourceexecutor {

namespace {

class ResctrlWriter final : public TargetWriter {
 public:
  explicit ResctrlWriter(std::filesystem::path root) : root_(std::move(root)) {}

  [[nodiscard]] Result<std::string> location(KernelTarget target,
                                             const std::filesystem::path& dir) const override {
    KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath("find", target, dir));
    return file.string();
  }

  [[nodiscard]] Status write(KernelTarget target, const std::filesystem::path& dir,
                             std::string_view value) override {
    KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath("write", target, dir));
    // The kernel parses the whole write; a trailing newline ends the last schemata line.
    return writeCgroupFile(file, std::string(value) + "\n");
  }

  [[nodiscard]] Result<std::string> read(KernelTarget target,
                                         const std::filesystem::path& dir) const override {
    KOORD_ASSIGN_OR_RETURN(std::filesystem::path file, filePath("read", target, dir));
    return system::readSysString(file);
  }

 private:
  [[nodiscard]] Result<std::filesystem::path> filePath(std::string_view verb, KernelTarget target,
                                                       const std::filesystem::path& dir) const {
    if (!isResctrlTarget(target)) {
      return Status::unimplemented("failed to " + std::string(verb) + " '" +
                                   std::string(kernelTargetName(target)) +
                                   "': not a resctrl target");
    }
    return root_ / dir / (target == KernelTarget::kResctrlSchemata ? "schemata" : "tasks");
  }

  std::filesystem::path root_;
};

}  // namespace

std::unique_ptr<TargetWriter> newResctrlWriter(std::filesystem::path resctrl_root) {
  return std::make_unique<ResctrlWriter>(std::move(resctrl_root));
}

}  // namespace koord::agent::resourceexecutor
