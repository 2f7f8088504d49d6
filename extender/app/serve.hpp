// Running koord-extender: the cluster caches, the scheduling runtime and the HTTP server, wired
// from a KoordExtenderConfiguration.
#pragma once

#include <functional>

#include "extender/config/extender_config.hpp"
#include "koord/common/status.hpp"
#include "koord/log/logger.hpp"

namespace koord::extender::app {

// Builds everything, serves, calls `wait_for_stop` (which blocks until the process should stop),
// then stops gracefully: the HTTP server answers the requests in flight (up to 10 s), then the
// informers stop. Returns the first failure of start-up (configuration, API client, plugins,
// listening), each naming what failed; ok after a clean stop.
[[nodiscard]] Status serve(const config::KoordExtenderConfiguration& config,
                           const log::Logger& logger, const std::function<void()>& wait_for_stop);

}  // namespace koord::extender::app
