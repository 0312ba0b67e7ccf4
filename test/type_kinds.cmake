# test/type_kinds.cmake — the every-kind tests of DESERT_TYPE_KINDS
# (include/desert/types.h):
#  * test_type_kinds (test/test_type_kinds.c): every kind's sample encodes,
#    decodes and round-trips through JSON; built with -Wswitch-enum so a kind
#    without a sample fails the build;
#  * type_kinds_gen_c: `desert gen-c` generates code for a schema of every
#    kind and that code compiles with the project's warnings
#    (test/scripts/type_kinds_gen_c.cmake).
# Included by test/CMakeLists.txt after every test_*.c target exists.
if(NOT TARGET test_type_kinds OR NOT TARGET desert_json)
  return()
endif()
target_link_libraries(test_type_kinds PRIVATE desert::json)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(test_type_kinds PRIVATE -Wswitch-enum)
endif()
if(TARGET desert_cli)
  get_target_property(_tk_warn desert_warnings INTERFACE_COMPILE_OPTIONS)
  add_test(NAME type_kinds_gen_c
    COMMAND ${CMAKE_COMMAND} -DKINDS=$<TARGET_FILE:test_type_kinds>
      -DDESERT=$<TARGET_FILE:desert_cli> -DCC=${CMAKE_C_COMPILER}
      -DINCLUDE=${PROJECT_SOURCE_DIR}/include -DOUT=${CMAKE_CURRENT_BINARY_DIR}/type_kinds_gen_c
      -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/type_kinds_gen_c.cmake)
  set_tests_properties(type_kinds_gen_c PROPERTIES LABELS "unit;gen_c" TIMEOUT 600)
endif()
