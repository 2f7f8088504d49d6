# Annotation payloads (koord/api/extension/).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/annotation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/coscheduling.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_topology.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_share.cpp
  ${CMAKE_CURRENT_LIST_DIR}/duration.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elastic_quota.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_aware.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_reservation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/numa_aware.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reservation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resource.cpp)
