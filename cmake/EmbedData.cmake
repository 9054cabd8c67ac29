# Embeds every data/*.csv (and SOURCES.md) into the binary as a byte array, so the tool runs with no files beside it.
# `--data DIR` (see core/data_files.hpp) overrides the embedded copy at run time.
function(gpuscout_embed_data target data_dir)
  file(GLOB csvs CONFIGURE_DEPENDS ${data_dir}/*.csv)
  list(APPEND csvs ${data_dir}/SOURCES.md)  # the source keys, for `gpuscout --data-info`
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_data.cpp)
  string(REPLACE ";" "|" files_arg "${csvs}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DFILES=${files_arg} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedDataScript.cmake
    DEPENDS ${csvs} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedDataScript.cmake
    COMMENT "Embedding data tables"
    VERBATIM)
  add_library(${target} STATIC ${out})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src)
endfunction()
