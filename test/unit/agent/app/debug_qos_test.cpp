#include "agent/app/debug_qos.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace koord::agent::app {
namespace {

using ::testing::HasSubstr;

http::HttpRequest from(const std::string& address) {
  http::HttpRequest request;
  request.method = "GET";
  request.path = "/debug/qos";
  request.remote_address = address;
  return request;
}

TEST(DebugQosTest, AnswersClientsOnTheNodeWithTheStrategiesState) {
  const api::Json state{{"strategies", {{{"name", "CPUSuppress"}, {"state", "ok"}}}}};
  for (const std::string address : {"127.0.0.1", "127.0.0.53"}) {
    http::HttpResponse response = debugQosResponse(from(address), [&] { return state; });
    EXPECT_EQ(response.status, 200) << address;
    EXPECT_EQ(api::Json::parse(response.body), state) << address;
  }
}

TEST(DebugQosTest, RefusesEveryOtherAddressWithoutReadingTheState) {
  bool read = false;
  for (const std::string address : {"10.244.0.7", "192.168.1.127", ""}) {
    http::HttpResponse response = debugQosResponse(from(address), [&] {
      read = true;
      return api::Json::object();
    });
    EXPECT_EQ(response.status, 403) << address;
    EXPECT_THAT(response.body, HasSubstr("only clients on the node")) << address;
  }
  EXPECT_FALSE(read);
}

}  // namespace
}  // namespace koord::agent::app
