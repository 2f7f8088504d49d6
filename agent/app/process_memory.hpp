// The agent's own resident memory, for koord_agent_resident_memory_bytes.
#pragma once

#include <cstdint>

namespace koord::agent::app {

// VmRSS of this process in bytes, from /proc/self/status (the agent's own procfs, not the host's);
// 0 when it cannot be read.
[[nodiscard]] int64_t currentRssBytes();

}  // namespace koord::agent::app
