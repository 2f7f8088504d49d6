# config.koordinator.sh models (koord/api/config/).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/cluster_colocation_profile.cpp)
