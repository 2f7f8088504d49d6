#include "koord/log/logger.hpp"

#include <spdlog/logger.h>

#include <algorithm>
#include <atomic>
#include <cctype>

#include "format.hpp"
#include "sink_impl.hpp"

namespace koord::log {

struct Logger::Core {
  Core(LogSink sink_in, LogFormat format_in, LogClock clock_in, LogLevel level_in)
      : sink(std::move(sink_in)), format(format_in), clock(std::move(clock_in)), level(level_in) {}

  const LogSink sink;
  const LogFormat format;
  const LogClock clock;
  mutable std::atomic<LogLevel> level;
};

namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

constexpr LogLevel kAllLevels[] = {LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo,
                                   LogLevel::kWarn,  LogLevel::kError, LogLevel::kOff};

}  // namespace

std::string_view logLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return "trace";
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
    case LogLevel::kOff:
      break;
  }
  return "off";
}

Result<LogLevel> parseLogLevel(std::string_view text) {
  for (LogLevel level : kAllLevels) {
    if (equalsIgnoreCase(text, logLevelName(level))) {
      return level;
    }
  }
  return Status::invalidArgument("failed to parse log level '" + std::string(text) +
                                 "': expected one of trace, debug, info, warn, error, off");
}

Result<LogFormat> parseLogFormat(std::string_view text) {
  if (equalsIgnoreCase(text, "text")) {
    return LogFormat::kText;
  }
  if (equalsIgnoreCase(text, "json")) {
    return LogFormat::kJson;
  }
  return Status::invalidArgument("failed to parse log format '" + std::string(text) +
                                 "': expected text or json");
}

Result<LogOptions> parseLogOptions(std::string_view level_text, std::string_view format_text) {
  KOORD_ASSIGN_OR_RETURN(LogLevel level, parseLogLevel(level_text));
  KOORD_ASSIGN_OR_RETURN(LogFormat format, parseLogFormat(format_text));
  return LogOptions{level, format};
}

Logger::Logger() : Logger(LogSink::discard(), LogOptions{LogLevel::kOff, LogFormat::kText}) {}

Logger::Logger(LogSink sink, LogOptions options, std::string name, LogClock clock)
    : name_(std::move(name)) {
  if (!clock) {
    clock = [] { return std::chrono::system_clock::now(); };
  }
  core_ = std::make_shared<const Core>(std::move(sink), options.format, std::move(clock),
                                       options.level);
}

Logger::Logger(std::shared_ptr<const Core> core, std::string name, std::string context)
    : core_(std::move(core)), name_(std::move(name)), context_(std::move(context)) {}

Logger Logger::child(std::string_view child_name) const {
  std::string name =
      name_.empty() ? std::string(child_name) : name_ + "." + std::string(child_name);
  return Logger(core_, std::move(name), context_);
}

Logger Logger::withFields(LogFields fields) const {
  std::string context = context_;
  detail::appendFields(core_->format, fields, context);
  return Logger(core_, name_, std::move(context));
}

void Logger::setLevel(LogLevel level) const {
  core_->level.store(level);
}

LogLevel Logger::level() const {
  return core_->level.load();
}

bool Logger::enabled(LogLevel level) const {
  const LogLevel threshold = core_->level.load(std::memory_order_relaxed);
  return level != LogLevel::kOff && threshold != LogLevel::kOff && level >= threshold;
}

LogFormat Logger::format() const {
  return core_->format;
}

void Logger::log(LogLevel level, std::string_view msg, LogFields fields) const {
  if (!enabled(level)) {
    return;
  }
  const std::string line =
      detail::formatLine(core_->format, core_->clock(), level, name_, msg, context_, fields);
  core_->sink.impl_->logger->log(toSpdlogLevel(level),
                                 spdlog::string_view_t(line.data(), line.size()));
}

void Logger::flush() const {
  core_->sink.impl_->logger->flush();
}

}  // namespace koord::log
