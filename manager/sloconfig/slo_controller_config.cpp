#include "manager/sloconfig/slo_controller_config.hpp"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "koord/config/field_reader.hpp"
#include "koord/config/yaml.hpp"

namespace koord::manager::sloconfig {

namespace {

using config::Field;
using config::FieldReader;
using ReadKey = std::function<void(FieldReader&, const Field&)>;

bool blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// "" when `text` is one JSON value, else the parser's message ("parse error at line 1, column
// 21: syntax error while parsing object key - unexpected end of input; expected string literal").
std::string jsonSyntaxError(const std::string& text) {
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text);
    return parsed.is_discarded() ? "not a JSON value" : "";
  } catch (const nlohmann::json::parse_error& error) {
    const std::string what = error.what();
    const size_t tag = what.find("] ");
    return tag == std::string::npos ? what : what.substr(tag + 2);
  }
}

// Reads data[key] with `read`, appending "<key>: <error>" for each of its errors to `errors`.
void readKey(const std::map<std::string, std::string>& data, std::string_view key,
             const ReadKey& read, std::vector<std::string>& errors) {
  const auto it = data.find(std::string(key));
  if (it == data.end() || blank(it->second)) {
    return;
  }
  const std::string prefix = std::string(key) + ": ";
  // The value must be JSON (as Go's json.Unmarshal reads it); the YAML parser then gives the
  // lines of its nodes.
  std::string json_error = jsonSyntaxError(it->second);
  if (!json_error.empty()) {
    errors.push_back(prefix + "invalid JSON: " + json_error);
    return;
  }
  Result<std::vector<config::YamlDocument>> docs = config::parseYamlDocuments(it->second, key);
  if (!docs.ok()) {
    errors.push_back(prefix + docs.status().message());
    return;
  }
  if (docs->size() != 1) {
    errors.push_back(prefix + "expected one document, found " + std::to_string(docs->size()));
    return;
  }
  FieldReader reader(docs->front());
  read(reader, reader.root());
  for (const std::string& error : reader.errors()) {
    errors.push_back(prefix + error);
  }
}

}  // namespace

Result<SloControllerConfig> parseSloControllerConfig(
    const std::map<std::string, std::string>& data) {
  SloControllerConfig config;
  std::vector<std::string> errors;
  readKey(
      data, kColocationConfigKey,
      [&](FieldReader& r, const Field& f) { readColocationConfig(r, f, config.colocation); },
      errors);
  readKey(
      data, kResourceThresholdConfigKey,
      [&](FieldReader& r, const Field& f) { readStrategyConfig(r, f, config.resourceThreshold); },
      errors);
  readKey(
      data, kResourceQOSConfigKey,
      [&](FieldReader& r, const Field& f) { readStrategyConfig(r, f, config.resourceQOS); },
      errors);
  readKey(
      data, kCPUBurstConfigKey,
      [&](FieldReader& r, const Field& f) { readStrategyConfig(r, f, config.cpuBurst); }, errors);
  readKey(
      data, kSystemConfigKey,
      [&](FieldReader& r, const Field& f) { readStrategyConfig(r, f, config.system); }, errors);
  readKey(
      data, kHostApplicationConfigKey,
      [&](FieldReader& r, const Field& f) {
        readHostApplicationConfig(r, f, config.hostApplication);
      },
      errors);
  readKey(
      data, kCPUNormalizationConfigKey,
      [&](FieldReader& r, const Field& f) {
        readCPUNormalizationConfig(r, f, config.cpuNormalization);
      },
      errors);
  readKey(
      data, kResourceAmplificationConfigKey,
      [&](FieldReader& r, const Field& f) {
        readResourceAmplificationConfig(r, f, config.resourceAmplification);
      },
      errors);
  if (!errors.empty()) {
    std::string message = "invalid slo-controller-config: ";
    for (size_t i = 0; i < errors.size(); ++i) {
      message += (i == 0 ? "" : "; ") + errors[i];
    }
    return Status::invalidArgument(std::move(message));
  }
  return config;
}

Status SloConfigHolder::apply(const std::map<std::string, std::string>& data) {
  Result<SloControllerConfig> parsed = parseSloControllerConfig(data);
  if (!parsed.ok()) {
    last_error_ = parsed.status();
    return last_error_;
  }
  current_ = std::move(parsed).value();
  last_error_ = Status::ok();
  return last_error_;
}

}  // namespace koord::manager::sloconfig
