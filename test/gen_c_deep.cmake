# test/gen_c_deep.cmake — `desert gen-c` at the deepest nesting it and the
# runtime allow (documents written by test/gen_c/deep_schema.cmake at build
# and test time, not committed):
#  * test_gen_c_deep (test/gen_c/test_gen_c_deep.c): generated code for 65
#    anonymous levels (the generator's bound) and recursive values 256
#    levels deep (the runtime's; records 128 under default options), with
#    names longer than any old fixed buffer, against bytes derived by hand
#    and the runtime types path; one level deeper fails with DESERT_E_DEPTH
#    at the same offset;
#  * gen_c_deep_bound (test/gen_c/deep_bound.cmake): 65 anonymous lists
#    generate and compile, 66 of each kind are refused.
# Included by test/CMakeLists.txt.
if(NOT TARGET desert_json OR NOT TARGET desert_cli)
  return()
endif()
set(_gd_out ${CMAKE_CURRENT_BINARY_DIR}/gen_c_deep_in)
add_custom_command(OUTPUT ${_gd_out}/deep.schema.json ${_gd_out}/deep.cases
  COMMAND ${CMAKE_COMMAND} -DOUT=${_gd_out} -P ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/deep_schema.cmake
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/deep_schema.cmake
  COMMENT "gen_c_deep: writing the deep-nesting documents"
  VERBATIM)
add_executable(test_gen_c_deep ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/test_gen_c_deep.c
  ${_gd_out}/deep.cases)
desert_generate_c(TARGET test_gen_c_deep SCHEMAS ${_gd_out}/deep.schema.json PREFIX deep
  OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/gen_c_deep_src)
target_link_libraries(test_gen_c_deep PRIVATE desert_warnings desert_sanitize)
add_test(NAME test_gen_c_deep COMMAND test_gen_c_deep ${_gd_out}/deep.cases)
set_tests_properties(test_gen_c_deep PROPERTIES LABELS "gen_c" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "test_gen_c_deep: all [0-9]+ checks passed")
add_test(NAME gen_c_deep_bound
  COMMAND ${CMAKE_COMMAND} -DDESERT=$<TARGET_FILE:desert_cli> -DCC=${CMAKE_C_COMPILER}
    -DINCLUDE=${PROJECT_SOURCE_DIR}/include -DOUT=${CMAKE_CURRENT_BINARY_DIR}/gen_c_deep_bound
    -P ${CMAKE_CURRENT_SOURCE_DIR}/gen_c/deep_bound.cmake)
set_tests_properties(gen_c_deep_bound PROPERTIES LABELS "gen_c" TIMEOUT 600)
