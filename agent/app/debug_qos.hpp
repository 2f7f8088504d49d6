// /debug/qos: what every QoS strategy last saw and decided (Scheduler::debugJson), for a user on
// the node asking why a BE pod has two CPUs now. koord-agent may listen on the pod network's
// address (for Prometheus), so the route answers only clients on the node itself.
#pragma once

#include <functional>

#include "koord/api/codec.hpp"
#include "koord/http/server.hpp"

namespace koord::agent::app {

// 200 with the JSON `state()` returns (indented) for a request from 127.0.0.0/8; 403 naming the
// rule for any other remote address (state() is not called).
[[nodiscard]] http::HttpResponse debugQosResponse(const http::HttpRequest& request,
                                                  const std::function<api::Json()>& state);

}  // namespace koord::agent::app
