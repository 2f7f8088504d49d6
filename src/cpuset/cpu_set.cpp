// CpuSet: the kernel's list format (lib/bitmap.c bitmap_parselist and "%*pbl").
#include "koord/cpuset/cpu_set.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>

namespace koord::cpuset {

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
// The kernel's end_of_str, __end_of_region and end_of_region.
bool endOfStr(std::string_view s, size_t i) {
  return i >= s.size() || s[i] == '\0' || s[i] == '\n';
}
bool separator(char c) {
  return isSpace(c) || c == ',';
}
bool endOfRegion(std::string_view s, size_t i) {
  return endOfStr(s, i) || separator(s[i]);
}

struct Region {
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t used = 0;
  uint64_t group = 0;
};

enum class Error { kNone, kInvalid, kOverflow, kNeedsCount };

class Parser {
 public:
  // last_cpu < 0: "N" and "all" are not allowed.
  Parser(std::string_view text, int64_t last_cpu) : s_(text), last_cpu_(last_cpu) {}

  // bitmap_getnum: a decimal number (no sign) or "N".
  Error number(uint64_t* out) {
    if (i_ < s_.size() && s_[i_] == 'N') {
      if (last_cpu_ < 0) {
        return Error::kNeedsCount;
      }
      *out = static_cast<uint64_t>(last_cpu_);
      ++i_;
      return Error::kNone;
    }
    size_t first = i_;
    uint64_t v = 0;
    bool overflow = false;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      v = v * 10 + static_cast<uint64_t>(s_[i_] - '0');
      overflow = overflow || v > std::numeric_limits<uint32_t>::max();
      ++i_;
    }
    if (i_ == first) {
      return Error::kInvalid;
    }
    *out = v;
    return overflow ? Error::kOverflow : Error::kNone;
  }

  // bitmap_parse_region. *done is set when the list ends right after this region.
  Error region(Region* r, bool* done) {
    bool ranged = false;
    if (s_.size() - i_ >= 3 && lower(s_[i_]) == 'a' && lower(s_[i_ + 1]) == 'l' &&
        lower(s_[i_ + 2]) == 'l') {
      if (last_cpu_ < 0) {
        return Error::kNeedsCount;
      }
      r->start = 0;
      r->end = static_cast<uint64_t>(last_cpu_);
      i_ += 3;
      ranged = true;
    } else {
      if (Error e = number(&r->start); e != Error::kNone) {
        return e;
      }
      r->end = r->start;
      if (!endOfRegion(s_, i_)) {
        if (s_[i_] != '-') {
          return Error::kInvalid;
        }
        ++i_;
        if (Error e = number(&r->end); e != Error::kNone) {
          return e;
        }
        ranged = true;
      }
    }
    if (ranged && !endOfRegion(s_, i_)) {
      if (s_[i_] != ':') {
        return Error::kInvalid;
      }
      ++i_;
      if (Error e = number(&r->used); e != Error::kNone) {
        return e;
      }
      if (i_ >= s_.size() || s_[i_] != '/') {
        return Error::kInvalid;
      }
      ++i_;
      *done = false;
      return number(&r->group);
    }
    r->used = r->end + 1;
    r->group = r->end + 1;
    *done = endOfStr(s_, i_);
    return Error::kNone;
  }

  // bitmap_find_region: skips separators; false at the end of the list.
  bool findRegion() {
    while (i_ < s_.size() && separator(s_[i_])) {
      ++i_;
    }
    return !endOfStr(s_, i_);
  }

  [[nodiscard]] size_t pos() const { return i_; }

 private:
  static char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

  std::string_view s_;
  int64_t last_cpu_;
  size_t i_ = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && isSpace(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

std::string_view token(std::string_view s, size_t from) {
  size_t to = from;
  while (to < s.size() && !separator(s[to]) && s[to] != '\0') {
    ++to;
  }
  return s.substr(from, to - from);
}

Result<CpuSet> parseList(std::string_view text, int64_t num_cpus, bool count_known) {
  const std::string prefix = "failed to parse cpuset '" + std::string(text) + "': ";
  std::string_view s = trim(text);
  Parser parser(s, count_known ? num_cpus - 1 : -1);
  std::set<int> cpus;
  while (parser.findRegion()) {
    const size_t from = parser.pos();
    Region r;
    bool done = false;
    Error error = parser.region(&r, &done);
    const std::string region(token(s, from));
    switch (error) {
      case Error::kNone:
        break;
      case Error::kInvalid:
        return Status::invalidArgument(prefix + "invalid region '" + region + "'");
      case Error::kOverflow:
        return Status::outOfRange(prefix + "cpu id in '" + region + "' does not fit in 32 bits");
      case Error::kNeedsCount:
        return Status::invalidArgument(prefix + "'" + region +
                                       "' needs the number of CPUs (use parse(text, num_cpus))");
    }
    if (r.start > r.end || r.group == 0 || r.used > r.group) {
      return Status::invalidArgument(prefix + "invalid region '" + region + "'");
    }
    if (r.end >= static_cast<uint64_t>(num_cpus)) {
      return Status::outOfRange(prefix + "cpu " + std::to_string(r.end) + " in '" + region +
                                "' is not below " + std::to_string(num_cpus));
    }
    for (uint64_t start = r.start; start <= r.end; start += r.group) {
      uint64_t stop = std::min(r.end, start + r.used - 1);
      for (uint64_t cpu = start; cpu <= stop && r.used != 0; ++cpu) {
        cpus.insert(cpus.end(), static_cast<int>(cpu));
      }
    }
    if (done) {
      break;
    }
  }
  return CpuSet(std::move(cpus));
}

}  // namespace

Result<CpuSet> CpuSet::parse(std::string_view text) {
  return parseList(text, kMaxCpus, false);
}

Result<CpuSet> CpuSet::parse(std::string_view text, int num_cpus) {
  if (num_cpus < 1 || num_cpus > kMaxCpus) {
    return Status::invalidArgument("failed to parse cpuset '" + std::string(text) +
                                   "': the number of CPUs must be in 1.." +
                                   std::to_string(kMaxCpus) + ", not " + std::to_string(num_cpus));
  }
  return parseList(text, num_cpus, true);
}

CpuSet CpuSet::range(int first, int last) {
  std::set<int> cpus;
  for (int cpu = std::max(first, 0); cpu <= last; ++cpu) {
    cpus.insert(cpus.end(), cpu);
    if (cpu == std::numeric_limits<int>::max()) {
      break;
    }
  }
  return CpuSet(std::move(cpus));
}

std::string CpuSet::toString() const {
  std::string out;
  auto it = cpus_.begin();
  while (it != cpus_.end()) {
    int first = *it;
    int last = first;
    for (++it; it != cpus_.end() && *it == last + 1; ++it) {
      last = *it;
    }
    if (!out.empty()) {
      out.push_back(',');
    }
    out += std::to_string(first);
    if (last != first) {
      out.push_back('-');
      out += std::to_string(last);
    }
  }
  return out;
}

bool CpuSet::isSubsetOf(const CpuSet& other) const {
  return std::includes(other.cpus_.begin(), other.cpus_.end(), cpus_.begin(), cpus_.end());
}

CpuSet CpuSet::unionWith(const CpuSet& other) const {
  std::set<int> out;
  std::set_union(cpus_.begin(), cpus_.end(), other.cpus_.begin(), other.cpus_.end(),
                 std::inserter(out, out.end()));
  return CpuSet(std::move(out));
}

CpuSet CpuSet::intersection(const CpuSet& other) const {
  std::set<int> out;
  std::set_intersection(cpus_.begin(), cpus_.end(), other.cpus_.begin(), other.cpus_.end(),
                        std::inserter(out, out.end()));
  return CpuSet(std::move(out));
}

CpuSet CpuSet::difference(const CpuSet& other) const {
  std::set<int> out;
  std::set_difference(cpus_.begin(), cpus_.end(), other.cpus_.begin(), other.cpus_.end(),
                      std::inserter(out, out.end()));
  return CpuSet(std::move(out));
}

}  // namespace koord::cpuset
