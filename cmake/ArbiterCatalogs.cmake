# The message catalogs (po/*.po, docs/i18n.md), compiled into a target: msgfmt --check compiles
# each language in po/LINGUAS to its MO file (and fails the build on a broken entry: a format
# mismatch, a bad header), then cmake/embed_catalogs.cmake writes them as bytes with their plural
# rules into catalogs.cpp, which joins the target's sources. Debian: gettext (msgfmt).
find_program(ARBITER_MSGFMT msgfmt)
if(NOT ARBITER_MSGFMT)
  message(FATAL_ERROR "msgfmt not found: the message catalogs are compiled with GNU gettext's msgfmt "
    "(Debian: apt-get install gettext)")
endif()

function(arbiter_add_catalogs target root)
  file(STRINGS "${root}/po/LINGUAS" linguas REGEX "^[^#]")
  string(REGEX REPLACE "[ \t]+" ";" linguas "${linguas}")
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/catalogs-${target}")
  set(mos "")
  set(pos "")
  foreach(lang IN LISTS linguas)
    add_custom_command(OUTPUT "${dir}/${lang}.mo"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
      COMMAND ${ARBITER_MSGFMT} --check -o "${dir}/${lang}.mo" "${root}/po/${lang}.po"
      DEPENDS "${root}/po/${lang}.po"
      COMMENT "msgfmt --check po/${lang}.po"
      VERBATIM)
    list(APPEND mos "${dir}/${lang}.mo")
    list(APPEND pos "${root}/po/${lang}.po")
  endforeach()
  string(REPLACE ";" "," langs_arg "${linguas}")
  add_custom_command(OUTPUT "${dir}/catalogs.cpp"
    COMMAND ${CMAKE_COMMAND} "-DLANGS=${langs_arg}" "-DPO_DIR=${root}/po" "-DMO_DIR=${dir}"
      "-DOUTPUT=${dir}/catalogs.cpp" -P "${root}/cmake/embed_catalogs.cmake"
    DEPENDS ${mos} ${pos} "${root}/cmake/embed_catalogs.cmake" "${root}/po/LINGUAS"
    COMMENT "Embedding the message catalogs (${linguas})"
    VERBATIM)
  target_sources(${target} PRIVATE "${dir}/catalogs.cpp")
  target_include_directories(${target} PRIVATE "${root}/src")
endfunction()
