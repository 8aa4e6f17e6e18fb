// glibc's mallopt, behind one function.
#include "core/heap.hpp"

#include <malloc.h>

namespace proofdeck {

void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace proofdeck
