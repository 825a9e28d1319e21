# What the layer check (layer_check.cmake) and the faces check (face_check.cmake) share: the C++
# files below a folder (any depth), the #include lines of a file (both "…" and <…>), and the file of
# the source tree an include lands on (".." resolved; system and third-party headers land nowhere).
# Included by both scripts, which set ROOT (the source tree, absolute) before calling these.
include_guard(GLOBAL)

# The names the checks read as C++ (sources and headers).
set(CHECK_CXX_GLOBS *.cpp *.hpp *.h *.cc *.ipp)

# cxx_files(out dir): the C++ files under ROOT/dir at any depth, relative to ROOT, sorted.
function(cxx_files out dir)
  set(globs "")
  foreach(g IN LISTS CHECK_CXX_GLOBS)
    list(APPEND globs "${ROOT}/${dir}/${g}")
  endforeach()
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${ROOT}" ${globs})
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# includes_of(out file): each #include of ROOT/file as written, "name" or <name>.
function(includes_of out file)
  file(STRINGS "${ROOT}/${file}" lines ENCODING UTF-8 REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(found "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*(<[^>]+>|\"[^\"]+\")")
      list(APPEND found "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# resolve_include(out file written roots): the file of the source tree (relative to ROOT) that the
# include `written` of `file` names, or "" when it names none (a system, third-party or generated
# header). The name is looked for beside `file` first, then below each folder of `roots` (relative
# to ROOT) in order, whether written "…" or <…>, with ".." resolved; a path that leaves the tree
# names nothing of it.
function(resolve_include out file written roots)
  string(REGEX REPLACE "^[<\"](.*)[>\"]$" "\\1" name "${written}")
  if(IS_ABSOLUTE "${name}")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  get_filename_component(here "${file}" DIRECTORY)
  foreach(base IN ITEMS "${here}" ${roots})
    if(base STREQUAL "")
      set(path "${name}")
    else()
      set(path "${base}/${name}")
    endif()
    cmake_path(NORMAL_PATH path)
    if(path STREQUAL ".." OR path MATCHES "^\\.\\./")
      continue()
    endif()
    if(EXISTS "${ROOT}/${path}" AND NOT IS_DIRECTORY "${ROOT}/${path}")
      set(${out} "${path}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()
