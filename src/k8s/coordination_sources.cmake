# The coordination half of koord_k8s (see CMakeLists.txt): Lease leader election, event recorder.
list(APPEND KOORD_K8S_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/leader_election.cpp
  ${CMAKE_CURRENT_LIST_DIR}/event_recorder.cpp)
