# test/assert.cmake — test_assert (test/test_assert.c) checks the invariant
# assertions of DESERT_ENABLE_ASSERTS builds and exits 77 in builds without
# them, which ctest reports as skipped rather than passed.
if(TARGET test_assert)
  set_tests_properties(test_assert PROPERTIES SKIP_RETURN_CODE 77)
endif()
