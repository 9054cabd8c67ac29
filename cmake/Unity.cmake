# Unity builds: each of our targets compiles its sources in batches of GPUSCOUT_UNITY_BATCH files, one translation
# unit per batch, so the heavy header-only libraries (nlohmann-json, fmt, CLI11, GoogleTest) are parsed and their
# inline functions compiled once per batch instead of once per file: the CI trees build in about half the time
# (docs/measurements.md). Names at file scope (anonymous namespaces included) must therefore differ between the files
# of a target. A file with flags of its own (a source property) is compiled on its own. The dev preset turns this
# off, so that an edit recompiles one file.
option(GPUSCOUT_UNITY_BUILD "Compile each target's sources in batches (CMake unity builds)" ON)
set(GPUSCOUT_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")

function(gpuscout_unity target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ${GPUSCOUT_UNITY_BUILD}
                                             UNITY_BUILD_BATCH_SIZE ${GPUSCOUT_UNITY_BATCH})
endfunction()
