# test/golden_corpus.cmake — wiring of the top-level golden/ corpus
# (golden/README.md):
#  * test_golden_corpus (test/test_golden_corpus.c) decodes every file to its
#    JSON and re-encodes it byte-identically through the JSON layer and the
#    runtime types, under every runnable ISA (and,
#    through test/CMakeLists.txt's ISA regex, once per DESERT_FORCE_ISA);
#  * test_golden_corpus_api (test/test_golden_corpus_api.c and the models of
#    test/golden_corpus/model_*.c) does it through the hand-written API:
#    C-struct descriptors and hand-written codecs, zstd.bin and api_only.bin;
#  * golden_corpus_cli runs `desert decode/encode --schema` over every file
#    (test/scripts/golden_corpus_cli.cmake);
#  * golden_corpus_regen (test/golden_corpus/regen.c) rewrites golden/*.bin.
#    It is built but never run by ctest or CI: run it by hand, then review
#    the diff.
# Included by test/CMakeLists.txt after every test_*.c target exists.
if(NOT TARGET desert_json)
  return()
endif()

set(_gc_dir ${PROJECT_SOURCE_DIR}/golden)
set(_gc_src ${CMAKE_CURRENT_LIST_DIR}/golden_corpus)

add_library(desert_golden_corpus STATIC ${_gc_src}/corpus_files.c ${_gc_src}/corpus_api.c)
target_include_directories(desert_golden_corpus PUBLIC ${_gc_src})
target_compile_definitions(desert_golden_corpus PUBLIC DESERT_GOLDEN_CORPUS_DIR="${_gc_dir}")
target_link_libraries(desert_golden_corpus PUBLIC desert::desert desert_warnings desert_sanitize)

add_executable(golden_corpus_regen ${_gc_src}/regen.c)
target_link_libraries(golden_corpus_regen PRIVATE desert_golden_corpus desert::json)

if(TARGET test_golden_corpus)
  target_link_libraries(test_golden_corpus PRIVATE desert_golden_corpus desert::json)
endif()

if(TARGET desert_cli)
  add_test(NAME golden_corpus_cli
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:desert_cli> -DCORPUS=${_gc_dir}
      -DWORK=${CMAKE_CURRENT_BINARY_DIR}/golden_corpus_cli
      -P ${CMAKE_CURRENT_LIST_DIR}/scripts/golden_corpus_cli.cmake)
  set_tests_properties(golden_corpus_cli PROPERTIES LABELS "golden;tools" TIMEOUT 120)
endif()

# The hand-written API side: C-struct descriptors and hand-written codecs.
if(TARGET test_golden_corpus_api)
  target_sources(test_golden_corpus_api PRIVATE ${_gc_src}/corpus_models.c ${_gc_src}/model_evolution.c
    ${_gc_src}/model_enums.c ${_gc_src}/model_options.c ${_gc_src}/model_values.c
    ${_gc_src}/model_collections.c)
  # examples/golden_cstruct_model.h: the PersistedThrowable descriptors
  target_include_directories(test_golden_corpus_api PRIVATE ${PROJECT_SOURCE_DIR}/examples)
  target_link_libraries(test_golden_corpus_api PRIVATE desert_golden_corpus)
endif()
