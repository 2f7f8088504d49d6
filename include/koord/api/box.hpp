// Box<T>: an optional value kept on the heap. It reads like std::optional<T> (has_value, *, ->,
// emplace, reset, comparison with std::nullopt) but takes one pointer inside its owner instead
// of sizeof(T): used for large, rarely set members of models that caches hold by the ten
// thousand (PodSpec.affinity, PodSpec.resources). Copying copies the value (deep).
//
// Thread safety: as for any value type.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace koord::api {

template <typename T>
class Box {
 public:
  Box() = default;
  Box(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): reads like optional
  Box(const T& value) : ptr_(std::make_unique<T>(value)) {}  // NOLINT(google-explicit-constructor)
  Box(T&& value)
      : ptr_(std::make_unique<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor)
  Box(const Box& other) : ptr_(other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& other) {
    if (this != &other) {
      ptr_ = other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr;
    }
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  Box& operator=(std::nullopt_t) {
    ptr_.reset();
    return *this;
  }
  Box& operator=(T value) {
    ptr_ = std::make_unique<T>(std::move(value));
    return *this;
  }
  ~Box() = default;

  // NOLINTNEXTLINE(readability-identifier-naming): std::optional's name
  [[nodiscard]] bool has_value() const { return ptr_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  // Precondition for *, -> and value(): has_value().
  T& operator*() { return *ptr_; }
  const T& operator*() const { return *ptr_; }
  T* operator->() { return ptr_.get(); }
  const T* operator->() const { return ptr_.get(); }
  const T& value() const { return *ptr_; }
  template <typename... Args>
  T& emplace(Args&&... args) {  // NOLINT(readability-identifier-naming)
    ptr_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *ptr_;
  }
  void reset() { ptr_.reset(); }

  friend bool operator==(const Box& a, const Box& b) {
    if (a.has_value() != b.has_value()) {
      return false;
    }
    return !a.has_value() || *a == *b;
  }
  friend bool operator==(const Box& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator==(const Box& a, const T& b) { return a.has_value() && *a == b; }

 private:
  std::unique_ptr<T> ptr_;
};

}  // namespace koord::api
