# test/symbols.cmake — symbol tests of the libraries:
#   symbol_prefix   every global symbol defined by the libraries (static
#                   archives: all of them; shared objects: the exported ones)
#                   and by the internal archive the tests link starts with
#                   desert_ (test/check_symbols.sh, run with the toolchain's nm);
#   symbol_exports  the shared libraries export exactly the DESERT_API
#                   declarations of the public headers, nothing internal
#                   (cmake/check_exports.py).
set(_desert_symbol_files $<TARGET_FILE:desert> $<TARGET_FILE:desert_internal>)
set(_desert_shared_files "")
foreach(_t desert_json desert_shared desert_json_shared)
  if(TARGET ${_t})
    list(APPEND _desert_symbol_files $<TARGET_FILE:${_t}>)
  endif()
endforeach()
foreach(_t desert_shared desert_json_shared)
  if(TARGET ${_t})
    list(APPEND _desert_shared_files $<TARGET_FILE:${_t}>)
  endif()
endforeach()
if(CMAKE_NM)
  add_test(NAME symbol_prefix
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_symbols.sh ${CMAKE_NM} ${_desert_symbol_files})
  set_tests_properties(symbol_prefix PROPERTIES LABELS "hygiene" TIMEOUT 60)
  if(_desert_shared_files)
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    add_test(NAME symbol_exports
      COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/check_exports.py ${CMAKE_NM}
        ${PROJECT_SOURCE_DIR}/include ${_desert_shared_files})
    set_tests_properties(symbol_exports PROPERTIES LABELS "hygiene" TIMEOUT 60)
  endif()
else()
  message(WARNING "desert: no nm found (CMAKE_NM); the symbol tests are not added")
endif()
