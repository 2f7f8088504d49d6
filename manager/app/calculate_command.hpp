// `koord-manager calculate -f cluster.yaml`: the batch and mid resources koord-manager would write
// to each Node of a cluster described in YAML, with every term of the calculation, offline. The
// numbers come from the node resource controller's own planNode (manager/noderesource), so they
// are the ones the live controller writes for the same objects.
#pragma once

#include <iosfwd>

namespace koord::manager::app {

// argv[0] is "calculate". Exit status: 0 when it ran, 1 for an input error (named with its file
// and line on `err`, nothing on `out`), 2 for a usage error.
int runCalculate(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::manager::app
