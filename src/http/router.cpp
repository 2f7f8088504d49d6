#include "router.hpp"

#include <algorithm>
#include <array>
#include <mutex>

#include "text.hpp"

namespace koord::http::detail {
namespace {

constexpr std::array<std::string_view, 9> kStandardMethods = {
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"};

bool isStandardMethod(std::string_view method) {
  return std::find(kStandardMethods.begin(), kStandardMethods.end(), method) !=
         kStandardMethods.end();
}

}  // namespace

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
  Match match;
  if (!isStandardMethod(method)) {
    match.kind = Match::Kind::kNotImplemented;
    return match;
  }
  std::shared_lock lock(mu_);
  const auto it = routes_.find(path);
  if (it == routes_.end()) {
    return match;
  }
  const auto& methods = it->second;
  auto handler = methods.find(std::string(method));
  if (handler == methods.end() && method == "HEAD") {
    handler = methods.find("GET");
  }
  if (handler != methods.end()) {
    match.kind = Match::Kind::kFound;
    match.handler = handler->second.handler;
    match.handler_kind = handler->second.kind;
    match.takes_body = method != "GET" && method != "HEAD";
    return match;
  }
  match.kind = Match::Kind::kMethodNotAllowed;
  for (const auto& [allowed, unused] : methods) {
    match.allow += match.allow.empty() ? allowed : ", " + allowed;
    if (allowed == "GET" && !methods.contains("HEAD")) {
      match.allow += ", HEAD";
    }
  }
  return match;
}

HttpResponse unroutedAnswer(std::string_view method, std::string_view path,
                            const Router::Match& match) {
  const std::string m(method);
  const std::string p(path);
  switch (match.kind) {
    case Router::Match::Kind::kNotImplemented:
      return HttpResponse::text(501, "method " + m + " is not implemented\n");
    case Router::Match::Kind::kMethodNotAllowed: {
      HttpResponse response = HttpResponse::text(
          405, "method " + m + " is not allowed for '" + p + "'; allowed: " + match.allow + "\n");
      response.headers["Allow"] = match.allow;
      return response;
    }
    case Router::Match::Kind::kNotFound:
    case Router::Match::Kind::kFound:
      break;
  }
  return HttpResponse::text(404, "no handler for path '" + p + "'\n");
}

}  // namespace koord::http::detail
