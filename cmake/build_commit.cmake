# Run at every build (cmake -P): writes OUT (a header defining
# PERFTIDE_COMMIT and PERFTIDE_DIRTY) from the source tree's git state, and
# touches it only when that state changed, so an unchanged tree rebuilds
# nothing. Outside a git checkout the commit is "unknown".
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
set(dirty 0)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(dirty 1)
  endif()
endif()
set(text "// Made by cmake/build_commit.cmake at build time.\n#define PERFTIDE_COMMIT \"${commit}\"\n#define PERFTIDE_DIRTY ${dirty}\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
