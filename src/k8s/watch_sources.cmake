# The watch half of koord_k8s (see CMakeLists.txt): watch decoder, store and indexers, work queue.
list(APPEND KOORD_K8S_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/watch_decoder.cpp)
