# Dependency direction (STYLE.md 9; the layers and what each may include: layers.cmake). Each library
# compiles against an include root that holds only the folders its layer may include (CMakeLists.txt), so
# the compiler refuses an upward include in any file the library compiles; this script also covers what
# the compiler cannot see: a header that no file of its own layer includes, and an include that climbs
# out of its folder (".."), which is found beside the file whatever the include root. A quoted
# #include "FOLDER/…" of a folder a layer must not know, or one with "..", stops the build (it runs before
# any library compiles) with the file and the include. tools/ and tests/ may include every layer.
#   cmake -DROOT=DIR -P check_layering.cmake      (the build runs it on the source tree; the test
#                                                 layering_catches_an_upward_include on a fixture)
cmake_minimum_required(VERSION 3.22)   # IN_LIST
include(${CMAKE_CURRENT_LIST_DIR}/layers.cmake)
set(layers ${IMPETUS_LAYERS})
set(known ${layers} tools tests)

set(violations "")
foreach(layer ${layers})
  file(GLOB_RECURSE sources ${ROOT}/${layer}/*.hpp ${ROOT}/${layer}/*.cpp ${ROOT}/${layer}/*.h)
  foreach(file ${sources})
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" header "${line}")
      string(REGEX MATCH "^[^/]+" folder "${header}")
      file(RELATIVE_PATH shown ${ROOT} ${file})
      if(header MATCHES "\\.\\.")
        string(APPEND violations "  ${shown}: #include \"${header}\" climbs out of ${layer}/\n")
      elseif(header MATCHES "/" AND folder IN_LIST known AND NOT folder IN_LIST IMPETUS_ALLOWED_${layer})
        string(REPLACE ";" ", " may "${IMPETUS_ALLOWED_${layer}}")
        string(APPEND violations "  ${shown}: #include \"${header}\": ${layer}/ may include only ${may}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "upward includes (dependency direction, STYLE.md 9):\n${violations}")
endif()
