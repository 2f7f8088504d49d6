// Result<T>: either a value of type T or a failed Status (never an ok Status).
//
// Contract: value() on a failed Result is a programming error and aborts (checked in all builds);
// test with ok() first or use valueOr(). Result is movable; copyable when T is.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

#include "koord/common/status.hpp"

namespace koord {

template <typename T>
class [[nodiscard]] Result {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): implicit by design, as with absl::StatusOr.
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}
  // A failed status. Passing an ok Status is a bug and becomes kInternal.
  // NOLINTNEXTLINE(google-explicit-constructor)
  Result(Status status) : data_(std::in_place_index<1>, std::move(status)) {
    if (std::get<1>(data_).isOk()) {
      data_.template emplace<1>(Status::internal("Result constructed from an ok Status"));
    }
  }

  [[nodiscard]] bool ok() const { return data_.index() == 0; }
  // ok() when the Result holds a value.
  [[nodiscard]] Status status() const { return ok() ? Status::ok() : std::get<1>(data_); }

  [[nodiscard]] T& value() & {
    check();
    return std::get<0>(data_);
  }
  [[nodiscard]] const T& value() const& {
    check();
    return std::get<0>(data_);
  }
  [[nodiscard]] T&& value() && {
    check();
    return std::get<0>(std::move(data_));
  }
  [[nodiscard]] T valueOr(T fallback) const& { return ok() ? std::get<0>(data_) : fallback; }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void check() const {
    if (!ok()) {
      std::fprintf(stderr, "koord: value() on failed Result: %s\n",
                   std::get<1>(data_).toString().c_str());
      std::abort();
    }
  }
  std::variant<T, Status> data_;
};

}  // namespace koord

#define KOORD_CONCAT_INNER_(a, b) a##b
#define KOORD_CONCAT_(a, b) KOORD_CONCAT_INNER_(a, b)
// NOLINTBEGIN(bugprone-macro-parentheses): lhs is a declaration and cannot be parenthesized.
#define KOORD_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) {                                   \
    return tmp.status();                             \
  }                                                  \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

// `KOORD_ASSIGN_OR_RETURN(auto x, f());` declares x from a Result, or returns its Status.
#define KOORD_ASSIGN_OR_RETURN(lhs, expr) \
  KOORD_ASSIGN_OR_RETURN_IMPL_(KOORD_CONCAT_(koord_result_, __LINE__), lhs, expr)
