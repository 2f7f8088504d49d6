#include "manager/noderesource/sync_state.hpp"

namespace koord::manager::noderesource {

std::string degradeKindOf(const std::optional<std::string>& reason) {
  if (!reason) {
    return "";
  }
  return reason->substr(0, reason->find(':'));
}

NodeSyncRecord SyncState::get(const std::string& node) const {
  std::lock_guard lock(mu_);
  auto it = records_.find(node);
  return it == records_.end() ? NodeSyncRecord{} : it->second;
}

void SyncState::recordWrite(const std::string& node, TimePoint at, std::string degrade_kind) {
  std::lock_guard lock(mu_);
  NodeSyncRecord& record = records_[node];
  record.lastWrite = at;
  record.degradeKind = std::move(degrade_kind);
}

void SyncState::recordTopologyWrite(const std::string& node, TimePoint at) {
  std::lock_guard lock(mu_);
  records_[node].lastTopologyWrite = at;
}

void SyncState::forget(const std::string& node) {
  std::lock_guard lock(mu_);
  records_.erase(node);
}

size_t SyncState::degradedCount() const {
  std::lock_guard lock(mu_);
  size_t count = 0;
  for (const auto& [node, record] : records_) {
    if (record.lastWrite && !record.degradeKind.empty()) {
      ++count;
    }
  }
  return count;
}

}  // namespace koord::manager::noderesource
