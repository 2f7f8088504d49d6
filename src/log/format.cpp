#include "format.hpp"

#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

namespace koord::log::detail {
namespace {

void appendJsonString(std::string_view text, std::string& out) {
  out += nlohmann::json(std::string(text))
             .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string_view upperLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return "TRACE";
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO ";
    case LogLevel::kWarn:
      return "WARN ";
    case LogLevel::kError:
      return "ERROR";
    case LogLevel::kOff:
      break;
  }
  return "OFF  ";
}

bool isReservedKey(std::string_view key) {
  return key == "ts" || key == "level" || key == "logger" || key == "msg";
}

bool needsQuotes(std::string_view text) {
  if (text.empty()) {
    return true;
  }
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '"' || c == '=' || c == '\\') {
      return true;
    }
  }
  return false;
}

// Escapes control characters so that a message never spans lines.
void appendEscapedText(std::string_view text, std::string& out) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xf]);
    } else {
      out.push_back(c);
    }
  }
}

std::string_view stringOf(const LogField::Value& value) {
  if (const auto* view = std::get_if<std::string_view>(&value)) {
    return *view;
  }
  return std::get<std::string>(value);
}

void appendNumberOrBool(const LogField::Value& value, std::string& out) {
  if (const auto* i = std::get_if<int64_t>(&value)) {
    out += std::to_string(*i);
  } else if (const auto* u = std::get_if<uint64_t>(&value)) {
    out += std::to_string(*u);
  } else if (const auto* d = std::get_if<double>(&value)) {
    out += nlohmann::json(*d).dump();
  } else {
    out += std::get<bool>(value) ? "true" : "false";
  }
}

bool isString(const LogField::Value& value) {
  return std::holds_alternative<std::string_view>(value) ||
         std::holds_alternative<std::string>(value);
}

}  // namespace

std::string formatTimestamp(std::chrono::system_clock::time_point time) {
  const auto since_epoch = time.time_since_epoch();
  const auto seconds = std::chrono::floor<std::chrono::seconds>(since_epoch);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds).count();
  const std::time_t t = static_cast<std::time_t>(seconds.count());
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(millis));
  return buffer;
}

void appendFields(LogFormat format, LogFields fields, std::string& out) {
  for (const LogField& field : fields) {
    if (format == LogFormat::kJson) {
      out.push_back(',');
      if (isReservedKey(field.key())) {
        appendJsonString("_" + std::string(field.key()), out);
      } else {
        appendJsonString(field.key(), out);
      }
      out.push_back(':');
      if (isString(field.value())) {
        appendJsonString(stringOf(field.value()), out);
      } else {
        appendNumberOrBool(field.value(), out);
      }
      continue;
    }
    out.push_back(' ');
    appendEscapedText(field.key(), out);
    out.push_back('=');
    if (!isString(field.value())) {
      appendNumberOrBool(field.value(), out);
    } else if (const std::string_view text = stringOf(field.value()); needsQuotes(text)) {
      appendJsonString(text, out);
    } else {
      out += text;
    }
  }
}

std::string formatLine(LogFormat format, std::chrono::system_clock::time_point time, LogLevel level,
                       std::string_view logger_name, std::string_view msg, std::string_view context,
                       LogFields fields) {
  std::string out;
  out.reserve(96 + msg.size() + context.size());
  if (format == LogFormat::kJson) {
    out += "{\"ts\":\"";
    out += formatTimestamp(time);
    out += "\",\"level\":\"";
    out += logLevelName(level);
    out += '"';
    if (!logger_name.empty()) {
      out += ",\"logger\":";
      appendJsonString(logger_name, out);
    }
    out += ",\"msg\":";
    appendJsonString(msg, out);
    out += context;
    appendFields(format, fields, out);
    out.push_back('}');
    return out;
  }
  out += formatTimestamp(time);
  out.push_back(' ');
  out += upperLevelName(level);
  out.push_back(' ');
  if (!logger_name.empty()) {
    out += logger_name;
    out += ": ";
  }
  appendEscapedText(msg, out);
  out += context;
  appendFields(format, fields, out);
  return out;
}

}  // namespace koord::log::detail
