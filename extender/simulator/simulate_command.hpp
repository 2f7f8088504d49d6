// `koord-extender simulate`: places the pending pods of a cluster read from YAML with
// kube-scheduler's basic filters followed by koord-extender's plugins, and prints where each goes
// (docs/simulator.md).
#pragma once

#include <ostream>

namespace koord::extender::simulator {

// argv[0] is the command's name ("simulate"); the options follow:
//   -f, --filename <path>   a YAML file (repeatable; at least one)
//   -o, --output <format>   table (default), json or yaml
//   -h, --help
// Returns 0 after printing the result (unschedulable pods included), 1 on an input error (missing
// file, bad YAML, unknown kind or field: the message names file and line), 2 on a usage error.
// Writes results to `out`, errors to `err`. Never throws.
int runSimulate(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::extender::simulator
