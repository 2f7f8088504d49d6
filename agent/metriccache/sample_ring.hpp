// SampleRing: the fixed-capacity storage of one metric series.
//
// A sample is 12 bytes, kept in two parallel arrays (structure of arrays, so no padding):
//  - its time as a uint32 offset in milliseconds from the ring's base time (an int64 of
//    milliseconds since the Unix epoch, one per ring). Milliseconds keep the order and spacing of
//    samples taken every second or faster; 32 bits span 49.7 days, far longer than a ring holds
//    (3,600 samples at one per second is one hour), and the ring re-bases itself when they would
//    overflow;
//  - its value as a double: memory in bytes stays exact up to 2^53 (8 PiB) and CPU in cores keeps
//    15 significant digits, so a float's 24-bit mantissa (4 KiB steps at 64 GiB) is not worth
//    the 4 bytes saved.
// Both arrays are allocated once, at construction, for the full capacity: memory never grows
// with time. Appending to a full ring overwrites the oldest sample.
//
// Times are non-decreasing from oldest to newest. Appending a time earlier than the newest sample
// (the wall clock was stepped back) first drops every sample later than it, so queries by time
// stay ordered; appending an equal time keeps both samples.
//
// Not thread-safe: MetricCache guards every ring with its mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace koord::agent::metriccache {

class SampleRing {
 public:
  // A ring of `capacity` samples; a capacity of 0 is taken as 1.
  explicit SampleRing(size_t capacity);

  // Adds a sample at `time_ms` (milliseconds since the Unix epoch), overwriting the oldest one
  // when the ring is full. Samples later than `time_ms` are dropped first; samples more than
  // 2^32 - 1 ms (49.7 days) older than `time_ms` are dropped too (they no longer fit an offset).
  void append(int64_t time_ms, double value);

  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] size_t capacity() const { return capacity_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }

  // The i-th sample from the oldest (0) to the newest (size() - 1); i < size().
  [[nodiscard]] int64_t timeAt(size_t i) const { return base_ms_ + offsets_ms_[slot(i)]; }
  [[nodiscard]] double valueAt(size_t i) const { return values_[slot(i)]; }

  // The half-open index range [first, last) of the samples whose time lies in
  // [start_ms, end_ms] (both ends included); first == last when there is none.
  [[nodiscard]] std::pair<size_t, size_t> window(int64_t start_ms, int64_t end_ms) const;

  // The bytes this ring owns: the object and its two arrays.
  [[nodiscard]] size_t memoryBytes() const;

 private:
  [[nodiscard]] size_t slot(size_t i) const {
    const size_t s = head_ + i;
    return s < capacity_ ? s : s - capacity_;
  }
  // The index of the first sample whose time is >= time_ms (size() if none).
  [[nodiscard]] size_t lowerBound(int64_t time_ms) const;
  // Moves base_ms_ so that time_ms fits an offset, dropping the samples that cannot stay.
  void rebase(int64_t time_ms);

  size_t capacity_;
  size_t head_ = 0;  // slot of the oldest sample
  size_t size_ = 0;
  int64_t base_ms_ = 0;
  std::unique_ptr<uint32_t[]> offsets_ms_;
  std::unique_ptr<double[]> values_;
};

}  // namespace koord::agent::metriccache
