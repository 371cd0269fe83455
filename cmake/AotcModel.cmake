# add_compiled_model(): compile an HLO model with `aotc compile` at build time
# and wrap the result in a static library target.
#
#   add_compiled_model(<target> HLO <file>
#                      [NAME <c-identifier>] [NAMESPACE <ns>]
#                      [TARGET_TRIPLE <triple>] [CPU <cpu>] [FEATURES <features>]
#                      [CONSTANTS_SECTION <section>]
#                      [COMPOSITE_KERNELS <name>=<symbol>...]
#                      [AOTC_FLAGS <flag>...])
#
# <target> becomes a STATIC library holding the model's object file. Linking it
# gives the generated header's folder as an include directory and links the
# aotc run-time library (aotc::runtime), so a program only needs
# `target_link_libraries(app PRIVATE <target>)` and `#include "<NAME>.h"`.
#
# The model file may be the OUTPUT of an add_custom_command() in the same
# directory, such as a script that exports it from JAX (samples/jax_to_c).
#
# NAME is the C prefix of every generated symbol (`<NAME>_run`) and the stem of
# the generated files. It defaults to <target> when that is a valid C
# identifier; otherwise NAME is required. TARGET_TRIPLE, CPU and FEATURES
# default to the variables AOTC_TARGET_TRIPLE, AOTC_CPU and AOTC_FEATURES when
# set (a toolchain file is a good place for them), and TARGET_TRIPLE then to
# CMAKE_C_COMPILER_TARGET; when cross-compiling one of these must give a triple.
# CONSTANTS_SECTION puts the model's constant arrays (weights) into that
# section of the object, for the firmware's linker script to place.
# COMPOSITE_KERNELS binds composites to C functions the program defines: every
# composite named <name> becomes a call of <symbol> (aotc's --composite-kernel,
# docs/codegen.md#composite-kernels), which the generated header declares.
# AOTC_FLAGS go to `aotc compile` unchanged (e.g. -O2, --emit obj,header,json,asm).
#
# The generated files live in ${CMAKE_CURRENT_BINARY_DIR}/<target>_aotc/ and
# are regenerated when the model file or the aotc executable changes. The
# target's properties AOTC_MODEL_NAME, AOTC_HEADER, AOTC_OBJECT and AOTC_JSON
# name the model and the generated files.
#
# The function works with the imported targets of an installed aotc
# (find_package(aotc CONFIG)) and with the targets of an aotc source tree added
# by add_subdirectory(); both provide aotc::aotc and aotc::runtime.
include_guard(GLOBAL)

# Sets <out_var> to whether <value> can prefix the generated C symbols and
# macros: aotc refuses identifiers with a leading or trailing '_' or a "__",
# which C and C++ reserve once affixes are added. aotc itself also refuses
# keywords.
function(_aotc_is_symbol_prefix out_var value)
  if(value MATCHES "^[A-Za-z][A-Za-z0-9_]*$" AND NOT value MATCHES "_$|__")
    set(${out_var} TRUE PARENT_SCOPE)
  else()
    set(${out_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Sets <out_var> to <value> when it is not empty, else to the value of the
# first variable named in the remaining arguments that is set and not empty.
function(_aotc_option_or_default out_var value)
  if(NOT "${value}" STREQUAL "")
    set(${out_var} "${value}" PARENT_SCOPE)
    return()
  endif()
  foreach(fallback IN LISTS ARGN)
    if(NOT "${${fallback}}" STREQUAL "")
      set(${out_var} "${${fallback}}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} "" PARENT_SCOPE)
endfunction()

function(add_compiled_model target)
  set(where "add_compiled_model(${target})")
  string(CONCAT rule "letters, digits and '_', starting with a letter, "
                "not ending in '_', no '__'")
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "HLO;NAME;NAMESPACE;TARGET_TRIPLE;CPU;FEATURES;CONSTANTS_SECTION"
    "COMPOSITE_KERNELS;AOTC_FLAGS")

  if(ARG_UNPARSED_ARGUMENTS)
    list(JOIN ARG_UNPARSED_ARGUMENTS " " unknown)
    message(FATAL_ERROR "${where}: unknown argument(s): ${unknown}\n"
      "Accepted keywords: HLO, NAME, NAMESPACE, TARGET_TRIPLE, CPU, FEATURES, "
      "CONSTANTS_SECTION, COMPOSITE_KERNELS, AOTC_FLAGS")
  endif()
  foreach(keyword IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    if(NOT keyword MATCHES "^(AOTC_FLAGS|COMPOSITE_KERNELS)$")
      message(FATAL_ERROR "${where}: keyword ${keyword} needs a value")
    endif()
  endforeach()
  if(TARGET ${target})
    message(FATAL_ERROR "${where}: a target named '${target}' already exists")
  endif()

  if(NOT ARG_HLO)
    message(FATAL_ERROR "${where}: missing HLO <file>, the model to compile")
  endif()
  get_filename_component(hlo "${ARG_HLO}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A model file that an add_custom_command() of this directory generates
  # (an export script, say) need not exist yet: the build makes it first.
  get_source_file_property(generated "${hlo}" GENERATED)
  if(IS_DIRECTORY "${hlo}" OR (NOT EXISTS "${hlo}" AND NOT generated))
    message(FATAL_ERROR "${where}: HLO file not found: ${hlo}")
  endif()

  if(DEFINED ARG_NAME)
    set(name "${ARG_NAME}")
    _aotc_is_symbol_prefix(ok "${name}")
    if(NOT ok)
      message(FATAL_ERROR "${where}: NAME '${name}' is not a usable C "
        "identifier (${rule})")
    endif()
  else()
    set(name "${target}")
    _aotc_is_symbol_prefix(ok "${name}")
    if(NOT ok)
      message(FATAL_ERROR "${where}: the target name cannot be the model's "
        "symbol prefix (${rule}); pass NAME <c-identifier>")
    endif()
  endif()

  if(DEFINED ARG_NAMESPACE)
    string(REPLACE "::" ";" parts "${ARG_NAMESPACE}")
    set(ok TRUE)
    foreach(part IN LISTS parts)
      _aotc_is_symbol_prefix(part_ok "${part}")
      if(NOT part_ok)
        set(ok FALSE)
      endif()
    endforeach()
    if(NOT ok OR ARG_NAMESPACE MATCHES "^::|::$|;")
      message(FATAL_ERROR "${where}: NAMESPACE '${ARG_NAMESPACE}' is not a C++ "
        "namespace name (identifiers joined by '::', each ${rule})")
    endif()
  endif()

  if(DEFINED ARG_CONSTANTS_SECTION AND
     NOT ARG_CONSTANTS_SECTION MATCHES "^[A-Za-z0-9_.$]+$")
    message(FATAL_ERROR "${where}: CONSTANTS_SECTION '${ARG_CONSTANTS_SECTION}' "
      "is not a section name (letters, digits, '_', '.' and '$')")
  endif()

  foreach(binding IN LISTS ARG_COMPOSITE_KERNELS)
    if(NOT binding MATCHES "^[^=]+=[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "${where}: COMPOSITE_KERNELS '${binding}' is not "
        "<name>=<symbol> (a composite's name and a C function's name)")
    endif()
  endforeach()

  _aotc_option_or_default(triple "${ARG_TARGET_TRIPLE}"
                          AOTC_TARGET_TRIPLE CMAKE_C_COMPILER_TARGET
                          CMAKE_CXX_COMPILER_TARGET)
  _aotc_option_or_default(cpu "${ARG_CPU}" AOTC_CPU)
  _aotc_option_or_default(features "${ARG_FEATURES}" AOTC_FEATURES)
  if(CMAKE_CROSSCOMPILING AND triple STREQUAL "")
    message(FATAL_ERROR "${where}: cross-compiling for "
      "${CMAKE_SYSTEM_NAME}/${CMAKE_SYSTEM_PROCESSOR} but no target triple is "
      "known; pass TARGET_TRIPLE or set AOTC_TARGET_TRIPLE (e.g. in the "
      "toolchain file)")
  endif()

  foreach(needed aotc::aotc aotc::runtime)
    if(NOT TARGET ${needed})
      message(FATAL_ERROR "${where}: target ${needed} does not exist; call "
        "find_package(aotc CONFIG REQUIRED) or add_subdirectory() of the aotc "
        "source tree before add_compiled_model()")
    endif()
  endforeach()
  # Depending on the real target name gives both the target-level dependency
  # (build aotc first, in-tree) and a file-level one (re-run when it changes).
  get_target_property(tool aotc::aotc ALIASED_TARGET)
  if(NOT tool)
    set(tool aotc::aotc)
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}_aotc")
  set(object "${out_dir}/${name}.o")
  set(header "${out_dir}/${name}.h")
  set(json "${out_dir}/${name}.json")

  set(command "$<TARGET_FILE:${tool}>" compile "${hlo}" -o "${out_dir}"
              --name "${name}")
  if(DEFINED ARG_NAMESPACE)
    list(APPEND command --namespace "${ARG_NAMESPACE}")
  endif()
  if(NOT triple STREQUAL "")
    list(APPEND command --target-triple "${triple}")
  endif()
  if(NOT cpu STREQUAL "")
    list(APPEND command --cpu "${cpu}")
  endif()
  if(NOT features STREQUAL "")
    list(APPEND command --features "${features}")
  endif()
  if(DEFINED ARG_CONSTANTS_SECTION)
    list(APPEND command --constants-section "${ARG_CONSTANTS_SECTION}")
  endif()
  foreach(binding IN LISTS ARG_COMPOSITE_KERNELS)
    list(APPEND command --composite-kernel "${binding}")
  endforeach()
  list(APPEND command ${ARG_AOTC_FLAGS})

  file(MAKE_DIRECTORY "${out_dir}")
  add_custom_command(
    OUTPUT "${object}" "${header}" "${json}"
    COMMAND ${command}
    DEPENDS "${hlo}" ${tool} "$<TARGET_FILE:${tool}>"
    COMMENT "Compiling model ${ARG_HLO} with aotc (${name})"
    VERBATIM)

  set_source_files_properties("${object}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  # A library made only of an external object has no language of its own;
  # archiving needs one enabled in this directory (a language enabled only
  # in a subdirectory, such as the aotc sources' own C, does not count).
  if(CMAKE_C_COMPILER_LOADED)
    set(archive_language C)
  elseif(CMAKE_CXX_COMPILER_LOADED)
    set(archive_language CXX)
  else()
    message(FATAL_ERROR "${where}: enable C or CXX in project() first")
  endif()
  add_library(${target} STATIC "${object}" "${header}")
  set_target_properties(${target} PROPERTIES
    LINKER_LANGUAGE ${archive_language}
    AOTC_MODEL_NAME "${name}"
    AOTC_HEADER "${header}"
    AOTC_OBJECT "${object}"
    AOTC_JSON "${json}")
  target_include_directories(${target} PUBLIC "${out_dir}")
  target_link_libraries(${target} PUBLIC aotc::runtime)
endfunction()
