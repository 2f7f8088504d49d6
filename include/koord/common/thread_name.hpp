// Thread names: what `top -H`, `ps -L`, `perf` and /proc/<pid>/task/<tid>/comm show for a thread,
// so that an operator (and test/bench/scheduler_throughput/run.sh) can tell where a process's CPU
// goes: koord-extender's request threads (koord-http) from its watches (watch-pods, ...).
#pragma once

#include <string>
#include <string_view>

namespace koord {

// Names the calling thread. Linux keeps 15 bytes of a name; a longer one is cut to its first 15.
// Best effort: a failure (no such support) leaves the old name and is not reported.
void nameThisThread(std::string_view name);

// The calling thread's name; "" when it cannot be read.
[[nodiscard]] std::string thisThreadName();

}  // namespace koord
