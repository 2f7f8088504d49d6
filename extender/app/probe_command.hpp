// `koord-extender probe`: one HTTP GET of the extender's own health or readiness endpoint, for the
// chart's exec probes (the extender listens on 127.0.0.1 inside its pod, which kubelet's httpGet
// probes, sent to the pod IP, cannot reach).
#pragma once

#include <iosfwd>

namespace koord::extender::app {

// Runs `koord-extender probe [--url URL] [--timeout-ms N]` (argv[0] is "probe"). Exit 0 when the
// URL answers 2xx within the timeout; 1 otherwise, with the status or transport error and the
// body's first line on `err`; 2 for bad flags.
int runProbe(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace koord::extender::app
