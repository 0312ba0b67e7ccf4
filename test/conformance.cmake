# test/conformance.cmake — tests of the types layer and the JSON layer:
#  * test_types_json and test_types_fuzz (test/test_types_*.c suites) need
#    desert::json; example_types runs examples/types_example.c when built;
#  * conformance_public: the conformance runner plays the public cases of
#    ${DESERT_SHARED_DIR}/conformance/public-cases.jsonl against the testee
#    `desert-conformance` and judges per docs/schema.md §14.7 (last line
#    "conformance: P passed, F failed"; exit 0 only when nothing failed);
#  * conformance_issue12: test/conformance/issue12-cases.jsonl, the zlib
#    Inflater rule and names with U+0000; conformance_zlib_inflater_diff:
#    generated zlib-flavour cases judged by Python's zlib;
#  * conformance_schema_examples: every worked example (E1–E31) of the
#    reference ../shared/spec/SCHEMA.md, read at test time;
#  * golden_schema_*: dataset1 through the `desert encode/decode` subcommands,
#    once tools/desert_cli.c registers them.
# Included by test/CMakeLists.txt after every test_*.c target exists.
if(NOT TARGET desert_json)
  return()
endif()

foreach(_t test_types_json test_types_fuzz)
  if(TARGET ${_t})
    target_link_libraries(${_t} PRIVATE desert::json)
  endif()
endforeach()

# examples/types_example.c (C-struct descriptors and runtime types), when
# examples/CMakeLists.txt builds it.
if(TARGET types_example)
  add_test(NAME example_types COMMAND types_example)
  set_tests_properties(example_types PROPERTIES LABELS "examples" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "types_example: all outcomes as expected")
endif()

set(_conf_tools ${PROJECT_BINARY_DIR}/tools)
set(_conf_testee ${_conf_tools}/desert-conformance)
set(_conf_runner ${_conf_tools}/desert-conformance-runner)
set(_conf_cases ${DESERT_SHARED_DIR}/conformance/public-cases.jsonl)
set(_conf_spec ${DESERT_SHARED_DIR}/spec/SCHEMA.md)

if(DESERT_BUILD_TOOLS)
  if(EXISTS ${_conf_cases})
    add_test(NAME conformance_public
      COMMAND ${_conf_runner} --max-failures 20 ${_conf_cases} ${_conf_testee})
    set_tests_properties(conformance_public PROPERTIES LABELS "conformance" TIMEOUT 600
      PASS_REGULAR_EXPRESSION "conformance: [0-9]+ passed, 0 failed")
  else()
    message(STATUS "conformance: ${_conf_cases} not found; conformance_public not added")
  endif()
  # Hand-written cases of the two rules of issue 12 (docs/schema.md §12 zlib
  # flavour, docs/schema.md §9 names with U+0000); the expected answers are derived from
  # the rules, see each case's note.
  add_test(NAME conformance_issue12
    COMMAND ${_conf_runner} ${CMAKE_CURRENT_SOURCE_DIR}/conformance/issue12-cases.jsonl
      ${_conf_testee})
  set_tests_properties(conformance_issue12 PROPERTIES LABELS "conformance" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "conformance: [0-9]+ passed, 0 failed")
  # Generated zlib-flavour cases (cut, bit-flipped, re-announced streams)
  # judged by Python's zlib driven as Inflater (test/scripts/zlib_inflater_diff.py).
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  add_test(NAME conformance_zlib_inflater_diff
    COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/scripts/zlib_inflater_diff.py
      ${_conf_testee} --seed 12 --count 3000)
  set_tests_properties(conformance_zlib_inflater_diff PROPERTIES LABELS "conformance" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "zlib_inflater_diff: [0-9]+ cases .*, 0 mismatches")
  if(EXISTS ${_conf_spec})
    add_test(NAME conformance_schema_examples
      COMMAND ${_conf_runner} --examples ${_conf_spec} ${_conf_testee})
    set_tests_properties(conformance_schema_examples PROPERTIES LABELS "conformance" TIMEOUT 120
      PASS_REGULAR_EXPRESSION "conformance: 31 passed, 0 failed")
  endif()

  # The schema subcommands of the `desert` tool, when the dispatcher lists them.
  file(READ ${PROJECT_SOURCE_DIR}/tools/desert_cli.c _conf_cli_src)
  string(FIND "${_conf_cli_src}" "cli_cmd_decode" _conf_has_cli)
  set(_golden ${DESERT_GOLDEN_DIR})
  if(TARGET desert_cli AND NOT _conf_has_cli EQUAL -1 AND EXISTS ${_golden}/dataset1.bin)
    add_test(NAME golden_schema_cli
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:desert_cli> -DGOLDEN=${_golden}
        -DWORK=${CMAKE_CURRENT_BINARY_DIR}/golden_schema_out
        -P ${CMAKE_CURRENT_LIST_DIR}/scripts/golden_schema_cli.cmake)
    set_tests_properties(golden_schema_cli PROPERTIES LABELS "conformance;tools" TIMEOUT 120)
  endif()
endif()
