# Warnings live on an interface target so that every gpuscout target opts in explicitly,
# and third-party headers (pulled in as SYSTEM) stay quiet.
add_library(gpuscout_warnings INTERFACE)
target_compile_options(gpuscout_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<BOOL:${GPUSCOUT_WERROR}>,$<COMPILE_LANGUAGE:CXX,C>>:-Werror>)
