# test/gen_c/bad_schemas.cmake — `desert gen-c` refuses invalid schema
# documents (run with cmake -P, ctest gen_c_bad_schemas): for each file in
# SCHEMAS (documents the conformance cases expect a BadSchema for) the
# generator must exit with status 1, write no file, and print the BadSchema
# message that the JSON layer gives for it, as desert-conformance answers a
# request with that schema. Also: a valid document nested too deeply to
# generate is refused with a message naming its schema path.
# Variables: PROGRAM (the desert tool), TESTEE (desert-conformance), SCHEMAS
# (list), WORK (scratch folder).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/out)
set(_n 0)
foreach(_s IN LISTS SCHEMAS)
  file(READ "${_s}" _doc)
  string(STRIP "${_doc}" _doc)
  file(WRITE ${WORK}/request.jsonl "{\"id\":1,\"schema\":${_doc},\"decode\":\"\"}\n")
  execute_process(COMMAND ${TESTEE} INPUT_FILE ${WORK}/request.jsonl
    OUTPUT_VARIABLE _resp RESULT_VARIABLE _rc)
  string(JSON _kind ERROR_VARIABLE _jerr GET "${_resp}" error kind)
  string(JSON _want ERROR_VARIABLE _jerr GET "${_resp}" error message)
  if(NOT _rc EQUAL 0 OR NOT _kind STREQUAL "BadSchema")
    message(FATAL_ERROR "${_s}: desert-conformance does not answer BadSchema: ${_resp}")
  endif()
  execute_process(COMMAND ${PROGRAM} gen-c -o ${WORK}/out ${_s}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_VARIABLE _out)
  if(NOT _rc EQUAL 1)
    message(FATAL_ERROR "${_s}: exit status ${_rc}, expected 1\n${_err}")
  endif()
  string(FIND "${_err}" ": BadSchema: ${_want}\n" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "${_s}: expected the message\n  BadSchema: ${_want}\ngot\n  ${_err}")
  endif()
  file(GLOB _written ${WORK}/out/*)
  if(_written)
    message(FATAL_ERROR "${_s}: files written for an invalid document: ${_written}")
  endif()
  math(EXPR _n "${_n} + 1")
endforeach()
if(_n EQUAL 0)
  message(FATAL_ERROR "no invalid schema documents to check")
endif()

# A valid document that cannot be generated (anonymous types nested more
# than 64 deep): exit status 1 and a message naming the schema path.
set(_t "\"i32\"")
foreach(_i RANGE 69)
  set(_t "{\"type\":\"list\",\"element\":${_t}}")
endforeach()
file(WRITE ${WORK}/deep.json "{\"desert_schema\":1,\"root\":${_t}}")
execute_process(COMMAND ${PROGRAM} gen-c -o ${WORK}/out ${WORK}/deep.json
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
string(FIND "${_err}" "cannot generate $.root.element.element" _at)
if(NOT _rc EQUAL 1 OR _at EQUAL -1)
  message(FATAL_ERROR "deep.json: exit status ${_rc}, message\n  ${_err}")
endif()
# A definition whose generated function would be another's type name.
file(WRITE ${WORK}/clash.json
  "{\"desert_schema\":1,\"definitions\":{\"X\":\"i32\",\"encode_X\":\"i32\"},\"root\":\"X\"}")
execute_process(COMMAND ${PROGRAM} gen-c --prefix p -o ${WORK}/out ${WORK}/clash.json
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
string(FIND "${_err}" "cannot generate $.definitions.X: its function p_encode_X clashes" _at)
if(NOT _rc EQUAL 1 OR _at EQUAL -1)
  message(FATAL_ERROR "clash.json: exit status ${_rc}, message\n  ${_err}")
endif()
message(STATUS "gen_c_bad_schemas: ${_n} invalid documents refused with their BadSchema "
  "message; a too deep and a clashing document refused with their schema path")
