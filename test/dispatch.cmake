# test/dispatch.cmake — DESERT_FORCE_ISA end to end: a fresh process per
# case runs check_isa, which verifies the active table and the recorded
# override outcome (included by test/CMakeLists.txt).
find_package(Threads REQUIRED)
add_executable(check_isa ${CMAKE_CURRENT_SOURCE_DIR}/check_isa.c)
target_link_libraries(check_isa PRIVATE desert_internal desert_warnings desert_sanitize
  Threads::Threads)

# name | DESERT_FORCE_ISA value | check_isa arguments (comma separated)
set(_desert_isa_cases
  "bogus|bogus|auto,unknown"
  "empty||auto,none"
  "auto|AUTO|auto,none"
  "scalar|scalar|scalar"
  "scalar_upper|SCALAR|scalar"
  "avx2|avx2|avx2"
  "avx512|avx512|avx512"
  "neon|neon|neon"
  "neon_mixed_case|NeOn|neon"
  "too_long|this-value-is-much-longer-than-thirty-one-characters|auto,unknown")
foreach(case ${_desert_isa_cases})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 value)
  list(GET parts 2 args)
  string(REPLACE "," ";" args "${args}")
  add_test(NAME dispatch_force_${name} COMMAND check_isa ${args})
  # Every ISA name runs whether or not its table is built: check_isa
  # expects APPLIED when runnable and automatic choice + UNAVAILABLE
  # otherwise, so each case tests something on every machine.
  set_tests_properties(dispatch_force_${name} PROPERTIES
    ENVIRONMENT_MODIFICATION "DESERT_FORCE_ISA=set:${value}" LABELS "unit;dispatch" TIMEOUT 60)
endforeach()

# The variable unset, whatever the caller's environment holds.
add_test(NAME dispatch_force_unset COMMAND check_isa auto none)
set_tests_properties(dispatch_force_unset PROPERTIES
  ENVIRONMENT_MODIFICATION "DESERT_FORCE_ISA=unset:" LABELS "unit;dispatch" TIMEOUT 60)

# Eight threads trigger detection and dispatch together (meaningful under
# the tsan preset). Not under an emulator: qemu-user on the CI image cannot
# create threads.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME dispatch_first_use_race COMMAND check_isa race)
  set_tests_properties(dispatch_first_use_race PROPERTIES LABELS "unit;dispatch" TIMEOUT 60)
endif()

# The dispatch suite again with every compiled ISA forced: its info test
# checks the recorded outcome against the decision function.
foreach(isa ${DESERT_TEST_ISAS})
  add_test(NAME test_dispatch@${isa} COMMAND test_dispatch)
  set_tests_properties(test_dispatch@${isa} PROPERTIES
    ENVIRONMENT_MODIFICATION "DESERT_FORCE_ISA=set:${isa}" LABELS "unit;dispatch;isa;${isa}"
    TIMEOUT 120)
endforeach()
