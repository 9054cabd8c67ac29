# The Windows build's dependencies, from the same Debian packages as the Linux build: fmt (as header-only,
# FMT_HEADER_ONLY), nlohmann-json and CLI11 are headers, copied out of /usr/include into the build tree so that
# no glibc header can shadow mingw's; GoogleTest is built from Debian's sources (/usr/src/googletest).
# What has no Windows build here: libpci (DXGI names the GPUs instead), OpenBLAS (bench looks for a BLAS DLL at
# run time), GNU gettext (the catalogues are embedded and read by core/i18n's own .mo reader), the CUDA plugin.
set(deps_include ${CMAKE_BINARY_DIR}/deps-include)
foreach(dir fmt nlohmann CLI)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/install-deps")
  endif()
  file(COPY /usr/include/${dir} DESTINATION ${deps_include})
endforeach()

add_library(gpuscout_fmt INTERFACE)
target_include_directories(gpuscout_fmt SYSTEM INTERFACE ${deps_include})
target_compile_definitions(gpuscout_fmt INTERFACE FMT_HEADER_ONLY=1)
add_library(fmt::fmt ALIAS gpuscout_fmt)
add_library(gpuscout_json INTERFACE)
target_include_directories(gpuscout_json SYSTEM INTERFACE ${deps_include})
add_library(nlohmann_json::nlohmann_json ALIAS gpuscout_json)
add_library(gpuscout_cli11 INTERFACE)
target_include_directories(gpuscout_cli11 SYSTEM INTERFACE ${deps_include})
add_library(CLI11::CLI11 ALIAS gpuscout_cli11)
find_package(Threads REQUIRED)
set(BLAS_LIBRARIES "")
