# test/scripts/gen_c_all_fast.cmake — which public types of the generated
# conformance testee run the direct path of generated code. Runs TESTEE with
# DESERT_GEN_C_LIST_FAST=1 (one line per public type: "P_T fast" or
# "P_T slow: <why>") and fails when a type is slow for any reason but the
# ones generated code does not cover yet, each named here with its count:
# recursion through a pointer to a list, option or alternative (the direct
# functions exist for records, tuples, map entries and enums only), and
# holders nested deeper than gen-c emits inline. A new reason, or a type of
# the oplog/golden models that falls back (checked by
# test_golden_corpus_gen_c), fails.
#   cmake -DTESTEE=... -P gen_c_all_fast.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESERT_GEN_C_LIST_FAST=1 ${TESTEE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "testee exited with ${rc}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(known
  "a recursive reference to a list, option or alternative"
  "lists, options or alternatives nested too deep without a record")
set(fast 0)
set(total 0)
set(bad "")
foreach(k IN ITEMS 0 1)
  set(count_${k} 0)
endforeach()
foreach(l IN LISTS lines)
  math(EXPR total "${total} + 1")
  if(l MATCHES "^[^ ]+ fast$")
    math(EXPR fast "${fast} + 1")
  elseif(l MATCHES "^[^ ]+ slow: (.*)$")
    list(FIND known "${CMAKE_MATCH_1}" k)
    if(k LESS 0)
      string(APPEND bad "${l}\n")
    else()
      math(EXPR count_${k} "${count_${k}} + 1")
    endif()
  else()
    string(APPEND bad "unexpected line: ${l}\n")
  endif()
endforeach()
message("gen_c_all_fast: ${fast} of ${total} public types on the direct path; slow for a "
        "pointer to a holder: ${count_0}, deep holders: ${count_1}")
if(total LESS 100)
  message(FATAL_ERROR "only ${total} public types listed")
endif()
if(bad)
  message(FATAL_ERROR "slow for a reason gen-c should cover:\n${bad}")
endif()
