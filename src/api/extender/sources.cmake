# extender/v1 wire types, the streaming ExtenderArgs decoder, the pod-key scan of ExtenderArgs and the
# direct reply writers, appended
# to koord_api (see src/api/CMakeLists.txt).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/types.cpp
     ${CMAKE_CURRENT_LIST_DIR}/args_decoder.cpp ${CMAKE_CURRENT_LIST_DIR}/args_key.cpp
     ${CMAKE_CURRENT_LIST_DIR}/reply_writer.cpp)
