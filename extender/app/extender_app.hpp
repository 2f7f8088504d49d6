// koord-extender's command line: flags and the dispatch to its sub-commands.
#pragma once

#include <iosfwd>

namespace koord::extender::app {

// Runs koord-extender with the given argv; returns the process exit code.
int runExtender(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::extender::app
