# cmake/DesertDeps.cmake — Debian 12 packages the library needs, found
# through pkg-config and wrapped as interface targets:
#   libdeflate-dev (desert-compatible DEFLATE blocks), libzstd-dev (the zstd
#   extension blocks).
find_package(PkgConfig REQUIRED)
pkg_check_modules(DEFLATE REQUIRED IMPORTED_TARGET libdeflate)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
add_library(desert_dep_deflate INTERFACE)
target_link_libraries(desert_dep_deflate INTERFACE PkgConfig::DEFLATE)
add_library(desert_dep_zstd INTERFACE)
target_link_libraries(desert_dep_zstd INTERFACE PkgConfig::ZSTD)
