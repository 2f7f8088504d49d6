#include "extender/framework/fit_error.hpp"

#include <algorithm>
#include <vector>

namespace koord::extender::framework {

std::string fitErrorMessage(size_t num_nodes, const std::map<std::string, size_t>& reason_counts) {
  if (num_nodes == 0) {
    return "no nodes available to schedule pods";
  }
  std::vector<std::string> entries;
  entries.reserve(reason_counts.size());
  for (const auto& [reason, count] : reason_counts) {
    entries.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(entries.begin(), entries.end());
  std::string message = "0/" + std::to_string(num_nodes) + " nodes are available: ";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) {
      message += ", ";
    }
    message += entries[i];
  }
  return message + ".";
}

}  // namespace koord::extender::framework
