#include "response_head.hpp"

#include <algorithm>
#include <string_view>

#include "text.hpp"

namespace koord::http::detail {
namespace {

std::string_view reasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 203:
      return "Non-Authoritative Information";
    case 204:
      return "No Content";
    case 205:
      return "Reset Content";
    case 206:
      return "Partial Content";
    case 300:
      return "Multiple Choices";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 303:
      return "See Other";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 308:
      return "Permanent Redirect";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 402:
      return "Payment Required";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 411:
      return "Length Required";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 416:
      return "Range Not Satisfiable";
    case 417:
      return "Expectation Failed";
    case 421:
      return "Misdirected Request";
    case 422:
      return "Unprocessable Content";
    case 425:
      return "Too Early";
    case 426:
      return "Upgrade Required";
    case 428:
      return "Precondition Required";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

bool writable(const std::string& name, const std::string& value) {
  return !name.empty() && std::all_of(name.begin(), name.end(), isTokenChar) &&
         value.find_first_of("\r\n") == std::string::npos;
}

}  // namespace

std::string formatResponseHead(const HttpResponse& response, bool head_request,
                               ConnectionField connection, bool& send_body) {
  const int status = response.status >= 200 && response.status <= 599 ? response.status : 500;
  const bool bodyless = status == 204 || status == 304;
  send_body = !bodyless && !head_request;

  std::string out;
  out.reserve(128 + response.headers.size() * 48);
  out.append("HTTP/1.1 ").append(std::to_string(status)).append(" ").append(reasonPhrase(status));
  out.append("\r\n");
  bool has_content_type = false;
  for (const auto& [name, value] : response.headers) {
    if (equalsIgnoreCase(name, "Content-Length") || equalsIgnoreCase(name, "Connection") ||
        equalsIgnoreCase(name, "Transfer-Encoding") || !writable(name, value)) {
      continue;
    }
    has_content_type = has_content_type || equalsIgnoreCase(name, "Content-Type");
    out.append(name).append(": ").append(value).append("\r\n");
  }
  if (!has_content_type) {
    out.append("Content-Type: text/plain; charset=utf-8\r\n");
  }
  if (!bodyless) {
    out.append("Content-Length: ").append(std::to_string(response.body.size())).append("\r\n");
  }
  if (connection == ConnectionField::kClose) {
    out.append("Connection: close\r\n");
  } else if (connection == ConnectionField::kKeepAlive) {
    out.append("Connection: keep-alive\r\n");
  }
  out.append("\r\n");
  return out;
}

}  // namespace koord::http::detail
