# cmake/DesertGenerateC.cmake — desert_generate_c(): runs `desert gen-c` at
# build time (like protobuf_generate) and adds the generated C files to a
# target. Installed with the package (find_package(desert) defines it) and
# included in-tree, where it uses the tool built by this project.
#
#   desert_generate_c(TARGET <target> SCHEMAS <schema.json>...
#                     [PREFIX <p>] [TESTEE] [OUTPUT_DIR <dir>])
#
#   TARGET      the target that gets the generated .c files, the output
#               folder as an include directory, and desert::json on its link
#               line (PRIVATE)
#   SCHEMAS     schema documents (docs/schema.md §2); each becomes <P>.h/<P>.c
#               with P = PREFIX (one schema), PREFIX_<stem> (several) or
#               <stem>: the file name up to its first '.', which must then
#               be a C identifier
#   TESTEE      also generate <PREFIX or the only P or "desert">_testee.c, a
#               conformance testee main() (docs/schema.md §14); TARGET is then
#               an executable
#   OUTPUT_DIR  where the files go (default: <binary dir>/<target>_desert_gen)
#
# The generator is DESERT_GEN_C_EXECUTABLE when set, else the in-tree target
# desert_cli, else the `desert` program installed beside this package.
include_guard(GLOBAL)

set(_DESERT_GEN_C_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(desert_generate_c)
  cmake_parse_arguments(ARG "TESTEE" "TARGET;PREFIX;OUTPUT_DIR" "SCHEMAS" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SCHEMAS)
    message(FATAL_ERROR "desert_generate_c: TARGET and SCHEMAS are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "desert_generate_c: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "desert_generate_c: ${ARG_TARGET} is not a target")
  endif()

  # The generator program.
  set(_gen_dep "")
  if(DESERT_GEN_C_EXECUTABLE)
    set(_gen "${DESERT_GEN_C_EXECUTABLE}")
  elseif(TARGET desert_cli)
    set(_gen "$<TARGET_FILE:desert_cli>")
    set(_gen_dep desert_cli)
  elseif(DEFINED desert_TOOL AND EXISTS "${desert_TOOL}")
    set(_gen "${desert_TOOL}")
  else()
    message(FATAL_ERROR "desert_generate_c: no `desert` program (build libdesert with "
      "DESERT_BUILD_TOOLS=ON, or set DESERT_GEN_C_EXECUTABLE)")
  endif()

  set(_out "${ARG_OUTPUT_DIR}")
  if(NOT _out)
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_desert_gen")
  endif()

  # The files the tool writes (its prefix rule, see `desert gen-c --help`).
  list(LENGTH ARG_SCHEMAS _n)
  set(_abs "")
  set(_outputs "")
  set(_first_prefix "")
  foreach(_s IN LISTS ARG_SCHEMAS)
    get_filename_component(_a "${_s}" ABSOLUTE)
    list(APPEND _abs "${_a}")
    get_filename_component(_name "${_a}" NAME)
    string(REGEX REPLACE "\\..*$" "" _stem "${_name}")
    if(ARG_PREFIX AND _n EQUAL 1)
      set(_p "${ARG_PREFIX}")
    else()
      if(NOT _stem MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
        message(FATAL_ERROR "desert_generate_c: the name of ${_s} up to its first '.' is not a "
          "C identifier; rename it (or generate it alone with PREFIX)")
      endif()
      if(ARG_PREFIX)
        set(_p "${ARG_PREFIX}_${_stem}")
      else()
        set(_p "${_stem}")
      endif()
    endif()
    if(NOT _first_prefix)
      set(_first_prefix "${_p}")
    endif()
    list(APPEND _outputs "${_out}/${_p}.h" "${_out}/${_p}.c")
  endforeach()

  set(_args "")
  if(ARG_PREFIX)
    list(APPEND _args --prefix "${ARG_PREFIX}")
  endif()
  if(ARG_TESTEE)
    list(APPEND _args --testee)
    if(ARG_PREFIX)
      list(APPEND _outputs "${_out}/${ARG_PREFIX}_testee.c")
    elseif(_n EQUAL 1)
      list(APPEND _outputs "${_out}/${_first_prefix}_testee.c")
    else()
      list(APPEND _outputs "${_out}/desert_testee.c")
    endif()
  endif()

  add_custom_command(OUTPUT ${_outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_out}"
    COMMAND ${_gen} gen-c ${_args} -o "${_out}" ${_abs}
    DEPENDS ${_abs} ${_gen_dep}
    COMMENT "desert gen-c: ${ARG_TARGET} (${_n} schema documents)"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE ${_outputs})
  target_include_directories(${ARG_TARGET} PRIVATE "${_out}")
  target_link_libraries(${ARG_TARGET} PRIVATE desert::json)
endfunction()
