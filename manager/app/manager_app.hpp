// koord-manager's command line: flags and the dispatch to its sub-commands.
#pragma once

#include <iosfwd>

namespace koord::manager::app {

// Runs koord-manager with the given argv; returns the process exit code.
int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::manager::app
