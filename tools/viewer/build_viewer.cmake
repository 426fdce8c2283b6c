# Script of the impetus_viewer target (CMakeLists.txt beside it):
#   cmake -DNODE=… -DNPM=… -DSOURCE_DIR=… -DNPM_DIR=… -DOUT=… -P build_viewer.cmake
# 1. npm ci in NPM_DIR from SOURCE_DIR's package.json and package-lock.json, when the lock changed;
# 2. node build.mjs: the bundled page template OUT.
# A failure warns and leaves OUT absent, so the build goes on and the next build tries again.
file(MAKE_DIRECTORY ${NPM_DIR})
set(installed ${NPM_DIR}/node_modules/.package-lock.json)   # npm's record of what npm ci installed
set(copied_lock ${NPM_DIR}/package-lock.json)
set(need_install TRUE)
if(EXISTS ${installed} AND EXISTS ${copied_lock})
  file(SHA256 ${SOURCE_DIR}/package-lock.json wanted)
  file(SHA256 ${copied_lock} have)
  if(wanted STREQUAL have)
    set(need_install FALSE)
  endif()
endif()

if(need_install)
  file(COPY_FILE ${SOURCE_DIR}/package.json ${NPM_DIR}/package.json)
  file(COPY_FILE ${SOURCE_DIR}/package-lock.json ${copied_lock})
  message(STATUS "viewer: npm ci in ${NPM_DIR}")
  # --ignore-scripts: none of the packages needs its install script (esbuild's only checks its
  # platform binary, which comes as an optional dependency).
  execute_process(COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund
                  WORKING_DIRECTORY ${NPM_DIR} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    file(REMOVE ${copied_lock})
    message(WARNING "viewer: `npm ci` failed (${status}); the browser viewer is not built. "
                    "It needs the npm registry once; the next build tries again.")
    return()
  endif()
endif()

execute_process(COMMAND ${NODE} ${SOURCE_DIR}/build.mjs --node-modules ${NPM_DIR}/node_modules --out ${OUT}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUT})
  message(WARNING "viewer: bundling failed (${status}); `impetus view` will report the page as missing")
endif()
