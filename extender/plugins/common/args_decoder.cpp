#include "extender/plugins/common/args_decoder.hpp"

#include <utility>

namespace koord::extender::plugins::common {

namespace {

std::string fieldPath(std::string_view field) {
  return api::childPath("args", field);
}

}  // namespace

ArgsDecoder::ArgsDecoder(const api::Json& args, std::string plugin)
    : args_(args), plugin_(std::move(plugin)) {
  if (!args_.is_null() && !args_.is_object()) {
    errors_.push_back(std::string("args: expected object, got ") +
                      std::string(api::jsonTypeName(args_)));
  }
}

const api::Json* ArgsDecoder::lookup(std::string_view key) {
  consumed_.emplace(key);
  if (!args_.is_object()) {
    return nullptr;
  }
  auto it = args_.find(key);
  if (it == args_.end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

const api::Json* ArgsDecoder::optionalObject(std::string_view key) {
  const api::Json* v = lookup(key);
  if (v != nullptr && !v->is_object()) {
    addError(key, std::string("expected object, got ") + std::string(api::jsonTypeName(*v)));
    return nullptr;
  }
  return v;
}

ArgsDecoder& ArgsDecoder::optionalBool(std::string_view key, bool& out) {
  const api::Json* v = lookup(key);
  if (v == nullptr) {
    return *this;
  }
  if (!v->is_boolean()) {
    addError(key, std::string("expected boolean, got ") + std::string(api::jsonTypeName(*v)));
    return *this;
  }
  out = v->get<bool>();
  return *this;
}

ArgsDecoder& ArgsDecoder::optionalString(std::string_view key, std::string& out) {
  const api::Json* v = lookup(key);
  if (v == nullptr) {
    return *this;
  }
  if (!v->is_string()) {
    addError(key, std::string("expected string, got ") + std::string(api::jsonTypeName(*v)));
    return *this;
  }
  out = v->get<std::string>();
  return *this;
}

ArgsDecoder& ArgsDecoder::optionalStringList(std::string_view key, std::vector<std::string>& out,
                                             bool* present) {
  const api::Json* v = lookup(key);
  if (present != nullptr) {
    *present = v != nullptr;
  }
  if (v == nullptr) {
    return *this;
  }
  if (!v->is_array()) {
    addError(key, std::string("expected array, got ") + std::string(api::jsonTypeName(*v)));
    return *this;
  }
  std::vector<std::string> values;
  bool ok = true;
  for (size_t i = 0; i < v->size(); ++i) {
    const api::Json& item = (*v)[i];
    if (!item.is_string()) {
      addError(api::indexPath(std::string(key), i),
               std::string("expected string, got ") + std::string(api::jsonTypeName(item)));
      ok = false;
      continue;
    }
    values.push_back(item.get<std::string>());
  }
  if (ok) {
    out = std::move(values);
  }
  return *this;
}

void ArgsDecoder::addError(std::string_view field, std::string_view message) {
  errors_.push_back(fieldPath(field) + ": " + std::string(message));
}

Status ArgsDecoder::finish() const {
  std::vector<std::string> all = errors_;
  if (args_.is_object()) {
    for (auto it = args_.begin(); it != args_.end(); ++it) {
      if (consumed_.find(it.key()) == consumed_.end()) {
        all.push_back(fieldPath(it.key()) + ": unknown field");
      }
    }
  }
  if (all.empty()) {
    return Status::ok();
  }
  std::string message;
  for (const auto& line : all) {
    if (!message.empty()) {
      message += '\n';
    }
    message += "failed to decode args of plugin '" + plugin_ + "': " + line;
  }
  return Status::invalidArgument(std::move(message));
}

}  // namespace koord::extender::plugins::common
