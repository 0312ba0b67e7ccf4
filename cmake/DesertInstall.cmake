# cmake/DesertInstall.cmake — install rules and package files (included from
# CMakeLists.txt when DESERT_INSTALL is ON):
#   lib/libdesert.{a,so}, include/desert.h + include/desert/*.h,
#   lib/cmake/desert/{desert-config,desert-config-version,desertTargets}.cmake
#   (find_package(desert CONFIG) -> desert::desert) and lib/pkgconfig/desert.pc.
# A static libdesert needs libdeflate, zlib and libzstd on the consumer's link line:
# the package config finds them through pkg-config (as the build does, see
# DesertDeps.cmake) and the exported target links them; desert.pc lists them
# in Requires.private (so `pkg-config --static --libs desert` has them).
include(CMakePackageConfigHelpers)

set(DESERT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/desert" CACHE STRING
    "Where desert-config.cmake is installed, relative to the prefix")
mark_as_advanced(DESERT_INSTALL_CMAKEDIR)

install(TARGETS desert EXPORT desertTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_runtime
          NAMELINK_COMPONENT desert_development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT desert_runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The JSON layer (src/json, desert::json: schema documents, JSON values,
# the testee protocol; header include/desert/json.h) is installed and
# exported beside the core: find_package(desert) gives desert::json too.
if(TARGET desert_json)
  install(TARGETS desert_json EXPORT desertTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_development
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_runtime
            NAMELINK_COMPONENT desert_development)
endif()

# Shared builds: installed programs find the libraries relative to
# themselves.
get_target_property(_desert_type desert TYPE)
if(_desert_type STREQUAL "SHARED_LIBRARY")
  if(NOT APPLE AND NOT WIN32 AND EXISTS "${PROJECT_SOURCE_DIR}/tools/CMakeLists.txt"
     AND DESERT_BUILD_TOOLS)
    file(RELATIVE_PATH _rel "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
    get_property(_tool_targets DIRECTORY "${PROJECT_SOURCE_DIR}/tools" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_t ${_tool_targets})
      get_target_property(_tt ${_t} TYPE)
      if(_tt STREQUAL "EXECUTABLE")
        set_target_properties(${_t} PROPERTIES INSTALL_RPATH "\$ORIGIN/${_rel}")
      endif()
    endforeach()
  endif()
endif()

install(FILES "${PROJECT_SOURCE_DIR}/include/desert.h"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT desert_development)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/desert"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT desert_development
  FILES_MATCHING PATTERN "*.h")

install(EXPORT desertTargets NAMESPACE desert::
  DESTINATION ${DESERT_INSTALL_CMAKEDIR} COMPONENT desert_development)

# The package config needs to know whether it must bring the compression
# libraries along (static libdesert) or not (shared: they are DT_NEEDED).
if(_desert_type STREQUAL "STATIC_LIBRARY")
  set(DESERT_PACKAGE_STATIC 1)
else()
  set(DESERT_PACKAGE_STATIC 0)
endif()

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/desert-config.cmake.in"
  "${PROJECT_BINARY_DIR}/package/desert-config.cmake"
  INSTALL_DESTINATION ${DESERT_INSTALL_CMAKEDIR}
  NO_SET_AND_CHECK_MACRO NO_CHECK_REQUIRED_COMPONENTS_MACRO)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/package/desert-config-version.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/package/desert-config.cmake"
  "${PROJECT_BINARY_DIR}/package/desert-config-version.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/DesertGenerateC.cmake"
  DESTINATION ${DESERT_INSTALL_CMAKEDIR} COMPONENT desert_development)

# pkg-config file. The prefix is the one given at install time
# (`cmake --install build --prefix /opt/x` included), so the file is
# configured twice: now for everything else, then by the install script.
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(DESERT_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(DESERT_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
set(DESERT_PC_PREFIX "@DESERT_PC_PREFIX@") # filled in at install time
configure_file("${PROJECT_SOURCE_DIR}/cmake/desert.pc.in"
  "${PROJECT_BINARY_DIR}/package/desert.pc.in" @ONLY)
install(CODE "
  set(DESERT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/package/desert.pc.in\"
    \"${PROJECT_BINARY_DIR}/package/desert.pc\" @ONLY)
  " COMPONENT desert_development)
install(FILES "${PROJECT_BINARY_DIR}/package/desert.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT desert_development)
