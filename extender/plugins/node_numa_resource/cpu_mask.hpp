// CpuMask: a set of CPU ids as a bitmap, for the NodeNUMAResource filter's hot path (counting the
// free CPUs and whole cores of a node for every candidate node costs a few word operations, where
// cpuset::CpuSet's std::set would allocate). Ids must be in [0, cpuset::CpuSet::kMaxCpus); larger
// or negative ids are ignored by set(). Value type, not thread-safe to mutate while shared.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "koord/cpuset/cpu_set.hpp"

namespace koord::extender::plugins::node_numa_resource {

class CpuMask {
 public:
  CpuMask() = default;
  explicit CpuMask(const cpuset::CpuSet& cpus) {
    for (int cpu : cpus.cpus())
      set(cpu);
  }

  void set(int cpu) {
    if (cpu < 0 || cpu >= cpuset::CpuSet::kMaxCpus)
      return;
    const size_t word = static_cast<size_t>(cpu) / 64;
    if (word >= words_.size())
      words_.resize(word + 1, 0);
    words_[word] |= uint64_t{1} << (static_cast<unsigned>(cpu) % 64);
  }
  void reset(int cpu) {
    if (cpu < 0)
      return;
    const size_t word = static_cast<size_t>(cpu) / 64;
    if (word < words_.size())
      words_[word] &= ~(uint64_t{1} << (static_cast<unsigned>(cpu) % 64));
  }
  [[nodiscard]] bool test(int cpu) const {
    if (cpu < 0)
      return false;
    const size_t word = static_cast<size_t>(cpu) / 64;
    return word < words_.size() && ((words_[word] >> (static_cast<unsigned>(cpu) % 64)) & 1U) != 0;
  }
  [[nodiscard]] int count() const {
    int n = 0;
    for (uint64_t w : words_)
      n += std::popcount(w);
    return n;
  }
  [[nodiscard]] bool empty() const {
    return std::all_of(words_.begin(), words_.end(), [](uint64_t w) { return w == 0; });
  }
  // this | other.
  void add(const CpuMask& other) {
    if (other.words_.size() > words_.size())
      words_.resize(other.words_.size(), 0);
    for (size_t i = 0; i < other.words_.size(); ++i)
      words_[i] |= other.words_[i];
  }
  // this & ~other.
  void remove(const CpuMask& other) {
    const size_t n = std::min(words_.size(), other.words_.size());
    for (size_t i = 0; i < n; ++i)
      words_[i] &= ~other.words_[i];
  }
  // this & other.
  void keep(const CpuMask& other) {
    for (size_t i = 0; i < words_.size(); ++i)
      words_[i] &= i < other.words_.size() ? other.words_[i] : 0;
  }
  // |this & ~other| without building it.
  [[nodiscard]] int countWithout(const CpuMask& other) const {
    int n = 0;
    for (size_t i = 0; i < words_.size(); ++i)
      n += std::popcount(words_[i] & ~(i < other.words_.size() ? other.words_[i] : 0));
    return n;
  }
  [[nodiscard]] cpuset::CpuSet toCpuSet() const {
    std::set<int> cpus;
    for (size_t i = 0; i < words_.size(); ++i) {
      for (uint64_t w = words_[i]; w != 0; w &= w - 1)
        cpus.insert(static_cast<int>(i * 64) + std::countr_zero(w));
    }
    return cpuset::CpuSet(std::move(cpus));
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace koord::extender::plugins::node_numa_resource
