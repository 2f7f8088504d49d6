// Rendering of log entries (private to koord_log).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "koord/log/logger.hpp"

namespace koord::log::detail {

// "2024-05-01T12:00:00.123Z".
std::string formatTimestamp(std::chrono::system_clock::time_point time);

// The rendered form of fields: `,"k":"v"` pairs for JSON, ` k=v` pairs for text.
void appendFields(LogFormat format, LogFields fields, std::string& out);

// A whole line (no trailing newline). `context` holds pre-rendered fields (appendFields()).
std::string formatLine(LogFormat format, std::chrono::system_clock::time_point time, LogLevel level,
                       std::string_view logger_name, std::string_view msg, std::string_view context,
                       LogFields fields);

}  // namespace koord::log::detail
