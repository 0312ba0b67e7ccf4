# test/gen_c.cmake — tests of `desert gen-c` (tools/cli_gen_c.c, tools/gen_c/)
# through desert_generate_c() (cmake/DesertGenerateC.cmake):
#  * gen_c_public: one testee generated from every schema document of the
#    public conformance cases and of the reference SCHEMA.md's worked examples (batched into
#    one program) plays the public cases; it must give desert-conformance's
#    results on every case whose schema is valid (the cases that expect
#    BadSchema cannot be generated: gen_c_bad_schemas checks them);
#  * gen_c_public_fast: the same without codec limits, so that records and
#    tuples run through their generated C-struct descriptors;
#  * test_gen_c_oneshot: P_T_decode / P_T_encode / P_T_encode_alloc and the
#    P_T_INIT macros on the oplog model (test/gen_c/test_gen_c_oneshot.c);
#  * gen_c_all_fast: every public type of those documents runs the direct
#    path of generated code (test/scripts/gen_c_all_fast.cmake);
#  * gen_c_examples: the same testee plays the worked examples of
#    ../shared/spec/SCHEMA.md (offsets compared);
#  * gen_c_bad_schemas: the generator refuses each document the cases expect
#    a BadSchema for, with exit status 1 and the JSON layer's message (as
#    desert-conformance answers it);
#  * test_gen_c_golden: the golden dataset through generated code, the
#    generated decoder against the runtime path on mutated inputs, and the
#    first use of generated code from several threads at once;
#  * gen_c_differential(_fast): test/gen_c/recursion.schema.json (mutual
#    recursion through pointers, recursive options and lists, aliases, maps
#    with record keys, dates, zones, compressed blocks, big numbers) answered
#    line for line like desert-conformance, messages included, on encodes,
#    truncations and changed bytes (differential.py);
#  * gen_c_names: the documented name mangling (test/gen_c/names.schema.json,
#    compiled into the testee as well);
#  * gen_c_header_cxx: a generated header compiles as C++.
# Schema files and case counts come from test/gen_c/split_cases.py, run at
# configure time. The generated code is compiled with the project's warning
# set (-Werror in the ci presets) and sanitizers (asan preset).
if(NOT TARGET desert_json OR NOT TARGET desert_cli OR NOT TARGET desert_conformance_runner
   OR NOT TARGET desert_conformance)
  return()
endif()
set(_gc_cases ${DESERT_SHARED_DIR}/conformance/public-cases.jsonl)
set(_gc_spec ${DESERT_SHARED_DIR}/spec/SCHEMA.md)
set(_gc_golden ${DESERT_GOLDEN_DIR})
set(_gc_runner $<TARGET_FILE:desert_conformance_runner>)

if(EXISTS ${_gc_cases} AND EXISTS ${_gc_spec})
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(_gc_split ${CMAKE_CURRENT_BINARY_DIR}/gen_c_split)
  file(REMOVE_RECURSE ${_gc_split})
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/split_cases.py
      ${_gc_cases} ${_gc_spec} ${_gc_split}
    RESULT_VARIABLE _gc_rc)
  if(NOT _gc_rc EQUAL 0)
    message(FATAL_ERROR "test/gen_c/split_cases.py failed (${_gc_rc})")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${_gc_cases} ${_gc_spec} ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/split_cases.py)
  include(${_gc_split}/split.cmake)

  add_executable(gen_c_testee)
  set(_gc_testee_src ${CMAKE_CURRENT_BINARY_DIR}/gen_c_testee_src)
  desert_generate_c(TARGET gen_c_testee PREFIX pub TESTEE OUTPUT_DIR ${_gc_testee_src}
    SCHEMAS ${GEN_C_SCHEMAS} ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/names.schema.json
      ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/recursion.schema.json)
  target_link_libraries(gen_c_testee PRIVATE desert_warnings desert_sanitize)

  add_test(NAME gen_c_public
    COMMAND ${_gc_runner} --max-failures 20 ${_gc_split}/public.jsonl $<TARGET_FILE:gen_c_testee>)
  set_tests_properties(gen_c_public PROPERTIES LABELS "conformance;gen_c" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "conformance: ${GEN_C_PUBLIC_CASES} passed, 0 failed")
  # The same cases with the testee's codec limits off: records and tuples
  # then run through their C-struct descriptors (the fast path).
  add_test(NAME gen_c_public_fast
    COMMAND ${CMAKE_COMMAND} -E env DESERT_GEN_C_NO_LIMITS=1
      ${_gc_runner} --max-failures 20 ${_gc_split}/public.jsonl $<TARGET_FILE:gen_c_testee>)
  set_tests_properties(gen_c_public_fast PROPERTIES LABELS "conformance;gen_c" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "conformance: ${GEN_C_PUBLIC_CASES} passed, 0 failed")
  # Every public type of the documents above (the conformance schemas,
  # names, recursion) runs the direct path of generated code: the testee
  # lists P_T_fast() (with the reason for a slow one) and none may be slow.
  add_test(NAME gen_c_all_fast
    COMMAND ${CMAKE_COMMAND} -DTESTEE=$<TARGET_FILE:gen_c_testee>
      -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/gen_c_all_fast.cmake)
  set_tests_properties(gen_c_all_fast PROPERTIES LABELS "gen_c" TIMEOUT 60)
  add_test(NAME gen_c_examples
    COMMAND ${_gc_runner} ${_gc_split}/examples.jsonl $<TARGET_FILE:gen_c_testee>)
  set_tests_properties(gen_c_examples PROPERTIES LABELS "conformance;gen_c" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "conformance: ${GEN_C_EXAMPLE_CASES} passed, 0 failed")
  foreach(_fast 0 1)
    set(_name gen_c_differential)
    if(_fast)
      set(_name gen_c_differential_fast)
    endif()
    add_test(NAME ${_name}
      COMMAND ${CMAKE_COMMAND} -E env DESERT_GEN_C_NO_LIMITS=$<$<BOOL:${_fast}>:1>
        ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/differential.py
        ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/recursion.schema.json
        ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/recursion.values.jsonl
        $<TARGET_FILE:desert_conformance> $<TARGET_FILE:gen_c_testee>)
    set_tests_properties(${_name} PROPERTIES LABELS "gen_c" TIMEOUT 120
      PASS_REGULAR_EXPRESSION "differential: [0-9]+ requests \\([0-9]+ errors\\), 0 differ")
  endforeach()
  add_test(NAME gen_c_names
    COMMAND ${CMAKE_COMMAND} -DHEADER=${_gc_testee_src}/pub_names.h
      -P ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/names.cmake)
  set_tests_properties(gen_c_names PROPERTIES LABELS "gen_c" TIMEOUT 60)
  add_test(NAME gen_c_bad_schemas
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:desert_cli>
      -DTESTEE=$<TARGET_FILE:desert_conformance> "-DSCHEMAS=${GEN_C_BAD_SCHEMAS}" -DWORK=${CMAKE_CURRENT_BINARY_DIR}/gen_c_bad_out
      -P ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/bad_schemas.cmake)
  set_tests_properties(gen_c_bad_schemas PROPERTIES LABELS "gen_c" TIMEOUT 60)
endif()

# The one-shot functions and P_T_INIT macros on desert-rust's oplog model:
# decoded values outlive the call (under ASan, stack use after return is
# detected), many messages share one arena, encoders report sizes.
if(TARGET desert_json)
  add_executable(test_gen_c_oneshot ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/test_gen_c_oneshot.c)
  desert_generate_c(TARGET test_gen_c_oneshot SCHEMAS ${PROJECT_SOURCE_DIR}/golden/oplog_list.schema.json
    PREFIX os OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/gen_c_oneshot_src)
  target_link_libraries(test_gen_c_oneshot PRIVATE desert_warnings desert_sanitize)
  add_test(NAME test_gen_c_oneshot COMMAND test_gen_c_oneshot ${PROJECT_SOURCE_DIR}/golden)
  set_tests_properties(test_gen_c_oneshot PROPERTIES LABELS "gen_c" TIMEOUT 120
    ENVIRONMENT "ASAN_OPTIONS=detect_stack_use_after_return=1"
    PASS_REGULAR_EXPRESSION "test_gen_c_oneshot: all [0-9]+ checks passed")
endif()

if(EXISTS ${_gc_golden}/dataset1.schema.json)
  add_executable(test_gen_c_golden ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/test_gen_c_golden.c)
  set(_gc_golden_out ${CMAKE_CURRENT_BINARY_DIR}/gen_c_golden_src)
  desert_generate_c(TARGET test_gen_c_golden SCHEMAS ${_gc_golden}/dataset1.schema.json
    PREFIX golden OUTPUT_DIR ${_gc_golden_out})
  find_package(Threads REQUIRED) # <threads.h> for the first-use-from-threads check
  target_link_libraries(test_gen_c_golden PRIVATE desert_warnings desert_sanitize Threads::Threads)
  add_test(NAME test_gen_c_golden COMMAND test_gen_c_golden ${_gc_golden})
  set_tests_properties(test_gen_c_golden PROPERTIES LABELS "gen_c;golden" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "test_gen_c_golden: all checks passed")

  # The header of generated code is also C++ (extern "C", anonymous unions).
  find_program(DESERT_CXX_FOR_GEN_C NAMES ${CMAKE_CXX_COMPILER} c++ g++ clang++)
  if(DESERT_CXX_FOR_GEN_C)
    add_test(NAME gen_c_header_cxx
      COMMAND ${DESERT_CXX_FOR_GEN_C} -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only
        -I${PROJECT_SOURCE_DIR}/include -x c++ ${_gc_golden_out}/golden.h)
    set_tests_properties(gen_c_header_cxx PROPERTIES LABELS "gen_c" TIMEOUT 60)
  endif()
endif()
