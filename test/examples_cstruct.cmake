# test/examples_cstruct.cmake — wiring for the C-struct descriptor model of
# the golden dataset (examples/golden_cstruct_model.h).
#  * test_types_cstruct_model compares it with the hand-written codec
#    (examples/golden_model.c, compiled into the test).
#  * When the examples are built, ctest runs `golden_cstruct`: legacy
#    re-encoding identical to dataset1.bin, modern identical to the
#    hand-written codec's; skipped when the dataset is missing.
if(TARGET test_types_cstruct_model)
  target_sources(test_types_cstruct_model PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  target_include_directories(test_types_cstruct_model PRIVATE ${PROJECT_SOURCE_DIR}/examples)
endif()

if(TARGET golden_cstruct)
  add_test(NAME example_golden_cstruct COMMAND golden_cstruct)
  set_tests_properties(example_golden_cstruct PROPERTIES LABELS "examples" TIMEOUT 120
    SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "legacy 242540 bytes identical to the input, modern 242534 bytes")
endif()
