// Offline validation of any API object this project models, dispatched on apiVersion + kind.
// Used by tests and tools that check manifests (deploy/examples/) without an API server.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "koord/api/codec.hpp"

namespace koord::api {

struct KnownKind {
  std::string_view apiVersion;
  std::string_view kind;
};

// Every apiVersion/kind pair validateKnownObject() understands: the Koordinator CRDs
// (Reservation under both scheduling.koordinator.sh/v1alpha1 and /v1), their List kinds, and the
// core/v1 Pod, Node and ConfigMap.
[[nodiscard]] const std::vector<KnownKind>& knownKinds();

// Decodes `object` with its model's fromJson and, for a Reservation, runs validateReservation
// (items of a ReservationList too). Returns:
//   ok                 the object decodes (and validates);
//   kInvalidArgument   "failed to decode <Kind> '<name>': <field path>: <cause>", or the
//                      Reservation validation errors, or a missing/non-string apiVersion or kind;
//   kNotFound          "failed to validate object: unknown kind '<kind>' in '<apiVersion>'".
// Thread-safe; never throws.
[[nodiscard]] Status validateKnownObject(const Json& object);

}  // namespace koord::api
