# test/scripts/golden_schema_cli.cmake — the golden checks through the
# `desert` tool's schema subcommands (run with cmake -P):
#   desert decode --schema dataset1.schema.json dataset1.bin   == dataset1.json
#   desert encode ... --legacy-header-strings                  == dataset1.bin
#   desert encode ...                                          == the 242534-byte modern form
# Variables: PROGRAM (the tool), GOLDEN (folder of the dataset), WORK (scratch folder).
file(MAKE_DIRECTORY ${WORK})
set(_s ${GOLDEN}/dataset1.schema.json)
execute_process(COMMAND ${PROGRAM} decode --schema ${_s} ${GOLDEN}/dataset1.bin
  OUTPUT_FILE ${WORK}/dataset1.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "desert decode failed: ${rc}")
endif()
file(SHA256 ${WORK}/dataset1.json got)
file(SHA256 ${GOLDEN}/dataset1.json want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "desert decode output differs from dataset1.json")
endif()
execute_process(COMMAND ${PROGRAM} encode --schema ${_s} ${GOLDEN}/dataset1.json
  --legacy-header-strings -o ${WORK}/legacy.bin RESULT_VARIABLE rc)
file(SHA256 ${WORK}/legacy.bin got)
file(SHA256 ${GOLDEN}/dataset1.bin want)
if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
  message(FATAL_ERROR "legacy re-encoding differs from dataset1.bin (exit ${rc})")
endif()
execute_process(COMMAND ${PROGRAM} encode --schema ${_s} ${GOLDEN}/dataset1.json
  -o ${WORK}/modern.bin RESULT_VARIABLE rc)
file(SHA256 ${WORK}/modern.bin got)
file(SIZE ${WORK}/modern.bin size)
if(NOT rc EQUAL 0 OR NOT size EQUAL 242534 OR
   NOT got STREQUAL "035c37a27b526accc933f271327f54db22695fa8e6a100058f1257db922ad079")
  message(FATAL_ERROR "modern re-encoding: ${size} bytes, sha256 ${got} (exit ${rc})")
endif()
message(STATUS "golden through the schema subcommands: all three checks passed")
