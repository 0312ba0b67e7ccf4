# test/python.cmake — ctest python_tests: builds the Python package
# (python/, a C extension over the shared libraries of this build tree) and
# runs its pytest suite with Debian's /usr/bin/python3 (python/README.md).
# Not registered, with a message saying why, when the interpreter, its
# headers (python3-dev) or pytest (python3-pytest) are missing, when the
# shared libraries are not built, or in sanitized builds (an instrumented
# library cannot be loaded into an uninstrumented interpreter).
set(DESERT_PYTHON "/usr/bin/python3" CACHE FILEPATH "Interpreter of ctest python_tests")
set(_desert_py_skip "")
if(DESERT_SANITIZE)
  set(_desert_py_skip "sanitized build (DESERT_SANITIZE=${DESERT_SANITIZE})")
elseif(NOT TARGET desert_shared OR NOT TARGET desert_json_shared)
  set(_desert_py_skip "no shared libraries (DESERT_BUILD_SHARED=OFF)")
elseif(NOT EXISTS "${DESERT_PYTHON}")
  set(_desert_py_skip "${DESERT_PYTHON} not found")
else()
  execute_process(
    COMMAND "${DESERT_PYTHON}" -c
      "import os, sysconfig; import pytest, setuptools; h = os.path.join(sysconfig.get_paths()['include'], 'Python.h'); print(h); raise SystemExit(0 if os.path.exists(h) else 3)"
    RESULT_VARIABLE _desert_py_rc OUTPUT_VARIABLE _desert_py_out ERROR_QUIET
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_desert_py_rc EQUAL 3)
    set(_desert_py_skip "${_desert_py_out} missing (apt-get install python3-dev)")
  elseif(NOT _desert_py_rc EQUAL 0)
    set(_desert_py_skip "pytest or setuptools missing for ${DESERT_PYTHON} (apt-get install python3-pytest python3-setuptools)")
  endif()
endif()

if(_desert_py_skip)
  message(STATUS "python_tests: not registered: ${_desert_py_skip}")
else()
  set(_desert_py_cli "")
  if(TARGET desert_cli)
    set(_desert_py_cli $<TARGET_FILE:desert_cli>)
  endif()
  add_test(NAME python_tests
    COMMAND sh ${PROJECT_SOURCE_DIR}/python/tests/ctest_run.sh "${DESERT_PYTHON}"
      $<TARGET_FILE_DIR:desert_json_shared> ${CMAKE_CURRENT_BINARY_DIR}/python ${_desert_py_cli})
  set_tests_properties(python_tests PROPERTIES LABELS "python" TIMEOUT 900
    ENVIRONMENT "DESERT_GOLDEN_DIR=${DESERT_GOLDEN_DIR}")
endif()
