# test/scripts/gen_c_all_fast.cmake — every public type of the generated
# conformance testee runs the direct path of generated code. Runs TESTEE
# with DESERT_GEN_C_LIST_FAST=1 (one line per public type: "P_T fast" or
# "P_T slow: <why>") and fails on any slow type, printing its reason, or on
# a listing too short to mean anything. (The golden/ models, the oplogs
# included, are checked by test_golden_corpus_gen_c.)
#   cmake -DTESTEE=... -P gen_c_all_fast.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESERT_GEN_C_LIST_FAST=1 ${TESTEE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "testee exited with ${rc}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(fast 0)
set(total 0)
set(bad "")
foreach(l IN LISTS lines)
  math(EXPR total "${total} + 1")
  if(l MATCHES "^[^ ]+ fast$")
    math(EXPR fast "${fast} + 1")
  else()
    string(APPEND bad "${l}\n")
  endif()
endforeach()
message("gen_c_all_fast: ${fast} of ${total} public types on the direct path")
if(total LESS 100)
  message(FATAL_ERROR "only ${total} public types listed")
endif()
if(bad)
  message(FATAL_ERROR "not on the direct path:\n${bad}")
endif()
