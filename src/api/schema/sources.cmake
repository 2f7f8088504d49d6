# OpenAPI v3 structural-schema validation of custom resources (include/koord/api/schema/).
list(APPEND KOORD_API_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/crd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schema_util.cpp
  ${CMAKE_CURRENT_LIST_DIR}/structural.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validator.cpp)
