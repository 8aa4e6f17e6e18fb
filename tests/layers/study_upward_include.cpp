// Compiled against the study layer's view by the CTest layers_study_upward_include, which passes
// only when the compiler cannot find this header: study and print are siblings, neither may use
// the other (cmake/layers.cmake).
#include "print/printable.hpp"
