# CHLO lowering (chlo_lowering.h): CHLO operations into aotc IR, used by the
# StableHLO front end. Included from this folder's CMakeLists.txt.
add_library(aotc_chlo_lowering chlo_lowering.cc)
target_link_libraries(aotc_chlo_lowering PUBLIC aotc_ir aotc_rewrite)

aotc_add_test(NAME chlo_lowering_test
  SOURCES chlo_lowering_test.cc
  DEPS aotc_chlo_lowering aotc_evaluator)

aotc_add_test(NAME chlo_lowering_e2e_test
  SOURCES chlo_lowering_e2e_test.cc
  DEPS aotc_chlo_lowering aotc_jit_runner aotc_frontend aotc_evaluator
       aotc_tool_io aotc_passes)

aotc_add_test(NAME chlo_testdata_test
  SOURCES chlo_testdata_test.cc
  DEPS aotc_chlo_lowering aotc_jit_runner aotc_frontend aotc_evaluator
       aotc_tool_io aotc_passes)
