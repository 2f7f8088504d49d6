#include "extender/server/wire/reply_writer.hpp"

#include <cstdint>
#include <string_view>

namespace koord::extender::server::wire {
namespace {

using api::Json;
using api::extender::ExtenderFilterResult;
using api::extender::FailedNodesMap;
using api::extender::HostPriorityList;

std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Appends `s` as a JSON string: directly when it is printable ASCII without quotes or backslashes
// (every Kubernetes name is), through nlohmann otherwise, so the escaping is always nlohmann's.
void appendString(std::string& out, std::string_view s) {
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
      out += dump(Json(std::string(s)));
      return;
    }
  }
  out += '"';
  out += s;
  out += '"';
}

// A map written as nlohmann writes an empty one (null, as Go writes a nil map) or a full one.
void appendFailures(std::string& out, const FailedNodesMap& failures) {
  if (failures.empty()) {
    out += "null";
    return;
  }
  out += '{';
  bool first = true;
  for (const auto& [node, reason] : failures) {
    if (!first) {
      out += ',';
    }
    first = false;
    appendString(out, node);
    out += ':';
    appendString(out, reason);
  }
  out += '}';
}

}  // namespace

std::string writeJson(const ExtenderFilterResult& v) {
  std::string out;
  out.reserve(64 + (v.nodeNames ? v.nodeNames->size() * 32 : 0));
  out += "{\"Error\":";
  appendString(out, v.error);
  out += ",\"FailedAndUnresolvableNodes\":";
  appendFailures(out, v.failedAndUnresolvableNodes);
  out += ",\"FailedNodes\":";
  appendFailures(out, v.failedNodes);
  out += ",\"NodeNames\":";
  if (!v.nodeNames) {
    out += "null";
  } else {
    out += '[';
    for (std::size_t i = 0; i < v.nodeNames->size(); ++i) {
      if (i > 0) {
        out += ',';
      }
      appendString(out, (*v.nodeNames)[i]);
    }
    out += ']';
  }
  out += ",\"Nodes\":";
  out += v.nodes ? dump(toJson(*v.nodes)) : std::string("null");
  out += '}';
  return out;
}

std::string writeJson(const HostPriorityList& v) {
  std::string out;
  out.reserve(2 + v.size() * 48);
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    out += "{\"Host\":";
    appendString(out, v[i].host);
    out += ",\"Score\":";
    out += std::to_string(v[i].score);
    out += '}';
  }
  out += ']';
  return out;
}

}  // namespace koord::extender::server::wire
