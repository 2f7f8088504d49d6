# Helpers shared by every CMakeLists in the tree: warnings, sanitizers, libraries and tests.

# Compile options every koord target gets.
add_library(koord_options INTERFACE)
target_compile_options(koord_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                               -Wnon-virtual-dtor -Wcast-align)
if(KOORD_WERROR)
  target_compile_options(koord_options INTERFACE -Werror)
endif()
if(KOORD_SANITIZE)
  target_compile_options(koord_options INTERFACE -fsanitize=address,undefined
                                                 -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(koord_options INTERFACE -fsanitize=address,undefined)
endif()

# koord_include_root(<target> <base> <dir> [EXCLUDE <subdirs...>])
# Gives <target> an include root of its own, so that the compiler enforces the layering that
# docs/architecture.md states: a file can include only the headers of its own library and of the
# libraries its target links (their roots come with them as PUBLIC include directories). The root,
# ${PROJECT_BINARY_DIR}/include-roots/<target>, holds a symbolic link to every header under
# <base>/<dir> (as <dir>/<relative path>, the path the sources include), leaving out the sub-folders
# named in EXCLUDE (other libraries'). Re-run at configure time; a new header re-runs it.
# Test code includes its shared helpers as "test/...": test targets get this root, which holds
# only a link to test/ (product headers come with the libraries a test links).
set(KOORD_TEST_INCLUDE_ROOT ${PROJECT_BINARY_DIR}/include-roots/tests)
file(REMOVE_RECURSE ${KOORD_TEST_INCLUDE_ROOT})
file(MAKE_DIRECTORY ${KOORD_TEST_INCLUDE_ROOT})
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/test ${KOORD_TEST_INCLUDE_ROOT}/test SYMBOLIC)

function(koord_include_root target base dir)
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/include-roots/${target})
  file(REMOVE_RECURSE ${root})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${base}/${dir} ${base}/${dir}/*.hpp
       ${base}/${dir}/*.h)
  foreach(header IN LISTS headers)
    set(skip FALSE)
    foreach(excluded IN LISTS ARG_EXCLUDE)
      if(header MATCHES "^${excluded}/")
        set(skip TRUE)
      endif()
    endforeach()
    if(NOT skip)
      get_filename_component(parent ${root}/${dir}/${header} DIRECTORY)
      file(MAKE_DIRECTORY ${parent})
      file(CREATE_LINK ${base}/${dir}/${header} ${root}/${dir}/${header} SYMBOLIC)
    endif()
  endforeach()
  file(MAKE_DIRECTORY ${root})
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# koord_add_library(<name> SOURCES <files...> [DEPS <targets...>])
# A static library with the project's options. DEPS are PUBLIC link dependencies.
function(koord_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_link_libraries(${name} PUBLIC koord_options ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# koord_add_executable(<name> SOURCES <files...> DEPS <targets...>)
function(koord_add_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE koord_options ${ARG_DEPS})
endfunction()

# koord_add_test(<name> SOURCES <files...> DEPS <targets...> [LABELS <labels...>])
# A GoogleTest binary; each TEST becomes one ctest test (discovered before the test runs). Binaries
# labelled `unit` are also prerequisites of the `koord_unit_tests` target (test/CMakeLists.txt).
function(koord_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE koord_options ${ARG_DEPS} GTest::gmock GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE KOORD_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_include_directories(${name} PRIVATE ${KOORD_TEST_INCLUDE_ROOT})
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  if(unit IN_LIST ARG_LABELS)
    set_property(GLOBAL APPEND PROPERTY KOORD_UNIT_TEST_TARGETS ${name})
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
                       PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT 120)
endfunction()

# The shared control plane for integration tests (see test/integration/CMakeLists.txt): its
# directory, and the kubeconfig every integration test receives as KOORD_TEST_KUBECONFIG.
set(KOORD_CONTROLPLANE_DIR ${PROJECT_BINARY_DIR}/controlplane)

# koord_add_integration_test(<name> SOURCES <files...> DEPS <targets...>)
# A GoogleTest binary run against the real control plane: ctest label `integration`, requires the
# `controlplane` fixture (one cluster shared by all integration tests; each test uses its own
# namespace or names), and gets KOORD_TEST_KUBECONFIG and KOORD_TEST_CLUSTER_DIR.
function(koord_add_integration_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE koord_options ${ARG_DEPS} GTest::gmock GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE KOORD_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_include_directories(${name} PRIVATE ${KOORD_TEST_INCLUDE_ROOT})
  # test/integration/support/ (the shared cluster client) is included from the repository root.
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  add_test(NAME integration.${name} COMMAND ${name})
  set_tests_properties(integration.${name} PROPERTIES
    LABELS integration
    FIXTURES_REQUIRED controlplane
    RESOURCE_LOCK controlplane
    TIMEOUT 600
    ENVIRONMENT "KOORD_TEST_KUBECONFIG=${KOORD_CONTROLPLANE_DIR}/kubeconfig;KOORD_TEST_CLUSTER_DIR=${KOORD_CONTROLPLANE_DIR}")
endfunction()

# koord_add_integration_script(<name> <script> [args...])
# A shell test against the real control plane (same fixture, label and environment as above).
function(koord_add_integration_script name script)
  add_test(NAME integration.${name} COMMAND bash ${script} ${ARGN})
  set_tests_properties(integration.${name} PROPERTIES
    LABELS integration
    FIXTURES_REQUIRED controlplane
    RESOURCE_LOCK controlplane
    TIMEOUT 600
    ENVIRONMENT "KOORD_TEST_KUBECONFIG=${KOORD_CONTROLPLANE_DIR}/kubeconfig;KOORD_TEST_CLUSTER_DIR=${KOORD_CONTROLPLANE_DIR};KOORD_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
