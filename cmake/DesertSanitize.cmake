# cmake/DesertSanitize.cmake — DESERT_SANITIZE="address;undefined" adds the
# sanitizers to compile and link options of everything that links
# desert_sanitize (library, tests, tools, fuzzers). Recovery is off so any
# report fails the test that triggered it.
add_library(desert_sanitize INTERFACE)
if(DESERT_SANITIZE)
  string(REPLACE ";" "," _san "${DESERT_SANITIZE}")
  target_compile_options(desert_sanitize INTERFACE -fsanitize=${_san}
    -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(desert_sanitize INTERFACE -fsanitize=${_san})
endif()
