#include "koord/common/program.hpp"

#include <exception>
#include <ostream>

#include "koord/common/version.hpp"

namespace koord {

int runProgram(FlagSet& flags, const char* program, int argc, const char* const* argv,
               const std::function<int(const FlagSet&)>& body, std::ostream& out,
               std::ostream& err) {
  Status parsed = flags.parse(argc, argv);
  if (!parsed.isOk()) {
    err << program << ": " << parsed.message() << "\n";
    return 2;
  }
  if (flags.helpRequested()) {
    out << flags.usage();
    return 0;
  }
  if (flags.versionRequested()) {
    out << program << " " << kVersion << "\n";
    return 0;
  }
  try {
    return body(flags);
  } catch (const std::exception& e) {
    err << program << ": fatal: " << e.what() << "\n";
  } catch (...) {
    err << program << ": fatal: unknown exception\n";
  }
  return 1;
}

}  // namespace koord
