# test/scripts/golden_corpus_cli.cmake — the top-level golden/ corpus through
# the `desert` tool (run with cmake -P), for every golden/<P>.schema.json:
#   desert decode --schema P.schema.json P.bin   == P.json (byte for byte)
#   desert encode --schema P.schema.json P.json  == P.bin  (byte for byte)
# and for every cross-version read (golden/README.md, "Older readers"):
#   N.read-by-V.json          = N.bin   decoded under N.V.schema.json
#   N.V.read-by-current.json  = N.V.bin decoded under N.schema.json
# It also checks that every .bin has a schema document or is one of the
# API-only files, and that golden/README.md names every file of the folder.
# Variables: PROGRAM (the tool), CORPUS (the golden/ folder), WORK (scratch).
file(MAKE_DIRECTORY ${WORK})
set(_failures "")
set(_checks 0)

# decode(<bin> <schema> <expected json> [extra args])
function(_decode bin schema want)
  get_filename_component(_n ${want} NAME)
  execute_process(COMMAND ${PROGRAM} decode --schema ${schema} ${bin} ${ARGN}
    OUTPUT_FILE ${WORK}/${_n} ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(READ ${WORK}/${_n} got)
  file(READ ${want} expected)
  math(EXPR _c "${_checks} + 1")
  set(_checks ${_c} PARENT_SCOPE)
  if(NOT rc EQUAL 0 OR NOT got STREQUAL expected)
    set(_failures "${_failures}\n  decode ${bin} under ${schema} (exit ${rc}: ${err}) differs from ${want}:\n    got  ${got}    want ${expected}" PARENT_SCOPE)
  endif()
endfunction()

file(GLOB _schemas RELATIVE ${CORPUS} ${CORPUS}/*.schema.json)
list(SORT _schemas)
set(_bins_with_schema "")
foreach(_s ${_schemas})
  string(REGEX REPLACE "\\.schema\\.json$" "" _p ${_s})
  list(APPEND _bins_with_schema ${_p}.bin)
  _decode(${CORPUS}/${_p}.bin ${CORPUS}/${_s} ${CORPUS}/${_p}.json)
  execute_process(COMMAND ${PROGRAM} encode --schema ${CORPUS}/${_s} ${CORPUS}/${_p}.json
    -o ${WORK}/${_p}.bin ERROR_VARIABLE err RESULT_VARIABLE rc)
  math(EXPR _checks "${_checks} + 1")
  if(rc EQUAL 0)
    file(SHA256 ${WORK}/${_p}.bin got)
    file(SHA256 ${CORPUS}/${_p}.bin want)
  endif()
  if(NOT rc EQUAL 0 OR NOT got STREQUAL want)
    set(_failures "${_failures}\n  encode ${_p}.json (exit ${rc}: ${err}) differs from ${_p}.bin")
  endif()
endforeach()

# A cross read may leave bytes unread (a newer reader that takes the fast
# path over an older version's fields: evolution.v0.read-by-current), so
# these decodes allow trailing bytes; same-version decodes above do not.
file(GLOB _cross RELATIVE ${CORPUS} ${CORPUS}/*.read-by-*.json)
list(SORT _cross)
foreach(_x ${_cross})
  if(_x MATCHES "^([^.]+)\\.([^.]+)\\.read-by-current\\.json$")
    _decode(${CORPUS}/${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.bin ${CORPUS}/${CMAKE_MATCH_1}.schema.json ${CORPUS}/${_x} --allow-trailing)
  elseif(_x MATCHES "^([^.]+)\\.read-by-([^.]+)\\.json$")
    _decode(${CORPUS}/${CMAKE_MATCH_1}.bin ${CORPUS}/${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.schema.json ${CORPUS}/${_x} --allow-trailing)
  else()
    set(_failures "${_failures}\n  ${_x}: not a cross-read file name the corpus knows")
  endif()
endforeach()

# Every .bin is described: by a schema document, or as an API-only file.
file(GLOB _bins RELATIVE ${CORPUS} ${CORPUS}/*.bin)
foreach(_b ${_bins})
  list(FIND _bins_with_schema ${_b} _i)
  if(_i EQUAL -1 AND NOT _b STREQUAL "zstd.bin" AND NOT _b STREQUAL "api_only.bin")
    set(_failures "${_failures}\n  ${_b}: neither a schema document nor an API-only file")
  endif()
endforeach()

# golden/README.md names every file of the folder.
file(READ ${CORPUS}/README.md _readme)
file(GLOB _all RELATIVE ${CORPUS} ${CORPUS}/*)
foreach(_f ${_all})
  if(NOT _f STREQUAL "README.md")
    string(FIND "${_readme}" "${_f}" _at)
    if(_at EQUAL -1)
      set(_failures "${_failures}\n  golden/README.md does not mention ${_f}")
    endif()
  endif()
endforeach()

list(LENGTH _schemas _ns)
list(LENGTH _cross _nx)
if(_failures)
  message(FATAL_ERROR "golden corpus through the desert tool:${_failures}")
endif()
if(_ns LESS 12 OR _nx LESS 6)
  message(FATAL_ERROR "golden corpus: only ${_ns} schema documents and ${_nx} cross reads found in ${CORPUS}")
endif()
message(STATUS "golden corpus through the desert tool: ${_checks} checks passed (${_ns} schema documents, ${_nx} cross reads)")
