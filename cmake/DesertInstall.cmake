# cmake/DesertInstall.cmake — install rules and package files (included from
# CMakeLists.txt when DESERT_INSTALL is ON):
#   lib/libdesert.{a,so*}, lib/libdesert_json.{a,so*} (cmake/DesertLibraries.cmake),
#   include/desert.h + include/desert/*.h,
#   lib/cmake/desert/{desert-config,desert-config-version,desertTargets}.cmake
#   (find_package(desert CONFIG) -> desert::desert, desert::json and their
#   _static twins), lib/pkgconfig/{desert,desert_json}.pc,
#   share/man/man1/desert.1 (with the tools) and share/doc/desert/ (LICENSE,
#   CHANGELOG.md, README.md, docs/*.md).
# A static libdesert needs libdeflate, zlib and libzstd on the consumer's link
# line: the package config finds them through pkg-config (as the build does,
# see DesertDeps.cmake) and the exported static target links them; desert.pc
# lists them in Requires.private (so `pkg-config --static --libs desert` has
# them). The shared libraries carry them as DT_NEEDED entries.
include(CMakePackageConfigHelpers)

set(DESERT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/desert" CACHE STRING
    "Where desert-config.cmake is installed, relative to the prefix")
mark_as_advanced(DESERT_INSTALL_CMAKEDIR)

set(_desert_lib_targets desert)
foreach(_t desert_json desert_shared desert_json_shared)
  if(TARGET ${_t})
    list(APPEND _desert_lib_targets ${_t})
  endif()
endforeach()
# The JSON layer (src/json, desert::json: schema documents, JSON values,
# the testee protocol; header include/desert/json.h) is installed and
# exported beside the core: find_package(desert) gives desert::json too.
install(TARGETS ${_desert_lib_targets} EXPORT desertTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT desert_runtime
          NAMELINK_COMPONENT desert_development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT desert_runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(FILES "${PROJECT_SOURCE_DIR}/include/desert.h"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT desert_development)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/desert"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT desert_development
  FILES_MATCHING PATTERN "*.h")

install(EXPORT desertTargets NAMESPACE desert::
  DESTINATION ${DESERT_INSTALL_CMAKEDIR} COMPONENT desert_development)

# The package config needs to know whether desert::desert is the shared
# library (the compression libraries are its DT_NEEDED entries; they are
# looked for only for the _static targets) or the static one (they must be
# found).
if(TARGET desert_shared)
  set(DESERT_PACKAGE_SHARED 1)
else()
  set(DESERT_PACKAGE_SHARED 0)
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

# pkg-config files. The prefix is the one given at install time
# (`cmake --install build --prefix /opt/x` included), so each file is
# configured twice: now for everything else, then by the install script.
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(DESERT_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(DESERT_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
set(DESERT_PC_PREFIX "@DESERT_PC_PREFIX@") # filled in at install time
set(_desert_pc_files desert)
if(TARGET desert_json)
  list(APPEND _desert_pc_files desert_json)
endif()
foreach(_pc ${_desert_pc_files})
  configure_file("${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in"
    "${PROJECT_BINARY_DIR}/package/${_pc}.pc.in" @ONLY)
  install(CODE "
    set(DESERT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${PROJECT_BINARY_DIR}/package/${_pc}.pc.in\"
      \"${PROJECT_BINARY_DIR}/package/${_pc}.pc\" @ONLY)
    " COMPONENT desert_development)
  install(FILES "${PROJECT_BINARY_DIR}/package/${_pc}.pc"
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT desert_development)
endforeach()

# Documentation: the licence, the change log, the README and the user
# documents of docs/ under share/doc/desert; the man page of the tool
# (docs/man/desert.1) under share/man/man1 when the tool is installed.
install(FILES
  "${PROJECT_SOURCE_DIR}/LICENSE"
  "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
  "${PROJECT_SOURCE_DIR}/README.md"
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT desert_development)
file(GLOB _desert_doc_pages "${PROJECT_SOURCE_DIR}/docs/*.md")
# docs/ keeps its folder (its README.md would clash with the top one, and
# the top README's links into docs/ keep working).
install(FILES ${_desert_doc_pages}
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT desert_development)
if(TARGET desert_cli)
  install(FILES "${PROJECT_SOURCE_DIR}/docs/man/desert.1"
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT desert_tools)
endif()
