#include "manager/descheduler/plugins/pod_lifecycle/args_decode.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "koord/api/codec.hpp"
#include "koord/api/core/selectors.hpp"

namespace koord::manager::descheduler::pod_lifecycle {

namespace args_decode_detail {

bool isInteger(const Json& value) {
  return value.is_number_integer() || value.is_number_unsigned();
}

}  // namespace args_decode_detail

Status checkKnownKeys(const Json& obj, const std::string& path,
                      std::initializer_list<std::string_view> known, bool allow_type_meta) {
  if (!obj.is_object()) {
    return api::typeError(path, "object", obj);
  }
  for (const auto& [key, value] : obj.items()) {
    if (allow_type_meta && (key == "apiVersion" || key == "kind")) {
      continue;
    }
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Status::invalidArgument(api::childPath(path, key) + ": unknown field");
    }
  }
  return Status::ok();
}

const Json* member(const Json& obj, std::string_view key) {
  if (!obj.is_object()) {
    return nullptr;
  }
  auto it = obj.find(std::string(key));
  if (it == obj.end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

Status decodeBool(const Json* value, const std::string& path, bool& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_boolean()) {
    return api::typeError(path, "boolean", *value);
  }
  out = value->get<bool>();
  return Status::ok();
}

Status decodeUint(const Json* value, const std::string& path, std::optional<uint64_t>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!args_decode_detail::isInteger(*value)) {
    return api::typeError(path, "non-negative integer", *value);
  }
  if (value->is_number_integer() && !value->is_number_unsigned() && value->get<int64_t>() < 0) {
    return Status::invalidArgument(path + ": must be a non-negative integer, got " + value->dump());
  }
  out = value->get<uint64_t>();
  return Status::ok();
}

Status decodeInt32(const Json* value, const std::string& path, int32_t& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!args_decode_detail::isInteger(*value)) {
    return api::typeError(path, "integer", *value);
  }
  bool fits =
      value->is_number_unsigned()
          ? value->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())
          : value->get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                value->get<int64_t>() <= std::numeric_limits<int32_t>::max();
  if (!fits) {
    return Status::invalidArgument(path + ": " + value->dump() + " does not fit in int32");
  }
  out = static_cast<int32_t>(value->get<int64_t>());
  return Status::ok();
}

Status decodeString(const Json* value, const std::string& path, std::string& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_string()) {
    return api::typeError(path, "string", *value);
  }
  out = value->get<std::string>();
  return Status::ok();
}

Status decodeStrings(const Json* value, const std::string& path, std::vector<std::string>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_array()) {
    return api::typeError(path, "array", *value);
  }
  out.clear();
  for (size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_string()) {
      return api::typeError(api::indexPath(path, i), "string", item);
    }
    out.push_back(item.get<std::string>());
  }
  return Status::ok();
}

Status decodeInt32s(const Json* value, const std::string& path, std::vector<int32_t>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (!value->is_array()) {
    return api::typeError(path, "array", *value);
  }
  out.clear();
  for (size_t i = 0; i < value->size(); ++i) {
    int32_t item = 0;
    if (Status st = decodeInt32(&(*value)[i], api::indexPath(path, i), item); !st.isOk()) {
      return st;
    }
    out.push_back(item);
  }
  return Status::ok();
}

Status decodeNamespaces(const Json* value, const std::string& path,
                        std::optional<Namespaces>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (Status st = checkKnownKeys(*value, path, {"include", "exclude"}); !st.isOk()) {
    return st;
  }
  Namespaces namespaces;
  if (Status st = decodeStrings(member(*value, "include"), api::childPath(path, "include"),
                                namespaces.include);
      !st.isOk()) {
    return st;
  }
  if (Status st = decodeStrings(member(*value, "exclude"), api::childPath(path, "exclude"),
                                namespaces.exclude);
      !st.isOk()) {
    return st;
  }
  out = std::move(namespaces);
  return Status::ok();
}

Status decodeLabelSelector(const Json* value, const std::string& path,
                           std::optional<api::core::LabelSelector>& out) {
  if (value == nullptr) {
    return Status::ok();
  }
  if (Status st = checkKnownKeys(*value, path, {"matchLabels", "matchExpressions"}); !st.isOk()) {
    return st;
  }
  if (const Json* expressions = member(*value, "matchExpressions");
      expressions != nullptr && expressions->is_array()) {
    for (size_t i = 0; i < expressions->size(); ++i) {
      const Json& item = (*expressions)[i];
      if (!item.is_object()) {
        continue;  // the model decoder reports the type
      }
      std::string item_path = api::indexPath(api::childPath(path, "matchExpressions"), i);
      if (Status st = checkKnownKeys(item, item_path, {"key", "operator", "values"}); !st.isOk()) {
        return st;
      }
    }
  }
  api::core::LabelSelector selector;
  if (Status st = api::core::fromJson(*value, selector, path); !st.isOk()) {
    return st;
  }
  out = std::move(selector);
  return Status::ok();
}

Status ErrorList::toStatus() const {
  if (messages_.empty()) {
    return Status::ok();
  }
  if (messages_.size() == 1) {
    return Status::invalidArgument(messages_.front());
  }
  std::string joined = "[";
  for (size_t i = 0; i < messages_.size(); ++i) {
    joined += (i == 0 ? "" : ", ") + messages_[i];
  }
  return Status::invalidArgument(joined + "]");
}

std::string goStringList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : " ") + items[i];
  }
  return out + "]";
}

void validateNamespacesAndSelector(std::string_view args_name,
                                   const std::optional<Namespaces>& namespaces,
                                   const std::optional<api::core::LabelSelector>& selector,
                                   ErrorList& errors) {
  if (namespaces && !namespaces->include.empty() && !namespaces->exclude.empty()) {
    errors.add(std::string(args_name) +
               ".namespaces: only one of Include/Exclude namespaces can be set");
  }
  if (selector) {
    if (Status st = api::core::validateLabelSelector(*selector); !st.isOk()) {
      errors.add(
          std::string(args_name) +
          ".labelSelector: failed to get label selectors from strategy's params: " + st.message());
    }
  }
}

}  // namespace koord::manager::descheduler::pod_lifecycle
