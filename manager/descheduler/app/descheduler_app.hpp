// koord-descheduler's command line: flags, the configuration, and the run (descheduler_serve.hpp).
//
// Flags: --config PATH (required; a DeschedulerConfiguration), --kubeconfig (overrides
// clientConnection.kubeconfig), --dry-run (no PodMigrationJob is created; one line per victim on
// `out`), --once (one pass, no controller, no server, no Lease: exit 0 when the pass succeeded),
// the log flags, --help, --version.
// Exit codes: 0 after a clean stop (SIGTERM / SIGINT) or a successful --once pass; 1 when the
// configuration does not load, a plugin is unknown, args are invalid, or start-up or the pass
// fails (the message on `err`); 2 for a flag error.
#pragma once

#include <iosfwd>

namespace koord::manager::descheduler::app {

int runDescheduler(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::manager::descheduler::app
