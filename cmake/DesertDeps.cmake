# cmake/DesertDeps.cmake — Debian 12 packages the library needs, found
# through pkg-config and wrapped as interface targets:
#   libdeflate-dev (desert-compatible DEFLATE blocks), zlib1g-dev (the exact
#   java.util.zip.Inflater verdict on zlib-flavour blocks libdeflate refuses:
#   incomplete, corrupt or longer than announced, docs/schema.md §12),
#   libzstd-dev (the zstd extension blocks).
find_package(PkgConfig REQUIRED)
pkg_check_modules(DEFLATE REQUIRED IMPORTED_TARGET libdeflate)
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET zlib)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
add_library(desert_dep_deflate INTERFACE)
target_link_libraries(desert_dep_deflate INTERFACE PkgConfig::DEFLATE PkgConfig::ZLIB)
add_library(desert_dep_zstd INTERFACE)
target_link_libraries(desert_dep_zstd INTERFACE PkgConfig::ZSTD)
