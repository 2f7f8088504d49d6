#include "koord/log/flags.hpp"

namespace koord::log {

void addLogFlags(FlagSet& flags) {
  flags.addString("log-level", "info", "trace, debug, info, warn, error or off");
  flags.addString("log-format", "text", "text (one readable line per entry) or json");
}

Result<Logger> loggerFromFlags(const FlagSet& flags, std::ostream& out, std::string name) {
  auto level = parseLogLevel(flags.get("log-level"));
  if (!level.ok()) {
    return level.status().withPrefix("--log-level");
  }
  auto format = parseLogFormat(flags.get("log-format"));
  if (!format.ok()) {
    return format.status().withPrefix("--log-format");
  }
  return Logger(LogSink::toStream(out), LogOptions{*level, *format}, std::move(name));
}

}  // namespace koord::log
