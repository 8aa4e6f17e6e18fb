# The layers of proofdeck and the one-way graph between them: the single source of truth for the
# build (CMakeLists.txt links along it and gives each layer a view of only what it may include)
# and for the include check (cmake/check_layers.cmake, a CTest). docs/ARCHITECTURE.md explains it.
#
#   engine, core, text          depend on nothing of ours
#   engine_io → engine, core     (the engine's JSON face: `engine run` specs, tensors as JSON)
#   demo    → engine, core, text (its sentences write numbers by the one rule)
#   render  → demo, text, core
#   bank    → engine, demo, text, core
#   study   → bank, render, text, core
#   print   → bank, render, text, core
#   cli     → everything
#
# A layer may include its own headers and those of every layer it reaches along the graph.

set(PROOFDECK_LAYERS engine core text engine_io demo render bank study print cli)
set(PROOFDECK_LAYER_DEPS_engine "")
set(PROOFDECK_LAYER_DEPS_core "")
set(PROOFDECK_LAYER_DEPS_text "")
set(PROOFDECK_LAYER_DEPS_engine_io engine core)
set(PROOFDECK_LAYER_DEPS_demo engine core text)
set(PROOFDECK_LAYER_DEPS_render demo text core)
set(PROOFDECK_LAYER_DEPS_bank engine demo text core)
set(PROOFDECK_LAYER_DEPS_study bank render text core)
set(PROOFDECK_LAYER_DEPS_print bank render text core)
set(PROOFDECK_LAYER_DEPS_cli study print bank render demo engine_io engine text core)

# Where each layer's headers and sources live, relative to the repository root.
function(proofdeck_layer_dir layer out)
  if(layer STREQUAL "engine")
    set(${out} "engine" PARENT_SCOPE)
  else()
    set(${out} "src/${layer}" PARENT_SCOPE)
  endif()
endfunction()

# Every layer `layer` may include: itself and all it reaches.
function(proofdeck_layer_reach layer out)
  set(reach ${layer})
  set(queue ${PROOFDECK_LAYER_DEPS_${layer}})
  while(queue)
    list(POP_FRONT queue next)
    if(NOT next IN_LIST reach)
      list(APPEND reach ${next})
      list(APPEND queue ${PROOFDECK_LAYER_DEPS_${next}})
    endif()
  endwhile()
  set(${out} ${reach} PARENT_SCOPE)
endfunction()
