# test/gen_c/bad_schemas.cmake — `desert gen-c` refuses invalid schema
# documents (run with cmake -P, ctest gen_c_bad_schemas): for each file in
# SCHEMAS (documents the conformance cases expect a BadSchema for) the
# generator must exit with status 1, write no file, and print the BadSchema
# message that the JSON layer gives for it, as desert-conformance answers a
# request with that schema.
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
message(STATUS "gen_c_bad_schemas: ${_n} invalid documents refused with their BadSchema message")
