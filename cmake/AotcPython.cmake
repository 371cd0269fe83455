# Tests that run with the Python of the test environment (JAX, Keras, ...,
# tools/setup-python.sh). The environment is looked for when the test runs,
# so configuring never needs it; without it the tests say SKIPPED.
#
#   aotc_add_python_test(NAME name SCRIPT file.py [ARGS ...] [TIMEOUT s]
#                        [FIXTURES_SETUP f...] [FIXTURES_REQUIRED f...]
#                        [RESOURCE_LOCK r...] [LABELS l...])
#
# The script sees AOTC (the aotc binary), AOTC_SOURCE_DIR, AOTC_BUILD_DIR,
# AOTC_SHARED_DIR and the user-side package python/ on PYTHONPATH; byte code
# goes to the build tree's pycache/, never beside the sources. Tests get the
# label "python" besides their own.
set(AOTC_VENV "${CMAKE_BINARY_DIR}/venv" CACHE PATH
    "Python environment of the tests (tools/setup-python.sh)")

function(aotc_add_python_test)
  cmake_parse_arguments(PT "" "NAME;SCRIPT;TIMEOUT"
    "ARGS;FIXTURES_SETUP;FIXTURES_REQUIRED;RESOURCE_LOCK;LABELS" ${ARGN})
  if(NOT PT_TIMEOUT)
    set(PT_TIMEOUT 600)
  endif()
  add_test(NAME ${PT_NAME}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/python/run_python.sh ${AOTC_VENV}
            ${PT_SCRIPT} ${PT_ARGS})
  set_tests_properties(${PT_NAME} PROPERTIES
    LABELS python TIMEOUT ${PT_TIMEOUT} SKIP_RETURN_CODE 77
    ENVIRONMENT "AOTC=$<TARGET_FILE:aotc>;AOTC_SOURCE_DIR=${PROJECT_SOURCE_DIR};AOTC_BUILD_DIR=${CMAKE_BINARY_DIR};AOTC_SHARED_DIR=${AOTC_SHARED_DIR};PYTHONPATH=${PROJECT_SOURCE_DIR}/python;KERAS_BACKEND=jax;TF_CPP_MIN_LOG_LEVEL=3;PYTHONPYCACHEPREFIX=${CMAKE_BINARY_DIR}/pycache")
  foreach(prop FIXTURES_SETUP FIXTURES_REQUIRED RESOURCE_LOCK LABELS)
    if(PT_${prop})
      set_property(TEST ${PT_NAME} APPEND PROPERTY ${prop} ${PT_${prop}})
    endif()
  endforeach()
endfunction()
