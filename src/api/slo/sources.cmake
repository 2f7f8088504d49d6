# slo.koordinator.sh models (koord/api/slo/).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/node_metric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node_slo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resource_qos.cpp)
