# test/scripts/expect_exit.cmake — runs PROGRAM with the ;-list ARGS and
# checks its exit code is EXPECT_EXIT and that stdout/stderr match the
# regexes EXPECT_STDOUT / EXPECT_STDERR when given. Used by test/tools.cmake:
#   cmake -DPROGRAM=... -DARGS=a;b -DEXPECT_EXIT=2 [-DEXPECT_STDOUT=re]
#         [-DEXPECT_STDERR=re] -P expect_exit.cmake
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("command: ${PROGRAM} ${ARGS}\nexit code: ${rc}\n--- stdout:\n${out}--- stderr:\n${err}---")
set(failed "")
if(NOT rc STREQUAL "${EXPECT_EXIT}")
  string(APPEND failed "expected exit code ${EXPECT_EXIT}, got '${rc}'\n")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  string(APPEND failed "stdout does not match: ${EXPECT_STDOUT}\n")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
  string(APPEND failed "stderr does not match: ${EXPECT_STDERR}\n")
endif()
if(failed)
  message(FATAL_ERROR "${failed}")
endif()
