#include "agent/app/debug_qos.hpp"

#include <string>

namespace koord::agent::app {

http::HttpResponse debugQosResponse(const http::HttpRequest& request,
                                    const std::function<api::Json()>& state) {
  if (request.remote_address.rfind("127.", 0) != 0) {
    return http::HttpResponse::text(
        403, "/debug/qos answers only clients on the node (127.0.0.0/8), not '" +
                 request.remote_address + "'\n");
  }
  return http::HttpResponse::json(200, state().dump(2) + "\n");
}

}  // namespace koord::agent::app
