# scheduling.koordinator.sh models (koord/api/scheduling/).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pod_migration_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reservation.cpp)
