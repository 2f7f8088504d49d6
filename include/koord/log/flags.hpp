// The logging flags every koord program takes: --log-level and --log-format.
#pragma once

#include <iosfwd>
#include <string>

#include "koord/common/flags.hpp"
#include "koord/log/logger.hpp"

namespace koord::log {

// Declares --log-level (default info) and --log-format (default text) on `flags`.
void addLogFlags(FlagSet& flags);

// Builds the program's logger from the parsed flags, writing to `out`. A bad value is
// kInvalidArgument naming the flag: "--log-level: failed to parse log level 'x': ...".
[[nodiscard]] Result<Logger> loggerFromFlags(const FlagSet& flags, std::ostream& out,
                                             std::string name);

}  // namespace koord::log
