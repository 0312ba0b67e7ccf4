# test/tools_stream.cmake — ctests of `desert encode/decode --stream`,
# run by Python scripts that generate their input on the fly:
#  * tools_stream_cases: small cases against the tool's whole-value path
#    (byte identity, both collection forms, every cut, refusals);
#  * tools_stream_large: a few hundred MiB of JSON Lines through encode
#    --stream | decode --stream, checked for line count and SHA-256, with
#    the children's peak RSS bounded (64 MiB). Sanitizer builds stream
#    32 MiB and do not bound RSS (shadow memory dominates it).
if(NOT TARGET desert_cli OR NOT TARGET desert_json)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_stream_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
add_test(NAME tools_stream_cases COMMAND Python3::Interpreter
  ${_stream_scripts}/stream_cli_cases.py $<TARGET_FILE:desert_cli>
  ${CMAKE_CURRENT_BINARY_DIR}/stream_cli_cases)
set(_stream_schema ${CMAKE_CURRENT_BINARY_DIR}/stream_cli_large.schema.json)
file(WRITE ${_stream_schema} [=[{"desert_schema": 1,
 "definitions": {"Item": {"type": "record", "fields": [{"name": "id", "type": "i64"},
   {"name": "tag", "type": "dedup_string"}, {"name": "note", "type": "string", "optional": true}]}},
 "root": {"type": "list", "element": "Item"}}
]=])
if(DESERT_SANITIZE)
  set(_stream_args 32)
else()
  set(_stream_args 300 --max-rss-mib 64)
endif()
add_test(NAME tools_stream_large COMMAND Python3::Interpreter
  ${_stream_scripts}/stream_cli.py $<TARGET_FILE:desert_cli> ${_stream_schema} ${_stream_args})
set_tests_properties(tools_stream_cases tools_stream_large PROPERTIES LABELS "tools;stream"
  TIMEOUT 300)
