// koord-manager's command line: connects to the API server, campaigns for the koord-manager Lease
// and serves /healthz, /readyz and /metrics, runs the controllers while leading, serves the
// webhooks on every replica; `koord-manager calculate` runs offline
// (docs/koord-manager.md, docs/compatibility.md).
#pragma once

#include <iosfwd>

namespace koord::manager::app {

// Runs koord-manager with the given argv; returns the process exit code (0 after a clean stop on
// SIGTERM or SIGINT, 1 when it cannot start, 2 for a bad command line).
int runManager(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::manager::app
