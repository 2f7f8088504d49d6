// TargetWriter: writes and reads the kernel targets of one family (kernel_target.hpp) for the
// target executor, as CgroupWriter does for cgroup files. Only the executor calls it, after it
// has confined `dir`; a writer does not confine.
//
// `dir` is relative to the family's root: for resctrl the control group ("" for the root group,
// "koord-be"); for net QoS "<device>/<classid>" ("eth0/1:2").
//
// Errors, for every implementation: kUnimplemented "failed to write '<target>': not a <family>
// target" for a target of another family; kNotFound when the group, file or class does not exist;
// kPermissionDenied, kInvalidArgument (the kernel rejected the value) or kUnavailable as
// writeCgroupFile (cgroup_file.hpp) maps them.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "agent/resourceexecutor/kernel_target.hpp"
#include "koord/common/result.hpp"

namespace koord::agent::resourceexecutor {

class TargetWriter {
 public:
  virtual ~TargetWriter() = default;

  // Where `target` of `dir` lives, for the audit log and messages: a host file for resctrl
  // ("<root>/<group>/schemata"), "tc class <classid> dev <device>" for net QoS. No I/O.
  [[nodiscard]] virtual Result<std::string> location(KernelTarget target,
                                                     const std::filesystem::path& dir) const = 0;

  // Writes the canonical `value` (kernel_target.hpp).
  [[nodiscard]] virtual Status write(KernelTarget target, const std::filesystem::path& dir,
                                     std::string_view value) = 0;

  // The current value, as the kernel shows it (for the audit log only: resctrl's schemata lists
  // every resource and tasks every task of the group).
  [[nodiscard]] virtual Result<std::string> read(KernelTarget target,
                                                 const std::filesystem::path& dir) const = 0;
};

// The writer of the resctrl targets under `resctrl_root` (SysPaths::resctrl_root, by default
// /sys/fs/resctrl): `<root>/<dir>/schemata` and `<root>/<dir>/tasks`, each written with one
// write(2) of the whole value plus "\n" into the existing file, never created. No I/O until used.
[[nodiscard]] std::unique_ptr<TargetWriter> newResctrlWriter(std::filesystem::path resctrl_root);

}  // namespace koord::agent::resourceexecutor
