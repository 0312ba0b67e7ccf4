# test/examples.cmake — wiring for the records layer's example-based tests.
# Included by test/CMakeLists.txt after every test_*.c target exists.
#  * test_golden decodes through the example model (examples/golden_model.c),
#    compiled into the test so it does not depend on DESERT_BUILD_EXAMPLES.
#  * When the examples are built, ctest runs them: `evolution` must exit 0;
#    `golden` must re-create dataset1.bin byte for byte (legacy), produce the
#    pinned modern form, and fail with exit 1 and a status name on a cut
#    input. The golden tests are skipped (not failed) when the dataset is
#    missing, unless DESERT_REQUIRE_GOLDEN=1 is set in the environment.
if(TARGET test_golden)
  target_sources(test_golden PRIVATE ${PROJECT_SOURCE_DIR}/examples/golden_model.c)
  target_include_directories(test_golden PRIVATE ${PROJECT_SOURCE_DIR}/examples)
endif()

if(NOT TARGET golden OR NOT TARGET evolution)
  return()
endif()

set(_ex_dir ${CMAKE_CURRENT_BINARY_DIR}/examples_out)
file(MAKE_DIRECTORY ${_ex_dir})
set(_golden_in ${DESERT_GOLDEN_DIR}/dataset1.bin)
set(_check ${PROJECT_SOURCE_DIR}/examples/check_golden.cmake)

add_test(NAME example_evolution COMMAND evolution)
set_tests_properties(example_evolution PROPERTIES LABELS "examples" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "evolution: all outcomes as expected")

foreach(mode legacy modern truncated)
  add_test(NAME example_golden_${mode}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:golden> -DINPUT=${_golden_in}
            -DOUT_DIR=${_ex_dir} -DMODE=${mode} -P ${_check})
  set_tests_properties(example_golden_${mode} PROPERTIES LABELS "examples" TIMEOUT 120
    SKIP_REGULAR_EXPRESSION "SKIP: golden dataset not found")
endforeach()

if(TARGET quickstart)
  add_test(NAME example_quickstart COMMAND quickstart)
  set_tests_properties(example_quickstart PROPERTIES LABELS "examples" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "bad input -> DESERT_E_INPUT_ENDED at offset 2")
endif()
