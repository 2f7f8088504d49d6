// SIGTERM and SIGINT for the long-running programs: blocked in every thread and taken by one
// waiter, so that a signal stops the program at a known point instead of in a handler.
#pragma once

#include <csignal>

namespace koord {

// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread it starts afterwards,
// so that they stay pending until waitForTerminationSignal() takes one. Call it in main's thread
// before starting any other thread.
[[nodiscard]] sigset_t blockTerminationSignals();

// Waits until one of `signals` is pending and returns its number.
int waitForTerminationSignal(const sigset_t& signals);

}  // namespace koord
