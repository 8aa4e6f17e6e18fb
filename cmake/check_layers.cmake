# CTest: every #include "layer/…" in src/ and engine/ must point along the layer graph of
# cmake/layers.cmake. Run as: cmake -DSOURCE_DIR=<repo> -P cmake/check_layers.cmake
# (A build already refuses such an include, since each layer compiles against a view of only the
# layers it may use; this check also names every offender at once and covers headers no source
# of the layer includes yet.)
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/layers.cmake)

set(violations "")
set(checked 0)
foreach(layer IN LISTS PROOFDECK_LAYERS)
  proofdeck_layer_reach(${layer} reach)
  proofdeck_layer_dir(${layer} dir)
  file(GLOB_RECURSE files ${SOURCE_DIR}/${dir}/*.hpp ${SOURCE_DIR}/${dir}/*.cpp)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" target "${line}")
      math(EXPR checked "${checked} + 1")
      if(NOT target MATCHES "/")
        continue()  # generated headers (version.hpp) and same-folder includes
      endif()
      string(REGEX REPLACE "/.*" "" included "${target}")
      if(NOT included IN_LIST PROOFDECK_LAYERS)
        continue()
      endif()
      if(NOT included IN_LIST reach)
        file(RELATIVE_PATH shown ${SOURCE_DIR} ${file})
        string(REPLACE ";" ", " allowed "${reach}")
        list(APPEND violations
             "${shown}: includes \"${target}\", but layer ${layer} may only use ${allowed}")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(LENGTH violations count)
  string(REPLACE ";" "\n  " shown "${violations}")
  message(FATAL_ERROR "${count} include(s) against the layer graph (cmake/layers.cmake):\n  ${shown}")
endif()
message(STATUS "layers: ${checked} includes checked, all along the graph")
