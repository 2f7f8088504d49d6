# The client half of koord_k8s (see CMakeLists.txt): config, transport, rate limiting, typed API.
list(APPEND KOORD_K8S_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/backoff.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/config.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/errors.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/rate_limiter.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/rest_client.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/resource.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/client.cpp)
