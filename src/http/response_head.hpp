// The status line and header fields of an answer, as the socket server writes them (private to
// koord_http).
#pragma once

#include <string>

#include "koord/http/server.hpp"

namespace koord::http::detail {

// Which Connection field the answer carries.
enum class ConnectionField {
  kNone,       // HTTP/1.1 keep-alive is the default
  kClose,      // "Connection: close": the server closes the connection after the answer
  kKeepAlive,  // "Connection: keep-alive": for HTTP/1.0 clients whose connection is kept
};

// Returns "HTTP/1.1 <status> <reason>\r\n", the header fields and the blank line for `response`:
//  - a status outside 200..599 becomes 500 (a 1xx is not a final answer);
//  - Content-Type defaults to "text/plain; charset=utf-8";
//  - Content-Length is always the body's size (the handler's own is dropped), except for 204 and
//    304, which carry neither Content-Length nor a body;
//  - the handler's Connection and Transfer-Encoding fields are dropped, and so are fields whose
//    name is not a token or whose value holds CR or LF (they would corrupt the answer);
//  - `connection` adds the Connection field.
// `send_body` tells whether the body follows the head: not for 204, 304 or an answer to HEAD.
[[nodiscard]] std::string formatResponseHead(const HttpResponse& response, bool head_request,
                                             ConnectionField connection, bool& send_body);

}  // namespace koord::http::detail
