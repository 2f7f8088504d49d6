// Status: the outcome of a fallible operation, with a code and a message.
//
// Contract: functions that can fail return [[nodiscard]] Status (or Result<T>, see result.hpp);
// nothing throws past a module API. Messages read "failed to <verb> '<object>': <cause>", and
// decoders name the field path ("spec.owners[0].labelSelector: expected object").
// Status is a small value type; it is cheap to copy when ok() (no allocation).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace koord {

// What a failure means to the caller. Codes map onto HTTP and Kubernetes Status reasons where one
// exists (see toHttpCode()).
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // bad input; retrying the same input fails again
  kNotFound,            // the object does not exist
  kAlreadyExists,       // create of an existing object
  kConflict,            // optimistic-concurrency conflict; re-read and retry
  kFailedPrecondition,  // the system is not in a state to do this (e.g. not leader)
  kOutOfRange,          // a value exceeds what the type can hold (e.g. quantity overflow)
  kResourceExhausted,   // a limit was hit (body too large, rate limited, 429)
  kPermissionDenied,    // 401/403
  kUnavailable,         // transient: connection refused, 5xx; retry with backoff
  kDeadlineExceeded,    // a timeout expired
  kCancelled,           // the operation was stopped on request
  kUnimplemented,       // not supported
  kInternal,            // a bug or an invariant broken
};

// Short lower-case name of a code, e.g. "invalid argument".
std::string_view statusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  // The ok status.
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status ok() { return Status(); }
  static Status invalidArgument(std::string message);
  static Status notFound(std::string message);
  static Status alreadyExists(std::string message);
  static Status conflict(std::string message);
  static Status failedPrecondition(std::string message);
  static Status outOfRange(std::string message);
  static Status resourceExhausted(std::string message);
  static Status permissionDenied(std::string message);
  static Status unavailable(std::string message);
  static Status deadlineExceeded(std::string message);
  static Status cancelled(std::string message);
  static Status unimplemented(std::string message);
  static Status internal(std::string message);
  // The failure of a system call that set `err` (an errno value), for every caller the same way:
  // "<context>: <strerror(err)>", e.g. "failed to read '/x': No such file or directory". Codes:
  // ENOENT, ENOTDIR: kNotFound; EACCES, EPERM: kPermissionDenied; EINVAL, ERANGE, EISDIR:
  // kInvalidArgument; EEXIST: kAlreadyExists; EBUSY: kFailedPrecondition; ENOSPC, ENOMEM, EMFILE,
  // ENFILE, EFBIG: kResourceExhausted; ETIMEDOUT: kDeadlineExceeded; anything else: kUnavailable.
  static Status fromErrno(int err, std::string_view context);

  [[nodiscard]] bool isOk() const { return rep_ == nullptr; }
  [[nodiscard]] StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  // Empty when ok.
  [[nodiscard]] const std::string& message() const;

  // Returns a copy whose message is "<prefix>: <message>"; ok stays ok.
  [[nodiscard]] Status withPrefix(std::string_view prefix) const;

  // "ok" or "<code name>: <message>".
  [[nodiscard]] std::string toString() const;

  // The HTTP status a server should answer with for this code (200 when ok).
  [[nodiscard]] int toHttpCode() const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code() == b.code() && a.message() == b.message();
  }

 private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  std::shared_ptr<const Rep> rep_;
};

std::ostream& operator<<(std::ostream& os, const Status& status);

}  // namespace koord

// Returns from the enclosing function (which returns Status or Result<T>) when expr fails.
#define KOORD_RETURN_IF_ERROR(expr)         \
  do {                                      \
    ::koord::Status koord_status_ = (expr); \
    if (!koord_status_.isOk()) {            \
      return koord_status_;                 \
    }                                       \
  } while (false)
