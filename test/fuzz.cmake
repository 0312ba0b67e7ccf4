# test/fuzz.cmake — the fuzz-backed tests. Included by test/CMakeLists.txt
# (every test/*.cmake is).
#  * replay_<target>: each harness test/fuzz/fuzz_<target>.c linked with the
#    plain driver test/fuzz/replay_main.c (any compiler, any sanitizer set of
#    DESERT_SANITIZE); ctest replays test/fuzz/corpus/<target>/ through it
#    (test fuzz_replay_<target>; codec targets also once per runnable ISA).
#    The golden target additionally replays ${DESERT_GOLDEN_DIR}/dataset1.bin
#    and a few derived mutations in memory.
#  * gen_c (test/fuzz/fuzz_gen_c.c): code `desert gen-c` generates from
#    DESERT_FUZZ_GEN_C_SCHEMAS, in lockstep with the runtime type codec; each
#    target that compiles the harness gets its own generated copy
#    (desert_fuzz_gen_c_code; the libFuzzer one in test/fuzz/CMakeLists.txt).
#  * test_golden_sweeps, test_resource_bounds (test/test_*.c): the golden
#    model codec and the harness helpers compiled in.
#  * DESERT_BUILD_FUZZERS=ON with clang: the libFuzzer executables
#    fuzz_<target> (test/fuzz/CMakeLists.txt).
# SPDX-License-Identifier: MIT
set(DESERT_FUZZ_TARGETS
  values strings temporal golden evolution enum compressed refs roundtrip inline
  kernel_bswap kernel_varint kernel_utf8 kernel_utf16 kernel_latin1)
# The schema-layer harnesses also need the JSON layer (src/json): the replay
# drivers link desert::json, the libFuzzer build compiles it with coverage.
if(TARGET desert_json)
  list(APPEND DESERT_FUZZ_TARGETS types schema_json stream)
endif()
set(DESERT_FUZZ_JSON_TARGETS types schema_json stream gen_c)

# gen_c: decoders `desert gen-c` generates (tools/gen_c) from fixed schema
# documents, against the runtime path. The generator is desert_cli; a build
# without the tools (the fuzz preset) gets a private copy of it,
# desert_fuzz_gen_c_tool (the same sources, linked to the fuzzing library
# when the libFuzzer harnesses are built, else to the ordinary one).
set(DESERT_FUZZ_GEN_C_SCHEMAS
  ${PROJECT_SOURCE_DIR}/golden/collections.schema.json
  ${PROJECT_SOURCE_DIR}/golden/compressed.schema.json
  ${PROJECT_SOURCE_DIR}/golden/enums.schema.json
  ${PROJECT_SOURCE_DIR}/golden/evolution.schema.json
  ${PROJECT_SOURCE_DIR}/golden/evolution.v0.schema.json
  ${PROJECT_SOURCE_DIR}/golden/options_scala.schema.json
  ${PROJECT_SOURCE_DIR}/golden/primitives.schema.json
  ${PROJECT_SOURCE_DIR}/golden/strings.schema.json
  ${PROJECT_SOURCE_DIR}/golden/time.schema.json)
if(EXISTS ${DESERT_GOLDEN_DIR}/dataset1.schema.json)
  list(APPEND DESERT_FUZZ_GEN_C_SCHEMAS ${DESERT_GOLDEN_DIR}/dataset1.schema.json)
endif()
# desert-rust's benchmark models: sum types with a recursive Value enum of
# transparent cases, evolution steps (indices 10-12 when dataset1 is there,
# as the seeds assume).
list(APPEND DESERT_FUZZ_GEN_C_SCHEMAS
  ${PROJECT_SOURCE_DIR}/golden/oplog_list.schema.json
  ${PROJECT_SOURCE_DIR}/golden/golem_oplog_list.schema.json
  ${PROJECT_SOURCE_DIR}/golden/evolution_stress.schema.json)
if(TARGET desert_json)
  set(_fz_gen_clang FALSE)
  if(DESERT_BUILD_FUZZERS AND CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(_fz_gen_clang TRUE)
  endif()
  if(NOT TARGET desert_cli)
    file(GLOB _fz_gen_tool_src CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/cli_*.c
      ${PROJECT_SOURCE_DIR}/tools/gen_c/*.c)
    add_executable(desert_fuzz_gen_c_tool ${PROJECT_SOURCE_DIR}/tools/desert_cli.c ${_fz_gen_tool_src})
    if(_fz_gen_clang) # no second ordinary libdesert in a fuzz build
      target_link_libraries(desert_fuzz_gen_c_tool PRIVATE desert_fuzz_json)
      target_link_options(desert_fuzz_gen_c_tool PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
    else()
      target_link_libraries(desert_fuzz_gen_c_tool PRIVATE desert::desert desert::json)
    endif()
    # A target name as the COMMAND of desert_generate_c's custom command:
    # CMake runs the built program and builds it first.
    set(DESERT_GEN_C_EXECUTABLE desert_fuzz_gen_c_tool)
  endif()
  include(${CMAKE_CURRENT_LIST_DIR}/gen_c/schema_table.cmake)
  desert_gen_c_schema_table(${CMAKE_CURRENT_BINARY_DIR}/gen_c_fuzz_in fgc gen_c_fuzz_table.h
    DESERT_FUZZ_GEN_C_COPIES ${DESERT_FUZZ_GEN_C_SCHEMAS})
  list(APPEND DESERT_FUZZ_TARGETS gen_c)
endif()
set(DESERT_FUZZ_SRC ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(DESERT_FUZZ_CORPUS ${DESERT_FUZZ_SRC}/corpus)
set(DESERT_FUZZ_SUPPORT ${CMAKE_CURRENT_SOURCE_DIR}/support)

# Extra sources and include folders a harness needs.
function(desert_fuzz_extras target name)
  target_include_directories(${target} PRIVATE ${DESERT_FUZZ_SRC})
  if(name STREQUAL "stream") # both the golden model and the fixed schemas
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c
      ${DESERT_FUZZ_SRC}/fuzz_schema_util.c)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/examples)
  elseif(name STREQUAL "golden")
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/examples)
  elseif(name STREQUAL "compressed")
    target_sources(${target} PRIVATE ${DESERT_FUZZ_SUPPORT}/inflater_model.c)
    target_include_directories(${target} PRIVATE ${DESERT_FUZZ_SUPPORT})
  elseif(name MATCHES "^kernel_")
    target_sources(${target} PRIVATE ${DESERT_FUZZ_SUPPORT}/oracle.c)
    target_include_directories(${target} PRIVATE ${DESERT_FUZZ_SUPPORT})
  elseif(name IN_LIST DESERT_FUZZ_JSON_TARGETS)
    target_sources(${target} PRIVATE ${DESERT_FUZZ_SRC}/fuzz_schema_util.c)
  endif()
  if(name STREQUAL "gen_c")
    desert_fuzz_gen_c_code(${target})
  endif()
endfunction()

# The generated code of gen_c, compiled into target (its own copy per
# target: each target's compile flags, e.g. the fuzzing coverage, apply).
function(desert_fuzz_gen_c_code target)
  desert_generate_c(TARGET ${target} PREFIX fgc OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${target}_gen
    SCHEMAS ${DESERT_FUZZ_GEN_C_COPIES})
  target_include_directories(${target} PRIVATE ${PROJECT_BINARY_DIR}/test/gen_c_fuzz_in)
endfunction()

foreach(t ${DESERT_FUZZ_TARGETS})
  add_executable(replay_${t} ${DESERT_FUZZ_SRC}/fuzz_${t}.c ${DESERT_FUZZ_SRC}/fuzz_common.c
    ${DESERT_FUZZ_SRC}/replay_main.c)
  target_link_libraries(replay_${t} PRIVATE desert_internal desert_warnings desert_sanitize)
  if(t IN_LIST DESERT_FUZZ_JSON_TARGETS)
    target_link_libraries(replay_${t} PRIVATE desert::json)
  endif()
  desert_fuzz_extras(replay_${t} ${t})
  set(_args ${DESERT_FUZZ_CORPUS}/${t})
  if(t STREQUAL "golden")
    list(APPEND _args --golden ${DESERT_GOLDEN_DIR}/dataset1.bin --mutations 48)
  endif()
  add_test(NAME fuzz_replay_${t} COMMAND replay_${t} ${_args})
  set_tests_properties(fuzz_replay_${t} PROPERTIES LABELS "fuzz" TIMEOUT 600
    PASS_REGULAR_EXPRESSION "replay: [0-9]+ inputs, 0 failed")
  if(NOT t MATCHES "^kernel_")
    # Kernel harnesses compare every runnable table themselves; the codec
    # ones run once more per ISA (DESERT_FORCE_ISA), like the codec suites.
    foreach(isa ${DESERT_TEST_ISAS})
      add_test(NAME fuzz_replay_${t}@${isa} COMMAND replay_${t} ${_args})
      set_tests_properties(fuzz_replay_${t}@${isa} PROPERTIES LABELS "fuzz;isa;${isa}"
        TIMEOUT 600 ENVIRONMENT "DESERT_FORCE_ISA=${isa};DESERT_TEST_EXPECT_ISA=${isa}"
        SKIP_RETURN_CODE 77 SKIP_REGULAR_EXPRESSION "SKIP: ISA"
        PASS_REGULAR_EXPRESSION "replay: [0-9]+ inputs, 0 failed")
    endforeach()
  endif()
endforeach()

# Writes the seed-* inputs of the corpora (see test/fuzz/README.md).
add_executable(desert_fuzz_make_seeds ${DESERT_FUZZ_SRC}/make_seeds.c
  ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
target_include_directories(desert_fuzz_make_seeds PRIVATE ${PROJECT_SOURCE_DIR}/examples)
target_link_libraries(desert_fuzz_make_seeds PRIVATE desert_internal desert_warnings desert_sanitize)

# Writes the seed-* inputs of the schema-layer corpora (types, schema_json).
if(TARGET desert_json)
  add_executable(desert_fuzz_make_schema_seeds ${DESERT_FUZZ_SRC}/make_schema_seeds.c
    ${DESERT_FUZZ_SRC}/fuzz_schema_util.c ${DESERT_FUZZ_SRC}/fuzz_common.c)
  target_include_directories(desert_fuzz_make_schema_seeds PRIVATE ${DESERT_FUZZ_SRC})
  target_link_libraries(desert_fuzz_make_schema_seeds PRIVATE desert_internal desert::json
    desert_warnings desert_sanitize)
endif()

if(TARGET test_golden_sweeps)
  target_sources(test_golden_sweeps PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  target_include_directories(test_golden_sweeps PRIVATE ${PROJECT_SOURCE_DIR}/examples)
  find_package(Threads REQUIRED)
  target_link_libraries(test_golden_sweeps PRIVATE Threads::Threads)
endif()

if(TARGET test_resource_bounds)
  # Every harness, compiled without its LLVMFuzzerTestOneInput, so one
  # process measures the allocations of all corpora.
  foreach(t ${DESERT_FUZZ_TARGETS})
    if(NOT t MATCHES "^kernel_")
      target_sources(test_resource_bounds PRIVATE ${DESERT_FUZZ_SRC}/fuzz_${t}.c)
    endif()
  endforeach()
  target_sources(test_resource_bounds PRIVATE ${DESERT_FUZZ_SRC}/fuzz_common.c
    ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  if(TARGET desert_json)
    target_sources(test_resource_bounds PRIVATE ${DESERT_FUZZ_SRC}/fuzz_schema_util.c)
    target_link_libraries(test_resource_bounds PRIVATE desert::json)
    target_compile_definitions(test_resource_bounds PRIVATE DESERT_FUZZ_HAVE_JSON=1)
  endif()
  if(gen_c IN_LIST DESERT_FUZZ_TARGETS)
    desert_fuzz_gen_c_code(test_resource_bounds)
  endif()
  target_include_directories(test_resource_bounds PRIVATE ${DESERT_FUZZ_SRC}
    ${PROJECT_SOURCE_DIR}/examples)
  target_compile_definitions(test_resource_bounds PRIVATE FZ_NO_ENTRY=1
    DESERT_FUZZ_CORPUS_DIR="${DESERT_FUZZ_CORPUS}")
endif()

if(DESERT_BUILD_FUZZERS)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    add_subdirectory(${DESERT_FUZZ_SRC} ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  else()
    message(WARNING "DESERT_BUILD_FUZZERS needs clang (CC=clang); the libFuzzer harnesses are "
      "not built with ${CMAKE_C_COMPILER_ID}. The replay_<target> drivers are built anyway.")
  endif()
endif()
