# test/gen_c/names.cmake — the name mangling of `desert gen-c` (run with
# cmake -P, ctest gen_c_names) on test/gen_c/names.schema.json, which the
# gen_c_testee target also compiles: every rule of `desert gen-c --help`
# appears in the generated header exactly as documented.
# Variables: HEADER (the generated pub_names.h).
file(READ ${HEADER} _h)
foreach(_want
    "struct pub_names_my_x2drecord {"         # '-' is byte 0x2d
    "  int32_t my_x2dfield;"
    "  bool has__9lives;\n  desert_str _9lives;" # a leading digit gets '_'
    "  bool class_;"                            # a C++ keyword gets '_' after
    "  pub_names_my_x2drecord_na_xc3_xafve na_xc3_xafve;" # UTF-8 bytes of 'ï'
    "  int8_t has_class;"                       # a field name, kept as it is
    "  pub_names_Shape_tag_new_ = 0,"           # constants mangled too
    "typedef struct pub_names_root pub_names_root;"
    "desert_status pub_names_encode_my_x2drecord(")
  string(FIND "${_h}" "${_want}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "${HEADER} lacks\n  ${_want}")
  endif()
endforeach()
message(STATUS "gen_c_names: every mangled name as documented")
