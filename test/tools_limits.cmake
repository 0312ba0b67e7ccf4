# test/tools_limits.cmake — tools_limits: `desert encode/decode` at scale and
# under hostile input (test/scripts/limits_cli.py, inputs generated on the
# fly): a 3,000,000-element list decodes to the values it came from, limit
# errors name the flag that raises them, a 2^31 count, 1,000,000 nested
# options and a DEFLATE bomb fail with exit 1 in bounded memory, --annotate
# of a 32 MiB list stays within 64 MiB, and encode of the 31 MiB JSON
# peaks below 3x its size. Sanitizer builds skip the RSS bounds (shadow
# memory dominates them).
if(NOT TARGET desert_cli OR NOT TARGET desert_json)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(DESERT_SANITIZE)
  set(_limits_args "")
else()
  set(_limits_args --max-rss-mib 64)
endif()
add_test(NAME tools_limits COMMAND Python3::Interpreter
  ${CMAKE_CURRENT_SOURCE_DIR}/scripts/limits_cli.py $<TARGET_FILE:desert_cli>
  ${CMAKE_CURRENT_BINARY_DIR}/tools_limits ${_limits_args})
set_tests_properties(tools_limits PROPERTIES LABELS "tools" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "limits_cli: all checks passed")
