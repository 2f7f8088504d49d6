// kube-scheduler's FitError text, shared by the simulator and the reservation loop.
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace koord::extender::framework {

// "0/<n> nodes are available: <count> <reason>, ...." with the "<count> <reason>" entries sorted
// as strings; "no nodes available to schedule pods" for n = 0. `reason_counts`: reason -> how
// many nodes gave it.
[[nodiscard]] std::string fitErrorMessage(size_t num_nodes,
                                          const std::map<std::string, size_t>& reason_counts);

}  // namespace koord::extender::framework
