// Structured logging: a Logger value passed to whoever logs (no global logger), writing one line
// per entry in a human-readable text format or as one JSON object per line.
//
//   text: 2024-05-01T12:00:00.123Z INFO  extender.filter: pod bound pod=default/web score=3
//   json: {"ts":"2024-05-01T12:00:00.123Z","level":"info","logger":"extender.filter",
//          "msg":"pod bound","pod":"default/web","score":3}
//
// Timestamps are UTC, RFC 3339 with milliseconds. In JSON, strings are escaped (invalid UTF-8
// becomes U+FFFD), numbers and booleans stay typed, and a field named like a built-in key (ts,
// level, logger, msg) is written with a leading underscore. In text, the message has its control
// characters escaped (one entry is always one line) and a string value is quoted when it is empty
// or holds a space, '"', '=', '\' or a control character.
//
// Thread safety: Logger is an immutable value (cheap to copy) except for its level, which is
// shared with every child and may be changed at any time from any thread. Lines from many threads
// never interleave. spdlog does the writing; no spdlog type appears here.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "koord/common/result.hpp"

namespace koord::log {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };
enum class LogFormat { kText, kJson };

struct LogOptions {
  LogLevel level = LogLevel::kInfo;
  LogFormat format = LogFormat::kText;
};

// "trace", "debug", "info", "warn", "error", "off".
std::string_view logLevelName(LogLevel level);

// Parses the --log-level and --log-format flag values (case-insensitive). Errors name the bad
// value: "failed to parse log level 'verbose': expected one of trace, debug, info, warn, error,
// off".
[[nodiscard]] Result<LogLevel> parseLogLevel(std::string_view text);
[[nodiscard]] Result<LogFormat> parseLogFormat(std::string_view text);
[[nodiscard]] Result<LogOptions> parseLogOptions(std::string_view level_text,
                                                 std::string_view format_text);

namespace detail {
template <typename T>
concept LogInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;
}  // namespace detail

// One structured key/value pair. A field only lives for the logging call it is written in: string
// values are referenced, not copied (except a Status, which is rendered with toString()).
class LogField {
 public:
  using Value = std::variant<std::string_view, std::string, int64_t, uint64_t, double, bool>;

  LogField(std::string_view key, std::string_view value) : key_(key), value_(value) {}
  LogField(std::string_view key, const char* value) : key_(key), value_(std::string_view(value)) {}
  LogField(std::string_view key, const std::string& value)
      : key_(key), value_(std::string_view(value)) {}
  LogField(std::string_view key, bool value) : key_(key), value_(value) {}
  LogField(std::string_view key, const Status& status) : key_(key), value_(status.toString()) {}
  template <detail::LogInteger T>
  LogField(std::string_view key, T value) : key_(key), value_(integerValue(value)) {}
  template <std::floating_point T>
  LogField(std::string_view key, T value) : key_(key), value_(static_cast<double>(value)) {}
  // A duration is written in seconds (a double), as Prometheus and Kubernetes do.
  template <typename Rep, typename Period>
  LogField(std::string_view key, std::chrono::duration<Rep, Period> value)
      : key_(key), value_(std::chrono::duration<double>(value).count()) {}

  [[nodiscard]] std::string_view key() const { return key_; }
  [[nodiscard]] const Value& value() const { return value_; }

 private:
  template <typename T>
  static Value integerValue(T value) {
    if constexpr (std::is_signed_v<T>) {
      return Value(std::in_place_type<int64_t>, static_cast<int64_t>(value));
    } else {
      return Value(std::in_place_type<uint64_t>, static_cast<uint64_t>(value));
    }
  }

  std::string_view key_;
  Value value_;
};

using LogFields = std::initializer_list<LogField>;

// Where formatted lines go. Copies share the destination.
class LogSink {
 public:
  // Standard error (the default for programs).
  static LogSink toStderr();
  // `out` must outlive every Logger writing to it; each line is written with '\n' and flushed.
  static LogSink toStream(std::ostream& out);
  // Calls `write` with each line (no trailing newline), serialised: never two calls at once.
  static LogSink toCallback(std::function<void(LogLevel, std::string_view line)> write);
  // Drops everything.
  static LogSink discard();

  struct Impl;

 private:
  explicit LogSink(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
  friend class Logger;
};

// Returns the current time; injectable so tests see fixed timestamps.
using LogClock = std::function<std::chrono::system_clock::time_point()>;

class Logger {
 public:
  // A logger that discards everything (a safe default member).
  Logger();
  // `name` may be empty (then no logger name is written); an empty `clock` uses the system clock.
  Logger(LogSink sink, LogOptions options, std::string name = "", LogClock clock = {});

  // A logger named "<name>.<child_name>" (or just child_name when this one has no name), sharing
  // the sink, format, clock, fields and level.
  [[nodiscard]] Logger child(std::string_view child_name) const;
  // A logger that adds `fields` to every entry (after the fields of this one).
  [[nodiscard]] Logger withFields(LogFields fields) const;

  // The level is shared by this logger, its children and the loggers it was derived from.
  void setLevel(LogLevel level) const;
  [[nodiscard]] LogLevel level() const;
  [[nodiscard]] bool enabled(LogLevel level) const;
  [[nodiscard]] LogFormat format() const;
  [[nodiscard]] const std::string& name() const { return name_; }

  void log(LogLevel level, std::string_view msg, LogFields fields = {}) const;
  void trace(std::string_view msg, LogFields fields = {}) const {
    log(LogLevel::kTrace, msg, fields);
  }
  void debug(std::string_view msg, LogFields fields = {}) const {
    log(LogLevel::kDebug, msg, fields);
  }
  void info(std::string_view msg, LogFields fields = {}) const {
    log(LogLevel::kInfo, msg, fields);
  }
  void warn(std::string_view msg, LogFields fields = {}) const {
    log(LogLevel::kWarn, msg, fields);
  }
  void error(std::string_view msg, LogFields fields = {}) const {
    log(LogLevel::kError, msg, fields);
  }

  // Flushes the sink.
  void flush() const;

  struct Core;

 private:
  Logger(std::shared_ptr<const Core> core, std::string name, std::string context);

  std::shared_ptr<const Core> core_;
  std::string name_;
  std::string context_;  // the bound fields, already rendered in the core's format
};

}  // namespace koord::log
