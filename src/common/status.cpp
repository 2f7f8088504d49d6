#include "koord/common/status.hpp"

#include <cerrno>
#include <cstring>

namespace koord {

std::string_view statusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kAlreadyExists:
      return "already exists";
    case StatusCode::kConflict:
      return "conflict";
    case StatusCode::kFailedPrecondition:
      return "failed precondition";
    case StatusCode::kOutOfRange:
      return "out of range";
    case StatusCode::kResourceExhausted:
      return "resource exhausted";
    case StatusCode::kPermissionDenied:
      return "permission denied";
    case StatusCode::kUnavailable:
      return "unavailable";
    case StatusCode::kDeadlineExceeded:
      return "deadline exceeded";
    case StatusCode::kCancelled:
      return "cancelled";
    case StatusCode::kUnimplemented:
      return "unimplemented";
    case StatusCode::kInternal:
      return "internal";
  }
  return "unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) {
    rep_ = std::make_shared<const Rep>(Rep{code, std::move(message)});
  }
}

Status Status::fromErrno(int err, std::string_view context) {
  std::string message = std::string(context) + ": " + std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return notFound(std::move(message));
    case EACCES:
    case EPERM:
      return permissionDenied(std::move(message));
    case EINVAL:
    case ERANGE:
    case EISDIR:
      return invalidArgument(std::move(message));
    case EEXIST:
      return alreadyExists(std::move(message));
    case EBUSY:
      return failedPrecondition(std::move(message));
    case ENOSPC:
    case ENOMEM:
    case EMFILE:
    case ENFILE:
    case EFBIG:
      return resourceExhausted(std::move(message));
    case ETIMEDOUT:
      return deadlineExceeded(std::move(message));
    default:
      return unavailable(std::move(message));
  }
}

Status Status::invalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
Status Status::notFound(std::string m) {
  return {StatusCode::kNotFound, std::move(m)};
}
Status Status::alreadyExists(std::string m) {
  return {StatusCode::kAlreadyExists, std::move(m)};
}
Status Status::conflict(std::string m) {
  return {StatusCode::kConflict, std::move(m)};
}
Status Status::failedPrecondition(std::string m) {
  return {StatusCode::kFailedPrecondition, std::move(m)};
}
Status Status::outOfRange(std::string m) {
  return {StatusCode::kOutOfRange, std::move(m)};
}
Status Status::resourceExhausted(std::string m) {
  return {StatusCode::kResourceExhausted, std::move(m)};
}
Status Status::permissionDenied(std::string m) {
  return {StatusCode::kPermissionDenied, std::move(m)};
}
Status Status::unavailable(std::string m) {
  return {StatusCode::kUnavailable, std::move(m)};
}
Status Status::deadlineExceeded(std::string m) {
  return {StatusCode::kDeadlineExceeded, std::move(m)};
}
Status Status::cancelled(std::string m) {
  return {StatusCode::kCancelled, std::move(m)};
}
Status Status::unimplemented(std::string m) {
  return {StatusCode::kUnimplemented, std::move(m)};
}
Status Status::internal(std::string m) {
  return {StatusCode::kInternal, std::move(m)};
}

const std::string& Status::message() const {
  static const std::string kEmpty;  // NOLINT: immutable, function-local constant
  return rep_ ? rep_->message : kEmpty;
}

Status Status::withPrefix(std::string_view prefix) const {
  if (isOk()) {
    return *this;
  }
  std::string m(prefix);
  m += ": ";
  m += rep_->message;
  return {rep_->code, std::move(m)};
}

std::string Status::toString() const {
  if (isOk()) {
    return "ok";
  }
  std::string s(statusCodeName(rep_->code));
  s += ": ";
  s += rep_->message;
  return s;
}

int Status::toHttpCode() const {
  switch (code()) {
    case StatusCode::kOk:
      return 200;
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
      return 400;
    case StatusCode::kPermissionDenied:
      return 403;
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict:
      return 409;
    case StatusCode::kFailedPrecondition:
      return 412;
    case StatusCode::kResourceExhausted:
      return 429;
    case StatusCode::kUnimplemented:
      return 501;
    case StatusCode::kUnavailable:
      return 503;
    case StatusCode::kDeadlineExceeded:
      return 504;
    case StatusCode::kCancelled:
    case StatusCode::kInternal:
      return 500;
  }
  return 500;
}

std::ostream& operator<<(std::ostream& os, const Status& status) {
  return os << status.toString();
}

}  // namespace koord
