# GPUSCOUT_FUZZ: every library is compiled with libFuzzer's coverage hooks and AddressSanitizer +
# UndefinedBehaviorSanitizer, so the targets in fuzz/ (linked with -fsanitize=fuzzer) see inside all of it.
# Needs clang: the preset "fuzz" picks clang-16 from Debian's archive (scripts/install-deps installs it).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "GPUSCOUT_FUZZ needs clang (libFuzzer): cmake --preset asan uses clang++-16 "
                      "(apt-get install clang-16 libclang-rt-16-dev)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)

# libstdc++ 12 offers <expected> only when __cpp_concepts >= 202002L. Clang 16 to 18 implement what the header
# needs (P0848, conditionally trivial special members) but still report 201907L, so the header comes out empty.
# Claim the value only when that is the one thing missing: the check compiles a use of std::expected first as it
# is, then with the macro, and stops with a clear message if neither works.
include(CheckCXXSourceCompiles)
set(_gpuscout_expected_probe "#include <expected>\nint main() { std::expected<int, int> e{1}; return *e - 1; }")
check_cxx_source_compiles("${_gpuscout_expected_probe}" GPUSCOUT_HAVE_EXPECTED)
if(NOT GPUSCOUT_HAVE_EXPECTED)
  set(CMAKE_REQUIRED_DEFINITIONS -Wno-macro-redefined -D__cpp_concepts=202002L)
  check_cxx_source_compiles("${_gpuscout_expected_probe}" GPUSCOUT_HAVE_EXPECTED_WITH_CONCEPTS)
  unset(CMAKE_REQUIRED_DEFINITIONS)
  if(NOT GPUSCOUT_HAVE_EXPECTED_WITH_CONCEPTS)
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} ${CMAKE_CXX_COMPILER_VERSION} offers no std::expected with this "
                        "standard library: use clang 16 or newer (apt-get install clang-16 libclang-rt-16-dev)")
  endif()
  add_compile_options(-Wno-macro-redefined -D__cpp_concepts=202002L)
endif()
