#include "manager/noderesource/sync.hpp"

#include <chrono>
#include <cmath>
#include <set>
#include <sstream>

namespace koord::manager::noderesource {

namespace {

std::string formatThreshold(double threshold) {
  std::ostringstream out;
  out << threshold;
  return out.str();
}

}  // namespace

SyncDecision needSync(const resource::ResourceList& old_resources,
                      const resource::ResourceList& new_resources,
                      std::optional<TimePoint> last_update, TimePoint now,
                      const ColocationStrategy& strategy) {
  if (!last_update) {
    return {true, "never updated"};
  }
  auto since = now - *last_update;
  if (since > std::chrono::seconds(strategy.updateTimeThresholdSeconds)) {
    return {true,
            "last update " +
                formatDuration(std::chrono::duration_cast<std::chrono::seconds>(since).count()) +
                " ago, updateTimeThresholdSeconds " +
                std::to_string(strategy.updateTimeThresholdSeconds)};
  }
  std::string threshold = formatThreshold(strategy.resourceDiffThreshold);
  std::set<std::string> names;
  for (const auto& [name, q] : old_resources) {
    names.insert(name);
  }
  for (const auto& [name, q] : new_resources) {
    names.insert(name);
  }
  for (const auto& name : names) {
    auto old_it = old_resources.find(name);
    auto new_it = new_resources.find(name);
    if (old_it == old_resources.end()) {
      return {true, name + " added (" + new_it->second.toString() + ")"};
    }
    if (new_it == new_resources.end()) {
      return {true, name + " removed (was " + old_it->second.toString() + ")"};
    }
    auto old_milli = static_cast<double>(old_it->second.milliValue());
    auto new_milli = static_cast<double>(new_it->second.milliValue());
    if (std::fabs(new_milli - old_milli) > old_milli * strategy.resourceDiffThreshold) {
      return {true, name + " changed from " + old_it->second.toString() + " to " +
                        new_it->second.toString() + ", more than resourceDiffThreshold " +
                        threshold};
    }
  }
  return {false, "no change beyond resourceDiffThreshold " + threshold + " within " +
                     "updateTimeThresholdSeconds " +
                     std::to_string(strategy.updateTimeThresholdSeconds)};
}

}  // namespace koord::manager::noderesource
