// Shared entry logic of the koord programs: flag parsing, --help, --version and exit codes.
#pragma once

#include <functional>
#include <iosfwd>

#include "koord/common/flags.hpp"

namespace koord {

// Parses argv into `flags`; prints usage for --help and "<program> <version>" for --version
// (both exit 0); a flag error is printed to `err` with a hint and exits 2. Otherwise returns what
// `body` returns. Never throws: an exception escaping `body` is reported and exits 1.
int runProgram(FlagSet& flags, const char* program, int argc, const char* const* argv,
               const std::function<int(const FlagSet&)>& body, std::ostream& out,
               std::ostream& err);

}  // namespace koord
