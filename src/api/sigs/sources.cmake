# scheduling.sigs.k8s.io models (koord/api/sigs/).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/elastic_quota.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pod_group.cpp)
