# test/readme_example.cmake — the C example of README.md ("A first program")
# is compiled with the project's warnings as errors and run, so the first
# program a new user copies always builds and prints what README says.
# The block is cut out of README.md at configure time (README.md is a
# configure dependency: editing it re-runs CMake).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md)
file(READ ${PROJECT_SOURCE_DIR}/README.md _readme)
string(FIND "${_readme}" "## A first program" _at)
if(_at LESS 0)
  message(FATAL_ERROR "README.md has no \"## A first program\" section")
endif()
string(SUBSTRING "${_readme}" ${_at} -1 _rest)
if(NOT _rest MATCHES "```c\n(.*)\n```\n\nIt prints `([^`]*)`")
  message(FATAL_ERROR "README.md: no ```c block followed by \"It prints `...`\" in \"A first program\"")
endif()
set(_readme_src "${CMAKE_MATCH_1}\n")
set(_readme_out "${CMAKE_MATCH_2}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_example.c "${_readme_src}")
add_executable(readme_example ${CMAKE_CURRENT_BINARY_DIR}/readme_example.c)
target_link_libraries(readme_example PRIVATE desert::desert desert_warnings desert_sanitize)
string(REGEX REPLACE "([][.*+?^$()|\\\\])" "\\\\\\1" _readme_re "${_readme_out}")
add_test(NAME readme_example COMMAND readme_example)
set_tests_properties(readme_example PROPERTIES LABELS "examples" TIMEOUT 30
  PASS_REGULAR_EXPRESSION "^${_readme_re}\n$")
