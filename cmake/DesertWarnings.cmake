# cmake/DesertWarnings.cmake — the warning set of every C target
# (-Wall -Wextra -Wpedantic -Wshadow -Wconversion plus a few that catch real
# bugs in codec code), as an interface target; DESERT_WERROR adds -Werror.
add_library(desert_warnings INTERFACE)
target_compile_options(desert_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wvla -Wstrict-prototypes -Wmissing-prototypes -Wundef -Wcast-qual -Wformat=2>)
if(DESERT_WERROR)
  target_compile_options(desert_warnings INTERFACE -Werror)
endif()
