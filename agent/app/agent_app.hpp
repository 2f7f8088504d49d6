// koord-agent's command line: flags and the dispatch to its sub-commands.
#pragma once

#include <iosfwd>

namespace koord::agent::app {

// Runs koord-agent with the given argv; returns the process exit code.
int runAgent(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::agent::app
