# test/static_analysis.cmake — cppcheck over include/, src/ and tools/ as a
# ctest (`static_analysis`), failing on any warning. Registered in the gcc
# build without sanitizers (the `ci` preset): the analysis reads sources, so
# one build is enough. Suppressions are inline only, each with a comment
# saying why the report is wrong (--inline-suppr); there is no global list.
# __GNUC__ and __x86_64__ are defined so cppcheck analyses the configuration
# the library is built in instead of guessing every #ifdef combination.
if(DESERT_SANITIZE OR NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  return()
endif()
find_program(DESERT_CPPCHECK cppcheck)
if(DESERT_CPPCHECK)
  add_test(NAME static_analysis COMMAND ${DESERT_CPPCHECK} --quiet --error-exitcode=1
    --enable=warning,portability,performance --std=c11 --inline-suppr
    -D__GNUC__ -D__x86_64__
    -I ${PROJECT_SOURCE_DIR}/include -I ${PROJECT_SOURCE_DIR}/src -I ${PROJECT_BINARY_DIR}/generated
    ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tools)
else()
  # A missing analyser must not pass silently: scripts/setup-deps.sh
  # installs cppcheck.
  add_test(NAME static_analysis COMMAND ${CMAKE_COMMAND} -E echo
    "cppcheck not found: install it (scripts/setup-deps.sh)")
  set_tests_properties(static_analysis PROPERTIES WILL_FAIL ON)
endif()
set_tests_properties(static_analysis PROPERTIES LABELS "hygiene" TIMEOUT 600)
