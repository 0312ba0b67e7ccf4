# cmake/DesertLibraries.cmake — the shared libraries and the names every
# library target is installed under (included from CMakeLists.txt after
# src/json, so desert_json exists).
#
#   in-tree target      file                           installed as
#   desert              libdesert.a                    desert::desert_static (*)
#   desert_json         libdesert_json.a               desert::json_static (*)
#   desert_shared       libdesert.so.<ABI>             desert::desert
#   desert_json_shared  libdesert_json.so.<ABI>        desert::json
#   (*) desert::desert / desert::json when DESERT_BUILD_SHARED is OFF.
#
# Inside this build (tools, tests, examples, add_subdirectory() users) the
# aliases desert::desert and desert::json stay the static libraries: the
# tests link them beside the internal archive, which would clash with a
# shared copy of the same code. Installed, the shared ones are the default,
# as with zstd and libdeflate.
#
# The shared libraries are linked from the same position-independent
# objects as the static ones, compiled with hidden visibility, so they
# export exactly the DESERT_API declarations (ctest symbol_exports). Their
# soname carries DESERT_ABI_VERSION from include/desert/common.h, not the
# release version: it changes whenever the layout the headers compile into
# a user's program changes (docs/abi.md, ctest abi_layout).

if(DESERT_BUILD_SHARED)
  set(_desert_shared_link_opts "")
  # Undefined symbols in a shared library show up at link time here, not in
  # a user's program. Sanitized builds leave the runtime's symbols to the
  # executable, so they cannot use it.
  if(NOT DESERT_SANITIZE AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
    list(APPEND _desert_shared_link_opts "LINKER:--no-undefined")
  endif()

  add_library(desert_shared SHARED $<TARGET_OBJECTS:desert_objects>)
  add_library(desert::desert_shared ALIAS desert_shared)
  target_include_directories(desert_shared PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(desert_shared PRIVATE $<BUILD_INTERFACE:desert_sanitize>
    $<BUILD_INTERFACE:desert_dep_deflate> $<BUILD_INTERFACE:desert_dep_zstd>)
  target_link_options(desert_shared PRIVATE ${_desert_shared_link_opts})
  set_target_properties(desert_shared PROPERTIES OUTPUT_NAME desert
    VERSION ${PROJECT_VERSION} SOVERSION ${DESERT_ABI_VERSION}
    C_VISIBILITY_PRESET hidden EXPORT_NAME desert)

  if(TARGET desert_json)
    # The JSON layer's objects are built position-independent and hidden
    # for exactly this (src/json/CMakeLists.txt).
    add_library(desert_json_shared SHARED $<TARGET_OBJECTS:desert_json>)
    add_library(desert::json_shared ALIAS desert_json_shared)
    target_link_libraries(desert_json_shared PUBLIC desert_shared
      PRIVATE $<BUILD_INTERFACE:desert_sanitize>)
    target_link_options(desert_json_shared PRIVATE ${_desert_shared_link_opts})
    set_target_properties(desert_json_shared PROPERTIES OUTPUT_NAME desert_json
      VERSION ${PROJECT_VERSION} SOVERSION ${DESERT_ABI_VERSION}
      C_VISIBILITY_PRESET hidden EXPORT_NAME json)
  endif()

  # The static libraries keep their file names; only their exported
  # target names make room for the shared ones.
  set_target_properties(desert PROPERTIES EXPORT_NAME desert_static)
  if(TARGET desert_json)
    set_target_properties(desert_json PROPERTIES EXPORT_NAME json_static)
  endif()
else()
  set_target_properties(desert PROPERTIES EXPORT_NAME desert)
  if(TARGET desert_json)
    set_target_properties(desert_json PROPERTIES EXPORT_NAME json)
  endif()
endif()
