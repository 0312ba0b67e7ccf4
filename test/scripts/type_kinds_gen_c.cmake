# test/scripts/type_kinds_gen_c.cmake — ctest type_kinds_gen_c
# (test/type_kinds.cmake): test_type_kinds --write-schemas writes one schema
# document per kind of DESERT_TYPE_KINDS, `desert gen-c` turns each into C,
# and every generated file compiles (C11, -Wall -Wextra -Werror). A kind
# gen-c cannot generate fails the tool; one it generates wrong C for fails
# the compiler.
#   cmake -DKINDS=<test_type_kinds> -DDESERT=<desert> -DCC=<cc>
#         -DINCLUDE=<include dir> -DOUT=<dir> -P type_kinds_gen_c.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${KINDS} --write-schemas ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "test_type_kinds --write-schemas failed (${rc})")
endif()
file(GLOB schemas ${OUT}/kind_*.schema.json)
list(LENGTH schemas n)
if(n LESS 53)
  message(FATAL_ERROR "only ${n} kind schemas written")
endif()
foreach(schema ${schemas})
  get_filename_component(stem ${schema} NAME)
  string(REGEX REPLACE "\\.schema\\.json$" "" stem ${stem})
  execute_process(COMMAND ${DESERT} gen-c --prefix ${stem} -o ${OUT} ${schema}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "desert gen-c ${stem}: exit ${rc}: ${err}")
  endif()
  foreach(ext h c)
    if(NOT EXISTS ${OUT}/${stem}.${ext})
      message(FATAL_ERROR "desert gen-c ${stem}: no ${stem}.${ext}")
    endif()
  endforeach()
  execute_process(COMMAND ${CC} -std=c11 -Wall -Wextra -Werror -I${INCLUDE} -I${OUT}
      -c ${OUT}/${stem}.c -o ${OUT}/${stem}.o
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${stem}.c does not compile:\n${out}${err}")
  endif()
endforeach()
message(STATUS "type_kinds_gen_c: ${n} kinds generated and compiled")
