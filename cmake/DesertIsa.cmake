# cmake/DesertIsa.cmake — which kernel folders this build compiles and with
# which flags. ISA flags go on the files of one folder only, after a probe
# proves the compiler accepts them; never -march=native (DESIGN.md §2).
#   src/x86/*_avx2.c    -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt (dispatch checks each)
#   src/x86/*_avx512.c  the AVX2 set + -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2
#   src/neon/*.c        native on AArch64; through SIMDe elsewhere when
#                       DESERT_NEON_EMULATION is ON (tests only)
include(CheckCSourceCompiles)

set(DESERT_ISA_SOURCES "")
set(DESERT_HAVE_AVX2 0)
set(DESERT_HAVE_AVX512 0)
set(DESERT_HAVE_NEON 0)
set(DESERT_NEON_EMULATED 0)

set(DESERT_AVX2_FLAGS -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt)
set(DESERT_AVX512_FLAGS ${DESERT_AVX2_FLAGS} -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2)

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  option(DESERT_ENABLE_AVX2 "Compile the AVX2 kernels" ON)
  option(DESERT_ENABLE_AVX512 "Compile the AVX-512 kernels" ON)
  if(DESERT_ENABLE_AVX2)
    set(CMAKE_REQUIRED_FLAGS "-mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt")
    check_c_source_compiles("#include <immintrin.h>
      int main(void){__m256i a=_mm256_set1_epi8(1);a=_mm256_shuffle_epi8(a,a);
      return (int)_mm256_movemask_epi8(a)+(int)_pdep_u32(1u,3u)+(int)_lzcnt_u32(1u);}"
      DESERT_COMPILER_AVX2)
    unset(CMAKE_REQUIRED_FLAGS)
    file(GLOB _avx2 CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/x86/*_avx2.c)
    if(DESERT_COMPILER_AVX2 AND _avx2)
      set(DESERT_HAVE_AVX2 1)
      list(APPEND DESERT_ISA_SOURCES ${_avx2})
      set(DESERT_AVX2_SOURCES ${_avx2})
    endif()
  endif()
  if(DESERT_ENABLE_AVX512 AND DESERT_HAVE_AVX2)
    set(CMAKE_REQUIRED_FLAGS "-mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2")
    check_c_source_compiles("#include <immintrin.h>
      int main(void){__m512i a=_mm512_set1_epi8(1);a=_mm512_permutexvar_epi8(a,a);
      a=_mm512_maskz_compress_epi8((__mmask64)3,a);return (int)_mm512_cmpeq_epi8_mask(a,a);}"
      DESERT_COMPILER_AVX512)
    unset(CMAKE_REQUIRED_FLAGS)
    file(GLOB _avx512 CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/x86/*_avx512.c)
    if(DESERT_COMPILER_AVX512 AND _avx512)
      set(DESERT_HAVE_AVX512 1)
      list(APPEND DESERT_ISA_SOURCES ${_avx512})
      set(DESERT_AVX512_SOURCES ${_avx512})
    endif()
  endif()
endif()

file(GLOB _neon CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/neon/*.c)
if(_neon)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(DESERT_HAVE_NEON 1)
    list(APPEND DESERT_ISA_SOURCES ${_neon})
  elseif(DESERT_NEON_EMULATION)
    find_path(DESERT_SIMDE_INCLUDE_DIR simde/arm/neon.h)
    if(NOT DESERT_SIMDE_INCLUDE_DIR)
      message(FATAL_ERROR "DESERT_NEON_EMULATION needs SIMDe (Debian: libsimde-dev)")
    endif()
    set(DESERT_HAVE_NEON 1)
    set(DESERT_NEON_EMULATED 1)
    set(DESERT_NEON_SOURCES ${_neon})
    list(APPEND DESERT_ISA_SOURCES ${_neon})
    message(STATUS "desert: NEON kernels built through SIMDe (emulated; tests only)")
  endif()
endif()

message(STATUS "desert: kernel tables:"
  " avx2=${DESERT_HAVE_AVX2} avx512=${DESERT_HAVE_AVX512} neon=${DESERT_HAVE_NEON} (emulated=${DESERT_NEON_EMULATED})")

# Sets the per-file ISA flags on the sources of `target`'s folders.
function(desert_apply_isa_flags target)
  if(DESERT_AVX2_SOURCES)
    set_source_files_properties(${DESERT_AVX2_SOURCES} TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "${DESERT_AVX2_FLAGS}")
  endif()
  if(DESERT_AVX512_SOURCES)
    set_source_files_properties(${DESERT_AVX512_SOURCES} TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "${DESERT_AVX512_FLAGS}")
  endif()
  if(DESERT_NEON_SOURCES)
    set_source_files_properties(${DESERT_NEON_SOURCES} TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "-Werror=implicit-function-declaration"
      COMPILE_DEFINITIONS "DESERT_NEON_VIA_SIMDE=1")
  endif()
endfunction()
