# examples/check_golden.cmake — runs the `golden` example in one MODE and
# checks its result (used by test/examples.cmake):
#   legacy     output identical to INPUT, exit 0, summary line printed
#   modern     output of 242534 bytes with the pinned sha256, exit 0
#   truncated  INPUT cut to 1000 bytes: exit 1, status name and offset on stderr
# cmake -DPROGRAM=golden -DINPUT=dataset1.bin -DOUT_DIR=dir -DMODE=legacy -P check_golden.cmake
if(NOT EXISTS "${INPUT}")
  if("$ENV{DESERT_REQUIRE_GOLDEN}" STREQUAL "1")
    message(FATAL_ERROR "golden dataset not found at ${INPUT} (DESERT_REQUIRE_GOLDEN=1)")
  endif()
  message("SKIP: golden dataset not found at ${INPUT}")
  return()
endif()

set(out "${OUT_DIR}/golden_${MODE}.bin")
file(REMOVE "${out}")
if(MODE STREQUAL "legacy")
  execute_process(COMMAND "${PROGRAM}" "${INPUT}" "${out}" RESULT_VARIABLE rc
    OUTPUT_VARIABLE so ERROR_VARIABLE se)
  message("${so}${se}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "golden exited with ${rc}")
  endif()
  if(NOT so MATCHES "read 242540 of 242540 bytes.*wrote 242540 bytes \\(legacy\\)")
    message(FATAL_ERROR "unexpected summary")
  endif()
  file(SHA256 "${INPUT}" want)
  file(SHA256 "${out}" got)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "legacy re-encoding differs from the input (${got})")
  endif()
elseif(MODE STREQUAL "modern")
  execute_process(COMMAND "${PROGRAM}" "${INPUT}" "${out}" --modern RESULT_VARIABLE rc
    OUTPUT_VARIABLE so ERROR_VARIABLE se)
  message("${so}${se}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "golden --modern exited with ${rc}")
  endif()
  file(SIZE "${out}" size)
  file(SHA256 "${out}" got)
  if(NOT size EQUAL 242534 OR NOT got STREQUAL
     "035c37a27b526accc933f271327f54db22695fa8e6a100058f1257db922ad079")
    message(FATAL_ERROR "modern re-encoding: ${size} bytes, sha256 ${got}")
  endif()
elseif(MODE STREQUAL "truncated")
  # The first 1000 bytes, rebuilt through printf's \xHH escapes (CMake
  # cannot write raw bytes itself): a complete header whose chunk 0 runs
  # past the end of the input.
  set(cut "${OUT_DIR}/golden_cut.bin")
  file(READ "${INPUT}" hex LIMIT 1000 HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hex}")
  execute_process(COMMAND printf "${esc}" OUTPUT_FILE "${cut}" RESULT_VARIABLE prc)
  file(SIZE "${cut}" cut_size)
  if(NOT prc EQUAL 0 OR NOT cut_size EQUAL 1000)
    message(FATAL_ERROR "cannot write ${cut}")
  endif()
  execute_process(COMMAND "${PROGRAM}" "${cut}" "${out}" RESULT_VARIABLE rc
    OUTPUT_VARIABLE so ERROR_VARIABLE se)
  message("${so}${se}")
  if(NOT rc EQUAL 1 OR NOT se MATCHES "decode failed: DESERT_E_INPUT_ENDED at offset 8")
    message(FATAL_ERROR "expected exit 1 and DESERT_E_INPUT_ENDED at offset 8 (exit ${rc})")
  endif()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
