# admission/v1 AdmissionReview, appended to koord_api (see src/api/CMakeLists.txt).
list(APPEND KOORD_API_SOURCES ${CMAKE_CURRENT_LIST_DIR}/review.cpp)
