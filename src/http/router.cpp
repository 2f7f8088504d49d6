#include "router.hpp"

#include <algorithm>
#include <mutex>

#include "text.hpp"

namespace koord::http::detail {

Status Router::add(std::string_view method, std::string_view path, HttpHandler handler,
                   HandlerKind kind) {
  const std::string route = std::string(method) + " " + std::string(path);
  if (method.empty() || !std::all_of(method.begin(), method.end(), isTokenChar)) {
    return Status::invalidArgument("failed to add route '" + route + "': invalid method");
  }
  if (path.empty() || path[0] != '/') {
    return Status::invalidArgument("failed to add route '" + route + "': path must start with '/'");
  }
  if (!handler) {
    return Status::invalidArgument("failed to add route '" + route + "': no handler");
  }
  std::unique_lock lock(mu_);
  auto& methods = routes_[std::string(path)];
  if (!methods.emplace(std::string(method), Route{std::move(handler), kind}).second) {
    return Status::alreadyExists("failed to add route '" + route + "': already routed");
  }
  return Status::ok();
}

Router::Match Router::find(std::string_view method, std::string_view path) const {
  std::shared_lock lock(mu_);
  Match match;
  const auto it = routes_.find(path);
  if (it == routes_.end()) {
    return match;
  }
  const auto handler = it->second.find(std::string(method));
  if (handler != it->second.end()) {
    match.kind = Match::Kind::kFound;
    match.handler = handler->second.handler;
    match.handler_kind = handler->second.kind;
    return match;
  }
  match.kind = Match::Kind::kMethodNotAllowed;
  for (const auto& [allowed, unused] : it->second) {
    match.allow += match.allow.empty() ? allowed : ", " + allowed;
  }
  return match;
}

}  // namespace koord::http::detail
