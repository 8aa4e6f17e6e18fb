// The control for layers_study_upward_include: the same compile of headers study may use
// succeeds, so the failure there is the layer graph and not a broken command.
#include "bank/instance.hpp"
#include "render/figure.hpp"
#include "study/session.hpp"
#include "text/width.hpp"
