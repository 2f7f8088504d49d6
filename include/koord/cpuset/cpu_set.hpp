// CpuSet: a set of logical CPU ids, in the Linux list format ("0-3,8-11").
//
// parse() accepts what the kernel accepts in cpuset.cpus (ranges, single ids, whitespace and a
// trailing newline, the empty string); toString() prints exactly what the kernel prints when the
// file is read back (ascending, ranges for runs of two or more: "0-1", comma-separated, "" for the
// empty set). Value type; immutable operations return new sets.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "koord/common/result.hpp"

namespace koord::cpuset {

class CpuSet {
 public:
  CpuSet() = default;
  explicit CpuSet(std::set<int> cpus) : cpus_(std::move(cpus)) {}
  // Errors name the bad token: "failed to parse cpuset '0-a': invalid cpu 'a'".
  [[nodiscard]] static Result<CpuSet> parse(std::string_view text);
  // CPUs first..last inclusive (empty when last < first).
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
