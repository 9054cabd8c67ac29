# Warnings live on an interface target so that every gpuscout target opts in explicitly,
# and third-party headers (pulled in as SYSTEM) stay quiet.
add_library(gpuscout_warnings INTERFACE)
target_compile_options(gpuscout_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<BOOL:${GPUSCOUT_WERROR}>,$<COMPILE_LANGUAGE:CXX,C>>:-Werror>)
# GCC 12 at -O3 reports -Wrestrict inside libstdc++'s std::string operator+ (GCC bug 105329, a false positive).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(gpuscout_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
