# The watch half of koord_k8s (see CMakeLists.txt): watch decoder, store and indexers, work queue.
list(APPEND KOORD_K8S_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/watch_decoder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/protobuf_object.cpp
  ${CMAKE_CURRENT_LIST_DIR}/protobuf_pod.cpp
  ${CMAKE_CURRENT_LIST_DIR}/protobuf_wire.cpp
  ${CMAKE_CURRENT_LIST_DIR}/protobuf_watch_decoder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/store_keys.cpp
  ${CMAKE_CURRENT_LIST_DIR}/work_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rate_limiting_queue.cpp)
