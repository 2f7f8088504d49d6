// Route table: (method, exact path) -> handler (private to koord_http). Thread-safe.
//
// Methods are case-sensitive (RFC 9110 9.1): "get" is not GET. A method outside the standard
// ones (GET HEAD POST PUT DELETE CONNECT OPTIONS TRACE PATCH) is kNotImplemented (501), whatever
// the path. HEAD is served by the path's GET handler when it has no HEAD route of its own (the
// connection sends the head of the answer only). GET and HEAD routes take no request body.
#pragma once

#include <map>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "koord/http/server.hpp"

namespace koord::http::detail {

class Router {
 public:
  struct Match {
    enum class Kind { kFound, kNotFound, kMethodNotAllowed, kNotImplemented };
    Kind kind = Kind::kNotFound;
    HttpHandler handler;                               // kFound
    HandlerKind handler_kind = HandlerKind::kCompute;  // kFound
    bool takes_body = true;                            // kFound: false for GET and HEAD
    std::string allow;                                 // kMethodNotAllowed: "GET, POST"
  };

  [[nodiscard]] Status add(std::string_view method, std::string_view path, HttpHandler handler,
                           HandlerKind kind = HandlerKind::kCompute);
  [[nodiscard]] Match find(std::string_view method, std::string_view path) const;

 private:
  mutable std::shared_mutex mu_;
  struct Route {
    HttpHandler handler;
    HandlerKind kind;
  };
  std::map<std::string, std::map<std::string, Route>, std::less<>> routes_;  // path -> method
};

// The answer to a request no route serves: 404, 405 with Allow, or 501 (match.kind != kFound).
[[nodiscard]] HttpResponse unroutedAnswer(std::string_view method, std::string_view path,
                                          const Router::Match& match);

}  // namespace koord::http::detail
