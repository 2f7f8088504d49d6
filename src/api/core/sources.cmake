# core/v1 models and helpers, appended to koord_api (see src/api/CMakeLists.txt).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/meta.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pod.cpp
  ${CMAKE_CURRENT_LIST_DIR}/node.cpp
  ${CMAKE_CURRENT_LIST_DIR}/objects.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pod_helpers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selectors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/taints.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time.cpp)
