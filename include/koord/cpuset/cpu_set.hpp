// CpuSet: a set of logical CPU ids, in the Linux list format ("0-3,8-11").
//
// parse() accepts what the kernel accepts when cpuset.cpus is written (cpuset_write_resmask:
// strstrip, then bitmap_parselist): regions "5", "0-3" and "0-7:2/4" (used/group: 0,1,4,5),
// separated by commas and/or whitespace in any number (",0,,1 2," is {0,1,2}), surrounding
// whitespace and a trailing newline, the empty string; a newline right after a region ends the
// list, as in the kernel. It rejects what the kernel rejects: "3-1", "1-", "-1", "a", "0 - 3",
// "0-3:0/0". "N" and "all" (the last CPU, every CPU) need the CPU count: parse(text, num_cpus).
// toString() prints exactly what the kernel prints when the file is read back (ascending, ranges
// for runs of two or more: "0-1", comma-separated, "" for the empty set; no newline).
// CPU ids are >= 0. Value type; immutable operations return new sets; thread-compatible.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::cpuset {

class CpuSet {
 public:
  CpuSet() = default;
  explicit CpuSet(std::set<int> cpus) : cpus_(std::move(cpus)) {}
  // The largest CPU count the kernel supports (CONFIG_NR_CPUS at most 8192): ids are below it.
  static constexpr int kMaxCpus = 8192;

  // Errors name the bad region: "failed to parse cpuset '0-a': invalid region '0-a'" is
  // kInvalidArgument; an id >= kMaxCpus (or beyond 32 bits) is kOutOfRange.
  [[nodiscard]] static Result<CpuSet> parse(std::string_view text);
  // As parse(text), for a machine with num_cpus CPUs (1..kMaxCpus): ids must be below num_cpus
  // (kOutOfRange otherwise), "N" is num_cpus-1 and "all" is 0-N.
  [[nodiscard]] static Result<CpuSet> parse(std::string_view text, int num_cpus);
  // CPUs first..last inclusive (empty when last < first); negative ids are left out.
  [[nodiscard]] static CpuSet range(int first, int last);

  [[nodiscard]] std::string toString() const;
  [[nodiscard]] bool empty() const { return cpus_.empty(); }
  [[nodiscard]] size_t size() const { return cpus_.size(); }
  [[nodiscard]] bool contains(int cpu) const { return cpus_.count(cpu) != 0; }
  [[nodiscard]] bool isSubsetOf(const CpuSet& other) const;
  [[nodiscard]] std::vector<int> toVector() const { return {cpus_.begin(), cpus_.end()}; }
  [[nodiscard]] const std::set<int>& cpus() const { return cpus_; }

  [[nodiscard]] CpuSet unionWith(const CpuSet& other) const;
  [[nodiscard]] CpuSet intersection(const CpuSet& other) const;
  [[nodiscard]] CpuSet difference(const CpuSet& other) const;

  friend bool operator==(const CpuSet& a, const CpuSet& b) { return a.cpus_ == b.cpus_; }

 private:
  std::set<int> cpus_;
};

}  // namespace koord::cpuset
