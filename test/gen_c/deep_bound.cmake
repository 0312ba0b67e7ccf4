# test/gen_c/deep_bound.cmake — ctest gen_c_deep_bound: the generator's own
# nesting bound. test/gen_c/deep_schema.cmake writes the documents; 65
# anonymous lists (the deepest the generator accepts) generate, and the C
# compiles (-std=c11 -Wall -Wextra -Werror; syntax only, the direct code of
# such nesting is large); one level more of each kind (list, option,
# record, the mix of every composite kind) is refused with exit status 1,
# its message and no file written.
#   cmake -DDESERT=<desert> -DCC=<cc> -DINCLUDE=<include dir> -DOUT=<dir>
#         -P deep_bound.cmake
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${OUT} -P ${CMAKE_CURRENT_LIST_DIR}/deep_schema.cmake
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "deep_schema.cmake failed (${rc})")
endif()
execute_process(COMMAND ${DESERT} gen-c --prefix la -o ${OUT} ${OUT}/la.schema.json
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "desert gen-c la.schema.json: exit ${rc}: ${err}")
endif()
execute_process(COMMAND ${CC} -std=c11 -Wall -Wextra -Werror -I${INCLUDE} -I${OUT} -fsyntax-only
    ${OUT}/la.c
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "la.c (65 nested lists) does not compile:\n${out}${err}")
endif()
foreach(kind L O R M)
  execute_process(COMMAND ${DESERT} gen-c --prefix over -o ${OUT} ${OUT}/over_${kind}.schema.json
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "cannot generate \\$\\.root\\..*: anonymous types nested more than 64 levels deep")
    message(FATAL_ERROR "over_${kind}: exit ${rc}, want 1 and the nesting message: ${err}")
  endif()
  if(EXISTS ${OUT}/over.c OR EXISTS ${OUT}/over.h)
    message(FATAL_ERROR "over_${kind}: files written for a refused document")
  endif()
endforeach()
message(STATUS "gen_c_deep_bound: 65 anonymous levels generated and compiled, 66 refused (4 kinds)")
