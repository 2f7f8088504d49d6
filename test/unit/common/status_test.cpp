#include "koord/common/status.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "koord/common/result.hpp"

namespace koord {
namespace {

Result<int> half(int v) {
  if (v % 2 != 0) {
    return Status::invalidArgument("failed to halve '" + std::to_string(v) + "': odd");
  }
  return v / 2;
}

Result<int> quarter(int v) {
  KOORD_ASSIGN_OR_RETURN(int h, half(v));
  return half(h);
}

Status check(int v) {
  KOORD_RETURN_IF_ERROR(half(v).status());
  return Status::ok();
}

TEST(StatusTest, OkIsOkAndPrintsOk) {
  Status s;
  EXPECT_TRUE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.toString(), "ok");
  EXPECT_EQ(s.toHttpCode(), 200);
  EXPECT_TRUE(s.message().empty());
}

TEST(StatusTest, ErrorsCarryCodeMessageAndHttpCode) {
  struct Case {
    Status status;
    StatusCode code;
    int http;
  };
  const Case cases[] = {
      {Status::invalidArgument("x"), StatusCode::kInvalidArgument, 400},
      {Status::notFound("x"), StatusCode::kNotFound, 404},
      {Status::conflict("x"), StatusCode::kConflict, 409},
      {Status::alreadyExists("x"), StatusCode::kAlreadyExists, 409},
      {Status::resourceExhausted("x"), StatusCode::kResourceExhausted, 429},
      {Status::unavailable("x"), StatusCode::kUnavailable, 503},
      {Status::deadlineExceeded("x"), StatusCode::kDeadlineExceeded, 504},
      {Status::internal("x"), StatusCode::kInternal, 500},
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(c.status.isOk());
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "x");
    EXPECT_EQ(c.status.toHttpCode(), c.http);
  }
}

TEST(StatusTest, WithPrefixNamesTheContext) {
  Status s = Status::invalidArgument("expected object").withPrefix("spec.owners[0]");
  EXPECT_EQ(s.message(), "spec.owners[0]: expected object");
  EXPECT_EQ(s.toString(), "invalid argument: spec.owners[0]: expected object");
  EXPECT_TRUE(Status::ok().withPrefix("x").isOk());
}

TEST(StatusTest, FromErrnoNamesTheContextAndMapsTheCode) {
  const std::pair<int, StatusCode> cases[] = {
      {ENOENT, StatusCode::kNotFound},          {ENOTDIR, StatusCode::kNotFound},
      {EACCES, StatusCode::kPermissionDenied},  {EPERM, StatusCode::kPermissionDenied},
      {EINVAL, StatusCode::kInvalidArgument},   {ERANGE, StatusCode::kInvalidArgument},
      {EISDIR, StatusCode::kInvalidArgument},   {EEXIST, StatusCode::kAlreadyExists},
      {EBUSY, StatusCode::kFailedPrecondition}, {ENOSPC, StatusCode::kResourceExhausted},
      {EMFILE, StatusCode::kResourceExhausted}, {ETIMEDOUT, StatusCode::kDeadlineExceeded},
      {EIO, StatusCode::kUnavailable},
  };
  for (const auto& [err, code] : cases) {
    const Status status = Status::fromErrno(err, "failed to read '/x'");
    EXPECT_EQ(status.code(), code) << err;
    EXPECT_EQ(status.message(), std::string("failed to read '/x': ") + std::strerror(err));
  }
  EXPECT_EQ(Status::fromErrno(ENOENT, "failed to read '/x'").message(),
            "failed to read '/x': No such file or directory");
}

TEST(ResultTest, PropagatesValuesAndErrors) {
  EXPECT_EQ(*quarter(8), 2);
  Result<int> r = quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "failed to halve '3': odd");
  EXPECT_EQ(r.valueOr(-1), -1);
  EXPECT_TRUE(check(4).isOk());
  EXPECT_EQ(check(5).code(), StatusCode::kInvalidArgument);
}

TEST(ResultTest, OkStatusBecomesInternalError) {
  Result<int> r(Status::ok());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

TEST(ResultDeathTest, ValueOnErrorAborts) {
  Result<int> r(Status::notFound("gone"));
  EXPECT_DEATH((void)r.value(), "value\\(\\) on failed Result: not found: gone");
}

}  // namespace
}  // namespace koord
