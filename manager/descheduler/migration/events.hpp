// Where the migration controller's Events go: an EventSink the reconciler calls after the write
// the Event reports has succeeded. Production passes eventSinkFor(recorder) (the core/v1 Events
// of k8s::EventRecorder, involved object = the PodMigrationJob); tests pass a lambda that keeps
// them. An empty sink records nothing.
//
// Reasons are Koordinator's (pkg/descheduler/controllers/migration/controller.go), plus
// FailedEvict and ReservationExpired, which Koordinator names as condition reasons only.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "koord/api/core/meta.hpp"
#include "koord/k8s/event_recorder.hpp"

namespace koord::manager::descheduler::migration {

using EventSink = std::function<void(const api::core::ObjectReference& involved,
                                     k8s::EventType type, std::string reason, std::string message)>;

// A sink writing through `recorder` (which must outlive it).
[[nodiscard]] EventSink eventSinkFor(k8s::EventRecorder& recorder);

// Normal Events of a job's progress.
inline constexpr std::string_view kEventReservationCreated = "ReservationCreated";
inline constexpr std::string_view kEventReservationScheduled = "ReservationScheduled";
inline constexpr std::string_view kEventEvicting = "Evicting";
inline constexpr std::string_view kEventEvictComplete = "EvictComplete";
inline constexpr std::string_view kEventWaitForPodBindReservation = "WaitForPodBindReservation";
inline constexpr std::string_view kEventPodBoundReservation = "PodBoundReservation";
inline constexpr std::string_view kEventWaitForBoundPodReady = "WaitForBoundPodReady";
inline constexpr std::string_view kEventBoundPodReady = "BoundPodReady";
inline constexpr std::string_view kEventComplete = "Complete";

}  // namespace koord::manager::descheduler::migration
