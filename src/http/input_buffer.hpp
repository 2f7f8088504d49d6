// InputBuffer: the bytes read from a connection and not consumed yet (private to koord_http).
//
// Reads go straight into writable() space, then commit() makes them readable; consume() drops
// bytes from the front. The buffer compacts and grows as needed. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace koord::http::detail {

class InputBuffer {
 public:
  [[nodiscard]] std::string_view readable() const { return {data_.get() + begin_, end_ - begin_}; }
  [[nodiscard]] bool empty() const { return begin_ == end_; }

  // Drops the first `n` readable bytes (n <= readable().size()).
  void consume(std::size_t n) {
    begin_ += n;
    if (begin_ == end_) {
      begin_ = end_ = 0;
    }
  }

  // At least `min_bytes` of space after the readable bytes; fill some, then commit() them.
  [[nodiscard]] std::span<char> writable(std::size_t min_bytes) {
    if (capacity_ - end_ < min_bytes && begin_ > 0) {
      std::memmove(data_.get(), data_.get() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (capacity_ - end_ < min_bytes) {
      const std::size_t capacity = std::max(capacity_ * 2, end_ + min_bytes);
      auto grown = std::make_unique_for_overwrite<char[]>(capacity);
      if (end_ > 0) {
        std::memcpy(grown.get(), data_.get(), end_);
      }
      data_ = std::move(grown);
      capacity_ = capacity;
    }
    return {data_.get() + end_, capacity_ - end_};
  }

  // Makes `n` bytes written into writable() space readable.
  void commit(std::size_t n) { end_ += n; }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
};

}  // namespace koord::http::detail
