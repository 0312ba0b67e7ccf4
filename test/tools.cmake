# test/tools.cmake — ctests of the `desert` command-line tool (tools/).
# Included by test/CMakeLists.txt; does nothing when the tools are not built.
# Each test runs the tool through test/scripts/expect_exit.cmake, which checks
# the exit code as well as the output (PASS_REGULAR_EXPRESSION alone would
# ignore the exit code).
if(NOT TARGET desert_cli)
  return()
endif()

# desert_tool_test(<name> EXIT <code> [STDOUT <regex>] [STDERR <regex>]
#                  [ENV <VAR=value>...] [UNSET <VAR>...] ARGS <arg>...)
function(desert_tool_test name)
  cmake_parse_arguments(PARSE_ARGV 1 t "" "EXIT;STDOUT;STDERR" "ENV;UNSET;ARGS")
  string(REPLACE ";" "$<SEMICOLON>" args "${t_ARGS}")
  set(cmd ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:desert_cli> "-DARGS=${args}"
      -DEXPECT_EXIT=${t_EXIT})
  if(DEFINED t_STDOUT)
    list(APPEND cmd "-DEXPECT_STDOUT=${t_STDOUT}")
  endif()
  if(DEFINED t_STDERR)
    list(APPEND cmd "-DEXPECT_STDERR=${t_STDERR}")
  endif()
  add_test(NAME ${name} COMMAND ${cmd} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/scripts/expect_exit.cmake)
  set(mods "")
  foreach(v ${t_UNSET})
    list(APPEND mods "${v}=unset:")
  endforeach()
  foreach(kv ${t_ENV})
    string(REGEX REPLACE "^([^=]*)=(.*)$" "\\1=set:\\2" kv "${kv}")
    list(APPEND mods "${kv}")
  endforeach()
  set_tests_properties(${name} PROPERTIES LABELS "tools" TIMEOUT 60)
  if(mods)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT_MODIFICATION "${mods}")
  endif()
endfunction()

set(_isa "(scalar|avx2|avx512|neon)")

desert_tool_test(tools_info EXIT 0 UNSET DESERT_FORCE_ISA ARGS info
  STDOUT "libdesert: +${PROJECT_VERSION} .*compiled ISAs: +scalar.*runnable ISAs: +scalar.*active ISA: +${_isa}\nactive emulated: +no\n(active ${_isa}: +[a-z0-9_ ]+\n)+(AVX-512 slots: +[a-z0-9_ ()]+\n)?DESERT_FORCE_ISA: +\\(unset\\): automatic choice\n")
# With AVX2 forced the slot lines name only AVX2 and scalar kernels.
desert_tool_test(tools_info_slots_avx2 EXIT 0 ENV DESERT_FORCE_ISA=avx2 ARGS info
  STDOUT "active ISA: +(avx2|scalar)\nactive emulated: +no\n(active (avx2|scalar): +[a-z0-9_ ]+\n)+(AVX-512 slots:|DESERT_FORCE_ISA:)")

# An unknown name must not stop the tool: it reports the raw value and the
# fallback to automatic choice, and still prints the dispatch state.
desert_tool_test(tools_info_force_bogus EXIT 0 ENV DESERT_FORCE_ISA=bogus ARGS info
  STDOUT "active ISA: +${_isa}\n.*DESERT_FORCE_ISA: +\"bogus\": unknown ISA name: automatic choice used")

# Forcing scalar is always possible, and must then be what runs.
desert_tool_test(tools_info_force_scalar EXIT 0 ENV DESERT_FORCE_ISA=scalar ARGS info
  STDOUT "active ISA: +scalar\n.*DESERT_FORCE_ISA: +\"scalar\": applied")

desert_tool_test(tools_help EXIT 0 ARGS --help
  STDOUT "^usage: desert <command>.*\n  info +.*Exit status:.*  2  usage error")
desert_tool_test(tools_help_info EXIT 0 ARGS info --help STDOUT "^usage: desert info\n")
desert_tool_test(tools_version EXIT 0 ARGS --version
  STDOUT "^desert ${PROJECT_VERSION} \\(libdesert ${PROJECT_VERSION}\\)\n$")

# Usage errors exit with 2 and say why on stderr.
desert_tool_test(tools_usage_unknown_command EXIT 2 ARGS no-such-command
  STDERR "unknown command 'no-such-command'")
desert_tool_test(tools_usage_unknown_option EXIT 2 ARGS --no-such-option
  STDERR "unknown option '--no-such-option'")
# A typo gets the likely intent (tools/cli_suggest.c); a word near nothing
# gets none.
desert_tool_test(tools_usage_typo_command EXIT 2 ARGS deocde
  STDERR "^desert: unknown command 'deocde' \\(did you mean 'decode'\\? see 'desert --help'\\)\n$")
desert_tool_test(tools_usage_typo_help_command EXIT 2 ARGS help encod
  STDERR "did you mean 'encode'\\?")
desert_tool_test(tools_usage_typo_top_option EXIT 2 ARGS --verison
  STDERR "did you mean '--version'\\?")
desert_tool_test(tools_usage_far_command EXIT 2 ARGS xyz
  STDERR "^desert: unknown command 'xyz' \\(see 'desert --help'\\)\n$")
desert_tool_test(tools_usage_typo_decode_option EXIT 2 ARGS decode --anotate
  STDERR "^desert decode: unknown option '--anotate' \\(did you mean '--annotate'\\? see 'desert decode --help'\\)\n$")
desert_tool_test(tools_usage_typo_encode_option EXIT 2 ARGS encode --max-value 3
  STDERR "did you mean '--max-values'\\?")
desert_tool_test(tools_usage_typo_gen_c_option EXIT 2 ARGS gen-c --prefx p
  STDERR "did you mean '--prefix'\\?")
desert_tool_test(tools_usage_info_extra_argument EXIT 2 ARGS info extra
  STDERR "unexpected argument 'extra'")
desert_tool_test(tools_usage_no_arguments EXIT 2 STDERR "^usage: desert")

# The tool's messages say what failed, where and why (test/scripts/
# cli_messages.py, one ctest per group): the operating system's reason on
# file errors, FILE:LINE:COLUMN on JSON syntax errors, one value path form
# ($, $.a, $[N].b), input that ends early, trailing bytes, DESERT_FORCE_ISA
# typos, options per subcommand, the legacy header-string hint.
if(TARGET desert_json)
  find_package(Python3 COMPONENTS Interpreter)
endif()
if(TARGET desert_json AND Python3_Interpreter_FOUND)
  foreach(_group os_reason json_position paths input_ended trailing force_isa options)
    add_test(NAME tools_msg_${_group} COMMAND Python3::Interpreter
      ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cli_messages.py $<TARGET_FILE:desert_cli>
      ${PROJECT_SOURCE_DIR}/golden ${CMAKE_CURRENT_BINARY_DIR}/tools_msg/${_group} ${_group})
    set_tests_properties(tools_msg_${_group} PROPERTIES LABELS "tools" TIMEOUT 120)
  endforeach()
  # desert-scala's golden dataset (legacy header strings), when present.
  if(EXISTS ${DESERT_GOLDEN_DIR}/dataset1.bin)
    add_test(NAME tools_msg_legacy COMMAND Python3::Interpreter
      ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cli_messages.py $<TARGET_FILE:desert_cli>
      ${DESERT_GOLDEN_DIR} ${CMAKE_CURRENT_BINARY_DIR}/tools_msg/legacy legacy)
    set_tests_properties(tools_msg_legacy PROPERTIES LABELS "tools" TIMEOUT 120)
  endif()
endif()

# Every byte and JSON example of docs/format.md and docs/schema.md, run
# through the desert tool (docs/check_examples.py): the user documentation
# cannot drift from what the library does.
if(Python3_Interpreter_FOUND)
  add_test(NAME docs_examples
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/docs/check_examples.py
      $<TARGET_FILE:desert_cli>)
  set_tests_properties(docs_examples PROPERTIES LABELS "tools" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "docs examples: [0-9]+ passed, 0 failed")
endif()
