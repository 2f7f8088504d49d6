# The informer half of koord_k8s (see CMakeLists.txt): reflector, informers, cache transforms.
list(APPEND KOORD_K8S_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/reflector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transforms.cpp)
