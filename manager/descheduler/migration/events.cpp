#include "manager/descheduler/migration/events.hpp"

#include <utility>

namespace koord::manager::descheduler::migration {

EventSink eventSinkFor(k8s::EventRecorder& recorder) {
  return [&recorder](const api::core::ObjectReference& involved, k8s::EventType type,
                     std::string reason, std::string message) {
    recorder.event(involved, type, std::move(reason), std::move(message));
  };
}

}  // namespace koord::manager::descheduler::migration
