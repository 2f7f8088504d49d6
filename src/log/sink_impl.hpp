// LogSink's representation (private to koord_log): an spdlog logger with one sink and the "%v"
// pattern, so that spdlog only serialises, writes and flushes the lines koord formats itself.
#pragma once

#include <spdlog/common.h>

#include <memory>

#include "koord/log/logger.hpp"

namespace spdlog {
class logger;
}

namespace koord::log {

struct LogSink::Impl {
  std::shared_ptr<spdlog::logger> logger;
};

spdlog::level::level_enum toSpdlogLevel(LogLevel level);
LogLevel fromSpdlogLevel(spdlog::level::level_enum level);

}  // namespace koord::log
