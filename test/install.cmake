# test/install.cmake — the install-and-consume test: installs this build into
# a scratch prefix and builds test/install_consumer/ against it: through
# find_package(desert CONFIG) (shared and _static targets) and through
# pkg-config (desert and desert_json, shared and --static), running every
# program (test/install_consumer/run.sh). Skipped when cross compiling or
# when the install rules are off.
if(NOT DESERT_INSTALL OR CMAKE_CROSSCOMPILING)
  return()
endif()

# A library built with sanitizers needs them in its consumers too.
get_target_property(_desert_san_opts desert_sanitize INTERFACE_COMPILE_OPTIONS)
if(NOT _desert_san_opts)
  set(_desert_san_opts "")
endif()
list(JOIN _desert_san_opts " " _desert_san_flags)
if(TARGET desert_shared)
  set(_desert_shared 1)
else()
  set(_desert_shared 0)
endif()

add_test(NAME install_consumer
  COMMAND ${CMAKE_COMMAND} -E env
    "CMAKE=${CMAKE_COMMAND}"
    "BUILD_DIR=${PROJECT_BINARY_DIR}"
    "WORK=${CMAKE_CURRENT_BINARY_DIR}/install_consumer"
    "CONFIG=$<CONFIG>"
    "GENERATOR=${CMAKE_GENERATOR}"
    "MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
    "CC=${CMAKE_C_COMPILER}"
    "EXTRA_CFLAGS=${_desert_san_flags}"
    "DESERT_SHARED=${_desert_shared}"
    "ABI=${DESERT_ABI_VERSION}"
    bash ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/run.sh)
set_tests_properties(install_consumer PROPERTIES LABELS "hygiene;install" TIMEOUT 600)
