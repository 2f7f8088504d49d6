# quota.koordinator.sh models (koord/api/quota/).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/elastic_quota_profile.cpp)
