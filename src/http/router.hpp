// Route table: (method, exact path) -> handler (private to koord_http). Thread-safe.
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
    enum class Kind { kFound, kNotFound, kMethodNotAllowed };
    Kind kind = Kind::kNotFound;
    HttpHandler handler;                               // kFound
    HandlerKind handler_kind = HandlerKind::kCompute;  // kFound
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

}  // namespace koord::http::detail
