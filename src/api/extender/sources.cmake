# extender/v1 wire types, appended to koord_api (see src/api/CMakeLists.txt). koord-extender's
# hot-path scanners of these bodies (ExtenderArgs decoder, key scan, reply writers) are in
# extender/server/wire/.
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/types.cpp)
