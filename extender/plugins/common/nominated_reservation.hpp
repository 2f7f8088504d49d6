// NominatedReservation: the Reservation a pod's bind takes (the Reservation plugin's reserve()
// chooses it and writes it into the bind's CycleState), for the plugins whose reserve() runs after
// it and must give the pod what that reservation holds: NodeNUMAResource gives an owner the CPUs
// its reservation holds. Absent when the pod takes no reservation.
#pragma once

#include <string>

#include "extender/framework/cycle_state.hpp"

namespace koord::extender::plugins::common {

struct NominatedReservation final : framework::StateData {
  std::string name;
  std::string uid;
  // Its allocatePolicy is Restricted: the pod may use no more than what it holds (NodeNUMAResource:
  // on NUMA nodes, no more than the NUMA resources it holds).
  bool restricted = false;
};

// The CycleState key it is written under.
[[nodiscard]] inline const std::string& nominatedReservationKey() {
  static const std::string key = "Reservation/nominated";
  return key;
}

}  // namespace koord::extender::plugins::common
