# cmake/DesertPackageTests.cmake — tests of what the package promises its
# users (included from CMakeLists.txt when tests are built):
#   abi_layout  the layout the public headers compile into a program matches
#               cmake/abi-layout.txt for DESERT_ABI_VERSION (cmake/abi_layout.py,
#               docs/abi.md); target desert_abi_layout_update rewrites the file.
#   man_page    docs/man/desert.1 names every command and option of the tool
#               (test/scripts/check_man.py).
# (symbol_exports and install_consumer live in test/symbols.cmake and
# test/install.cmake.)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# ---- ABI layout -------------------------------------------------------------
# The probe is generated from the headers at build time, so a new struct,
# member, enumerator or constant is listed without anyone editing a list.
file(GLOB _desert_public_headers CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/include/desert.h ${PROJECT_SOURCE_DIR}/include/desert/*.h)
set(_desert_abi_probe_c ${PROJECT_BINARY_DIR}/abi/abi_layout_probe.c)
add_custom_command(OUTPUT ${_desert_abi_probe_c}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/abi
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/abi_layout.py probe
    --include ${PROJECT_SOURCE_DIR}/include --out ${_desert_abi_probe_c}
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/abi_layout.py ${_desert_public_headers}
  COMMENT "Listing the layout of the public headers (abi_layout probe)" VERBATIM)
add_executable(desert_abi_probe ${_desert_abi_probe_c})
target_include_directories(desert_abi_probe PRIVATE ${PROJECT_SOURCE_DIR}/include)
# The platform the committed list was made on: other platforms skip the
# comparison (ctest reports it as skipped) instead of failing on sizes that
# differ for good reasons.
target_compile_definitions(desert_abi_probe PRIVATE
  "DESERT_ABI_PLATFORM=\"${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}\"")
target_link_libraries(desert_abi_probe PRIVATE desert_warnings)

if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME abi_layout
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/abi_layout.py check
      --probe $<TARGET_FILE:desert_abi_probe>
      --file ${PROJECT_SOURCE_DIR}/cmake/abi-layout.txt --abi ${DESERT_ABI_VERSION})
  set_tests_properties(abi_layout PROPERTIES LABELS "hygiene;abi" TIMEOUT 60
    SKIP_RETURN_CODE 77)
endif()
add_custom_target(desert_abi_layout_update
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/abi_layout.py update
    --probe $<TARGET_FILE:desert_abi_probe>
    --file ${PROJECT_SOURCE_DIR}/cmake/abi-layout.txt --abi ${DESERT_ABI_VERSION}
  DEPENDS desert_abi_probe
  COMMENT "Rewriting cmake/abi-layout.txt from the public headers" VERBATIM)

# ---- man page -----------------------------------------------------------------
if(TARGET desert_cli AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME man_page
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/test/scripts/check_man.py
      $<TARGET_FILE:desert_cli> ${PROJECT_SOURCE_DIR}/docs/man/desert.1)
  set_tests_properties(man_page PROPERTIES LABELS "hygiene;docs" TIMEOUT 60)
endif()
