#include "manager/webhook/json_patch.hpp"

#include <string>
#include <string_view>

namespace koord::manager::webhook {
namespace {

using api::Json;

void appendEscaped(std::string& path, std::string_view key) {
  path += '/';
  for (char c : key) {
    if (c == '~') {
      path += "~0";
    } else if (c == '/') {
      path += "~1";
    } else {
      path += c;
    }
  }
}

void op(Json& out, const char* name, const std::string& path, const Json* value) {
  Json entry = Json::object();
  entry["op"] = name;
  entry["path"] = path;
  if (value != nullptr) {
    entry["value"] = *value;
  }
  out.push_back(std::move(entry));
}

// Appends to `out` the operations from `a` to `b` at `path` (restored before returning).
void diffInto(const Json& a, const Json& b, std::string& path, Json& out) {
  if (a == b) {
    return;
  }
  if (a.type() != b.type() || !(a.is_object() || a.is_array())) {
    op(out, "replace", path, &b);
    return;
  }
  const size_t base = path.size();
  if (a.is_array()) {
    size_t i = 0;
    for (; i < a.size() && i < b.size(); ++i) {
      path += '/';
      path += std::to_string(i);
      diffInto(a[i], b[i], path, out);
      path.resize(base);
    }
    for (size_t j = a.size(); j > i; --j) {
      path += '/';
      path += std::to_string(j - 1);
      op(out, "remove", path, nullptr);
      path.resize(base);
    }
    for (; i < b.size(); ++i) {
      path += '/';
      path += std::to_string(i);
      op(out, "add", path, &b[i]);
      path.resize(base);
    }
    return;
  }
  for (auto it = a.begin(); it != a.end(); ++it) {
    appendEscaped(path, it.key());
    auto other = b.find(it.key());
    if (other == b.end()) {
      op(out, "remove", path, nullptr);
    } else {
      diffInto(it.value(), *other, path, out);
    }
    path.resize(base);
  }
  for (auto it = b.begin(); it != b.end(); ++it) {
    if (!a.contains(it.key())) {
      appendEscaped(path, it.key());
      op(out, "add", path, &it.value());
      path.resize(base);
    }
  }
}

}  // namespace

Json createJsonPatch(const Json& from, const Json& to) {
  Json out = Json::array();
  std::string path;
  diffInto(from, to, path, out);
  return out;
}

}  // namespace koord::manager::webhook
