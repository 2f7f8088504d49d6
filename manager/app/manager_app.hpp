// koord-manager's command line: its flags; it runs nothing yet (docs/compatibility.md).
#pragma once

#include <iosfwd>

namespace koord::manager::app {

// Runs koord-manager with the given argv; returns the process exit code.
int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::manager::app
