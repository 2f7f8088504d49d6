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
// writeCgroupFile (cgroup_file.hpp) maps them (Status::fromErrno; for net QoS with the kernel's
// netlink error text appended).
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

// The writer of kNetQosClass (netqos_writer.cpp): the rate and ceil of an EXISTING HTB class,
// `dir` "<device>/<classid>" ("eth0/1:2", classid in hex as tc prints it), through rtnetlink in
// the network namespace of the calling thread; it needs CAP_NET_ADMIN to write.
// - write: dumps the device's classes (RTM_GETTCLASS), then changes the class (RTM_NEWTCLASS
//   without NLM_F_CREATE, as `tc class change`): rate and ceil in bytes/s (bit/s / 8, rounded
//   down; kInvalidArgument below 8 bit/s), TCA_HTB_RATE64 / TCA_HTB_CEIL64 above 32 bits,
//   buffers as iproute2 computes them, prio and the rates' overhead, mpu and link layer kept.
//   Never creates a class: kNotFound for a missing device or class, kInvalidArgument for a class
//   that is not HTB or a value the kernel rejects, kPermissionDenied without CAP_NET_ADMIN.
// - read: "rate=<bit/s> ceil=<bit/s>" of the dumped class (bytes/s * 8), the canonical form.
// - location: "tc class <classid> dev <device>".
// No I/O until used; one netlink socket per call, closed before it returns.
[[nodiscard]] std::unique_ptr<TargetWriter> newNetQosWriter();

}  // namespace koord::agent::resourceexecutor
