# extender/v1 wire types, appended to koord_api (see src/api/CMakeLists.txt).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/types.cpp)
