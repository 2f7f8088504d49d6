#include "agent/metriccache/sample_ring.hpp"

#include <algorithm>
#include <limits>

namespace koord::agent::metriccache {

namespace {

constexpr int64_t kMaxOffsetMs = std::numeric_limits<uint32_t>::max();

}  // namespace

SampleRing::SampleRing(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)),
      offsets_ms_(std::make_unique<uint32_t[]>(capacity_)),
      values_(std::make_unique<double[]>(capacity_)) {}

void SampleRing::append(int64_t time_ms, double value) {
  // Drop the samples from the future of `time_ms` (the clock went backwards).
  while (size_ > 0 && timeAt(size_ - 1) > time_ms) {
    --size_;
  }
  if (size_ == 0) {
    head_ = 0;
    base_ms_ = time_ms;
  } else if (time_ms - base_ms_ > kMaxOffsetMs) {
    rebase(time_ms);
  }
  size_t target = 0;
  if (size_ < capacity_) {
    target = slot(size_);
    ++size_;
  } else {
    target = head_;
    head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
  }
  offsets_ms_[target] = static_cast<uint32_t>(time_ms - base_ms_);
  values_[target] = value;
}

void SampleRing::rebase(int64_t time_ms) {
  // Samples older than time_ms - kMaxOffsetMs cannot share a base with time_ms.
  const size_t keep_from = lowerBound(time_ms - kMaxOffsetMs);
  head_ = slot(keep_from);
  size_ -= keep_from;
  if (size_ == 0) {
    head_ = 0;
    base_ms_ = time_ms;
    return;
  }
  // The oldest kept sample becomes the base; its offset fits 32 bits, so the shift does.
  const int64_t new_base = timeAt(0);
  const auto shift = static_cast<uint32_t>(new_base - base_ms_);
  for (size_t i = 0; i < size_; ++i) {
    offsets_ms_[slot(i)] -= shift;
  }
  base_ms_ = new_base;
}

size_t SampleRing::lowerBound(int64_t time_ms) const {
  size_t lo = 0;
  size_t hi = size_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (timeAt(mid) < time_ms) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::pair<size_t, size_t> SampleRing::window(int64_t start_ms, int64_t end_ms) const {
  if (end_ms < start_ms) {
    return {0, 0};
  }
  const size_t first = lowerBound(start_ms);
  const size_t last =
      end_ms == std::numeric_limits<int64_t>::max() ? size_ : lowerBound(end_ms + 1);
  return {first, last};
}

size_t SampleRing::memoryBytes() const {
  return sizeof(SampleRing) + capacity_ * (sizeof(uint32_t) + sizeof(double));
}

}  // namespace koord::agent::metriccache
