# Obtains the pinned tree-sitter grammars (grammars/package.json and its
# sha512-pinned lock file) with `npm ci --ignore-scripts` into the build folder
# and compiles their generated parsers. The generated C is never committed.

set(OOM_GRAMMAR_DIR ${CMAKE_BINARY_DIR}/grammars)
set(OOM_GRAMMAR_STAMP ${OOM_GRAMMAR_DIR}/node_modules/.oomlint-stamp)
set(OOM_GRAMMAR_INPUTS
  ${CMAKE_SOURCE_DIR}/grammars/package.json
  ${CMAKE_SOURCE_DIR}/grammars/package-lock.json
  ${CMAKE_SOURCE_DIR}/grammars/.npmrc)

set(_oom_need_install TRUE)
if(EXISTS ${OOM_GRAMMAR_STAMP})
  set(_oom_need_install FALSE)
  foreach(_in IN LISTS OOM_GRAMMAR_INPUTS)
    if(${_in} IS_NEWER_THAN ${OOM_GRAMMAR_STAMP})
      set(_oom_need_install TRUE)
    endif()
  endforeach()
endif()

if(_oom_need_install)
  find_program(OOM_NPM npm)
  if(NOT OOM_NPM)
    message(FATAL_ERROR
      "oomlint: npm is needed to obtain the pinned tree-sitter grammars, and it is not on PATH.\n"
      "Install it (Debian: apt-get install npm) or run scripts/setup, then configure again.")
  endif()
  file(MAKE_DIRECTORY ${OOM_GRAMMAR_DIR})
  file(COPY ${OOM_GRAMMAR_INPUTS} DESTINATION ${OOM_GRAMMAR_DIR})
  message(STATUS "oomlint: installing pinned grammars (npm ci --ignore-scripts)")
  execute_process(
    COMMAND ${OOM_NPM} ci --ignore-scripts --no-audit --no-fund
    WORKING_DIRECTORY ${OOM_GRAMMAR_DIR}
    RESULT_VARIABLE _oom_npm_rc
    OUTPUT_VARIABLE _oom_npm_out
    ERROR_VARIABLE _oom_npm_out)
  if(NOT _oom_npm_rc EQUAL 0)
    message(FATAL_ERROR "oomlint: `npm ci` of the pinned grammars failed (integrity is checked against grammars/package-lock.json):\n${_oom_npm_out}")
  endif()
  file(TOUCH ${OOM_GRAMMAR_STAMP})
endif()

# The runtime's ABI range, read from the header the build compiles against.
find_path(OOM_TS_INCLUDE tree_sitter/api.h HINTS ${TREE_SITTER_INCLUDE_DIRS} REQUIRED)
file(STRINGS ${OOM_TS_INCLUDE}/tree_sitter/api.h _oom_abi_max REGEX "#define TREE_SITTER_LANGUAGE_VERSION ")
file(STRINGS ${OOM_TS_INCLUDE}/tree_sitter/api.h _oom_abi_min REGEX "#define TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION ")
string(REGEX MATCH "[0-9]+" _oom_abi_max "${_oom_abi_max}")
string(REGEX MATCH "[0-9]+" _oom_abi_min "${_oom_abi_min}")

function(oom_grammar target dir)
  set(_src ${OOM_GRAMMAR_DIR}/node_modules/${dir}/src)
  if(NOT EXISTS ${_src}/parser.c)
    message(FATAL_ERROR "oomlint: ${_src}/parser.c is missing; delete ${OOM_GRAMMAR_DIR} and configure again")
  endif()
  file(STRINGS ${_src}/parser.c _abi REGEX "^#define LANGUAGE_VERSION ")
  string(REGEX MATCH "[0-9]+" _abi "${_abi}")
  if(_abi GREATER _oom_abi_max OR _abi LESS _oom_abi_min)
    message(FATAL_ERROR
      "oomlint: grammar ${dir} is ABI ${_abi}, but the tree-sitter runtime loads ABI ${_oom_abi_min}..${_oom_abi_max}. "
      "Pin a grammar release built for this ABI in grammars/package.json.")
  endif()
  set(_files ${_src}/parser.c)
  if(EXISTS ${_src}/scanner.c)
    list(APPEND _files ${_src}/scanner.c)
  endif()
  add_library(${target} STATIC ${_files})
  target_include_directories(${target} PRIVATE ${_src})
  # Generated code: not ours to warn about.
  target_compile_options(${target} PRIVATE -w)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  message(STATUS "oomlint: grammar ${dir} (ABI ${_abi})")
endfunction()

oom_grammar(oom_grammar_python tree-sitter-python)
