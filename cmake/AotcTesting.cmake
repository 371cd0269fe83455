# aotc_add_test(NAME name SOURCES a_test.cc ... DEPS lib ... [TIMEOUT s])
#
# Builds a GoogleTest executable and registers its tests with CTest (each
# TEST becomes one CTest test, so failures name the case). Each test may take
# TIMEOUT seconds (default 600).
include(GoogleTest)

function(aotc_add_test)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  if(NOT AOTC_BUILD_TESTS)
    return()
  endif()
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_DEPS} GTest::gtest_main
                                            GTest::gmock)
  target_compile_definitions(${ARG_NAME} PRIVATE
    AOTC_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    AOTC_CORPUS_DIR="${AOTC_SHARED_DIR}/hlo-corpus")
  gtest_discover_tests(${ARG_NAME} DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT ${ARG_TIMEOUT})
endfunction()
