# Install rules and the exported package (find_package(aotc CONFIG)).
#
# Included at the end of the top-level CMakeLists.txt, once the `aotc` and
# `aotc_runtime` targets exist. Under the install prefix:
#
#   bin/aotc                                   the compiler
#   lib/libaotc_runtime.a                      the run-time library
#   include/aotc/runtime.h                     its header
#   share/aotc/runtime/runtime.c               its source, for cross builds
#   lib/cmake/aotc/aotcConfig.cmake            find_package(aotc CONFIG)
#   lib/cmake/aotc/aotcConfigVersion.cmake
#   lib/cmake/aotc/aotcTargets*.cmake          imported aotc::aotc
#   lib/cmake/aotc/aotcRuntimeTargets*.cmake   imported aotc::runtime
#   lib/cmake/aotc/AotcModel.cmake             add_compiled_model()
#
# The runtime has an export set of its own because the installed archive is
# built for this machine: a cross-compiling project skips it and compiles
# runtime.c for its target instead (see aotcConfig.cmake.in).
#
# The aotc:: names also exist as aliases in the build tree, so a project that
# adds the aotc sources with add_subdirectory() writes what it would write
# against an installed aotc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_executable(aotc::aotc ALIAS aotc)
add_library(aotc::runtime ALIAS aotc_runtime)
set_target_properties(aotc_runtime PROPERTIES EXPORT_NAME runtime)
# The installed aotc keeps a run path to the shared LLVM it was linked with,
# which need not be in the loader's default folders.
set_target_properties(aotc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

set(AOTC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/aotc")
set(AOTC_INSTALL_RUNTIME_SOURCEDIR "${CMAKE_INSTALL_DATADIR}/aotc/runtime")

install(TARGETS aotc EXPORT aotcTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS aotc_runtime EXPORT aotcRuntimeTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(FILES "${aotc_SOURCE_DIR}/runtime_lib/include/aotc/runtime.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/aotc")
install(FILES "${aotc_SOURCE_DIR}/runtime_lib/runtime.c"
  DESTINATION "${AOTC_INSTALL_RUNTIME_SOURCEDIR}")
install(EXPORT aotcTargets NAMESPACE aotc::
  DESTINATION "${AOTC_INSTALL_CMAKEDIR}")
install(EXPORT aotcRuntimeTargets NAMESPACE aotc::
  DESTINATION "${AOTC_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/aotcConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/aotcConfig.cmake"
  INSTALL_DESTINATION "${AOTC_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR AOTC_INSTALL_RUNTIME_SOURCEDIR)
# Before 1.0 a minor version may change the generated interface.
# ARCH_INDEPENDENT: a cross build (a 32-bit Cortex-M firmware) asks for the
# package too; aotc runs on the build machine, and such a build compiles the
# runtime from its source rather than importing the installed archive.
write_basic_package_version_file(
  "${CMAKE_CURRENT_BINARY_DIR}/aotcConfigVersion.cmake"
  VERSION "${aotc_VERSION}"
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/aotcConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/aotcConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/AotcModel.cmake"
  DESTINATION "${AOTC_INSTALL_CMAKEDIR}")
