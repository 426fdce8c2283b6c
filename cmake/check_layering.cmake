# Dependency direction (STYLE.md 9), checked on every build before any library compiles:
#   base/       nothing of ours (LoadError and what every layer may use)
#   dynamics/   base          collision/  base          contact/  base
#   control/    base, dynamics, contact (controllers with contact solve its problems)
#   sim/        base, dynamics, collision, contact, control
#   batch/      base, dynamics, collision, contact, control, sim (runs of many scenes)
# A quoted #include "FOLDER/…" of a folder a layer must not know, or one that climbs out of its folder
# (".."), stops the build with the file and the include. tools/ and tests/ may include every layer.
#   cmake -DROOT=DIR -P check_layering.cmake      (the build runs it on the source tree; the test
#                                                 layering_catches_an_upward_include on a fixture)
cmake_minimum_required(VERSION 3.22)   # IN_LIST
set(allowed_base base)
set(allowed_dynamics base dynamics)
set(allowed_collision base collision)
set(allowed_contact base contact)
set(allowed_control base dynamics contact control)
set(allowed_sim base dynamics collision contact control sim)
set(allowed_batch base dynamics collision contact control sim batch)
set(layers base dynamics collision contact control sim batch)
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
      elseif(header MATCHES "/" AND folder IN_LIST known AND NOT folder IN_LIST allowed_${layer})
        string(REPLACE ";" ", " may "${allowed_${layer}}")
        string(APPEND violations "  ${shown}: #include \"${header}\": ${layer}/ may include only ${may}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "upward includes (dependency direction, STYLE.md 9):\n${violations}")
endif()
