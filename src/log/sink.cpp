#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <mutex>

#include "sink_impl.hpp"

namespace koord::log {
namespace {

// Hands each formatted line (without its newline) to a function, under the sink's mutex.
class CallbackSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit CallbackSink(std::function<void(LogLevel, std::string_view)> write)
      : write_(std::move(write)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    write_(fromSpdlogLevel(msg.level), std::string_view(msg.payload.data(), msg.payload.size()));
  }
  void flush_() override {}

 private:
  std::function<void(LogLevel, std::string_view)> write_;
};

LogSink::Impl makeImpl(std::shared_ptr<spdlog::sinks::sink> sink) {
  auto logger = std::make_shared<spdlog::logger>("koord", std::move(sink));
  logger->set_pattern("%v");
  logger->set_level(spdlog::level::trace);
  logger->flush_on(spdlog::level::trace);
  return LogSink::Impl{std::move(logger)};
}

}  // namespace

spdlog::level::level_enum toSpdlogLevel(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace:
      return spdlog::level::trace;
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
    case LogLevel::kOff:
      break;
  }
  return spdlog::level::off;
}

LogLevel fromSpdlogLevel(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return LogLevel::kTrace;
    case spdlog::level::debug:
      return LogLevel::kDebug;
    case spdlog::level::info:
      return LogLevel::kInfo;
    case spdlog::level::warn:
      return LogLevel::kWarn;
    case spdlog::level::err:
    case spdlog::level::critical:
      return LogLevel::kError;
    default:
      return LogLevel::kOff;
  }
}

LogSink LogSink::toStderr() {
  return LogSink(
      std::make_shared<Impl>(makeImpl(std::make_shared<spdlog::sinks::stderr_sink_mt>())));
}

LogSink LogSink::toStream(std::ostream& out) {
  return LogSink(std::make_shared<Impl>(
      makeImpl(std::make_shared<spdlog::sinks::ostream_sink_mt>(out, true))));
}

LogSink LogSink::toCallback(std::function<void(LogLevel, std::string_view line)> write) {
  return LogSink(
      std::make_shared<Impl>(makeImpl(std::make_shared<CallbackSink>(std::move(write)))));
}

LogSink LogSink::discard() {
  return LogSink(std::make_shared<Impl>(makeImpl(std::make_shared<spdlog::sinks::null_sink_mt>())));
}

}  // namespace koord::log
