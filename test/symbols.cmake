# test/symbols.cmake — the symbol-prefix test: every global symbol defined
# by the public library (static archive: all of them; shared object: the
# exported ones) and by the internal archive the tests link must start with
# desert_, and so must those of the JSON layer's libraries
# (test/check_symbols.sh, run with the toolchain's nm).
set(_desert_symbol_files $<TARGET_FILE:desert> $<TARGET_FILE:desert_internal>)
# Libraries of the optional JSON layer (src/json) are held to the same rule.
if(EXISTS "${PROJECT_SOURCE_DIR}/src/json/CMakeLists.txt")
  get_property(_json_targets DIRECTORY "${PROJECT_SOURCE_DIR}/src/json" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t ${_json_targets})
    get_target_property(_type ${_t} TYPE)
    if(_type MATCHES "^(STATIC|SHARED)_LIBRARY$")
      list(APPEND _desert_symbol_files $<TARGET_FILE:${_t}>)
    endif()
  endforeach()
endif()
if(CMAKE_NM)
  add_test(NAME symbol_prefix
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_symbols.sh ${CMAKE_NM} ${_desert_symbol_files})
  set_tests_properties(symbol_prefix PROPERTIES LABELS "hygiene" TIMEOUT 60)
else()
  message(WARNING "desert: no nm found (CMAKE_NM); the symbol_prefix test is not added")
endif()
