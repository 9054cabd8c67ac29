# The message catalogues: po/<lang>.po (and, while several people translate at once, po/<lang>/*.po parts) are
# merged with msgcat and compiled with msgfmt --check into build/locale/<lang>/LC_MESSAGES/gpuscout.mo, which the
# binary finds in the build tree; `install` puts them under share/locale. `cmake --build ... --target pot`
# regenerates po/gpuscout.pot from the sources (xgettext) and the data tables' user-facing cells.
include(${CMAKE_CURRENT_LIST_DIR}/Incbin.cmake)
find_program(GPUSCOUT_MSGFMT msgfmt REQUIRED)
find_program(GPUSCOUT_MSGCAT msgcat REQUIRED)
find_program(GPUSCOUT_XGETTEXT xgettext)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(GPUSCOUT_BUILD_LOCALEDIR ${CMAKE_BINARY_DIR}/locale)

function(gpuscout_translations)
  set(mo_files)
  foreach(lang zh_CN)
    file(GLOB parts CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/po/${lang}.po ${CMAKE_SOURCE_DIR}/po/${lang}/*.po)
    set(out_dir ${GPUSCOUT_BUILD_LOCALEDIR}/${lang}/LC_MESSAGES)
    set(merged ${CMAKE_BINARY_DIR}/po/${lang}.po)
    add_custom_command(
      OUTPUT ${out_dir}/gpuscout.mo
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir} ${CMAKE_BINARY_DIR}/po
      COMMAND ${GPUSCOUT_MSGCAT} --use-first --force-po --to-code=UTF-8 -o ${merged} ${parts}
      COMMAND ${GPUSCOUT_MSGFMT} --check -o ${out_dir}/gpuscout.mo ${merged}
      DEPENDS ${parts}
      COMMENT "Compiling the ${lang} message catalogue"
      VERBATIM)
    list(APPEND mo_files ${out_dir}/gpuscout.mo)
    install(FILES ${out_dir}/gpuscout.mo DESTINATION share/locale/${lang}/LC_MESSAGES)
  endforeach()
  add_custom_target(translations ALL DEPENDS ${mo_files})
  # gpuscout.exe carries its catalogue inside (no libintl on Windows): core/windows/i18n_embedded.cpp reads it.
  if(WIN32)
    set(out ${CMAKE_BINARY_DIR}/embedded_catalog_zh.cpp)
    gpuscout_incbin_source(${out} gpuscout_catalog_zh ${GPUSCOUT_BUILD_LOCALEDIR}/zh_CN/LC_MESSAGES/gpuscout.mo
                           gpuscout::core embedded_catalog_zh)
    add_library(gpuscout_catalogs STATIC ${out})
    add_dependencies(gpuscout_catalogs translations)
  endif()

  if(GPUSCOUT_XGETTEXT)
    add_custom_target(pot
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/po/make_pot.py --xgettext ${GPUSCOUT_XGETTEXT}
              --msgcat ${GPUSCOUT_MSGCAT} ${CMAKE_SOURCE_DIR}
      COMMENT "Extracting messages into po/gpuscout.pot"
      VERBATIM)
  endif()
endfunction()
