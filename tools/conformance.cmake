# tools/conformance.cmake — the programs of the JSON layer (src/json):
#   desert-conformance  the conformance testee of docs/schema.md §14 (JSON lines
#                       on stdin/stdout)
# and the schema subcommands of the `desert` tool (tools/cli_encode.c,
# tools/cli_decode.c, compiled into desert_cli by the cli_*.c glob), which
# need desert::json on the tool's link line. Included from
# tools/CMakeLists.txt after desert_cli exists.
if(NOT TARGET desert_json OR TARGET desert_conformance)
  return()
endif()
set(_desert_tools_dir ${PROJECT_SOURCE_DIR}/tools)

add_executable(desert_conformance ${_desert_tools_dir}/desert_conformance.c)
set_target_properties(desert_conformance PROPERTIES OUTPUT_NAME desert-conformance
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tools)
target_link_libraries(desert_conformance PRIVATE desert::json desert_warnings desert_sanitize)

# The conformance runner of test/conformance.cmake (plays a cases file
# against a testee and judges per docs/schema.md §14.7).
add_executable(desert_conformance_runner ${_desert_tools_dir}/conformance_runner.c)
set_target_properties(desert_conformance_runner PROPERTIES
  OUTPUT_NAME desert-conformance-runner RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tools)
target_link_libraries(desert_conformance_runner PRIVATE desert::json desert_warnings desert_sanitize)

if(TARGET desert_cli)
  target_link_libraries(desert_cli PRIVATE desert::json)
endif()

if(DESERT_INSTALL)
  get_target_property(_desert_conf_type desert TYPE)
  if(_desert_conf_type STREQUAL "SHARED_LIBRARY" AND NOT APPLE AND NOT WIN32)
    file(RELATIVE_PATH _desert_conf_rel "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
    set_target_properties(desert_conformance PROPERTIES
      INSTALL_RPATH "\$ORIGIN/${_desert_conf_rel}")
  endif()
  install(TARGETS desert_conformance RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT desert_tools)
endif()
