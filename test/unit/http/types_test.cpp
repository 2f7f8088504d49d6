// Request and response helpers, without a network.
#include <gtest/gtest.h>

#include "koord/http/server.hpp"

namespace koord::http {
namespace {

TEST(HttpRequestTest, HeaderLookupIgnoresCase) {
  HttpRequest request;
  request.headers["Content-Type"] = "application/json";
  EXPECT_EQ(request.header("content-type"), "application/json");
  EXPECT_EQ(request.header("CONTENT-TYPE"), "application/json");
  EXPECT_EQ(request.header("accept"), "");
  request.headers["content-TYPE"] = "text/plain";
  EXPECT_EQ(request.headers.size(), 1u);
}

TEST(HttpRequestTest, QueryParamDecodes) {
  HttpRequest request;
  request.query = "a=1&b=x%20y+z&flag&a=2&enc%3Dkey=v&bad=%zz&empty=";
  const std::pair<std::string, std::optional<std::string>> cases[] = {
      {"a", "1"},
      {"b", "x y z"},
      {"flag", ""},
      {"enc=key", "v"},
      {"bad", "%zz"},
      {"empty", ""},
      {"missing", std::nullopt},
  };
  for (const auto& [name, want] : cases) {
    EXPECT_EQ(request.queryParam(name), want) << name;
  }
  request.query = "";
  EXPECT_EQ(request.queryParam("a"), std::nullopt);
}

TEST(HttpResponseTest, FactoriesSetContentType) {
  const HttpResponse text = HttpResponse::text(404, "nope");
  EXPECT_EQ(text.status, 404);
  EXPECT_EQ(text.body, "nope");
  EXPECT_EQ(text.headers.at("content-type"), "text/plain; charset=utf-8");
  const HttpResponse json = HttpResponse::json(200, "{}");
  EXPECT_EQ(json.headers.at("Content-Type"), "application/json");
}

}  // namespace
}  // namespace koord::http
