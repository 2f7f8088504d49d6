# topology.node.k8s.io models (koord/api/topology/).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/node_resource_topology.cpp)
