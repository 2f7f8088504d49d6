#include "agent/resourceexecutor/audit_log.hpp"

#include <utility>

namespace koord::agent::resourceexecutor {

std::string_view writeResultName(WriteResult result) {
  switch (result) {
    case WriteResult::kOk:
      return "ok";
    case WriteResult::kSkipped:
      return "skipped";
    case WriteResult::kFailed:
      return "failed";
    case WriteResult::kRefused:
      return "refused";
  }
  return "unknown";
}

void AuditLog::add(AuditRecord record) {
  if (records_.size() == capacity_) {
    records_.pop_front();
  }
  records_.push_back(std::move(record));
  ++total_;
}

}  // namespace koord::agent::resourceexecutor
