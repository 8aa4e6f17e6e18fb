// Bit-identical products on every machine. Eigen sizes the blocks of a matrix product from the
// CPU's cache sizes, read at run time, and the blocks decide the order in which a long dot
// product is summed: the same demo gave results differing in the last bits on a machine with
// 32 KiB of L1 data cache per core and one with 64 KiB (a sum over d_k = 512). Demos, whose
// values reach goldens, printouts and answer keys, fix the cache sizes Eigen plans with.
#pragma once

namespace proofdeck::engine {

// Plans every later product with 64 KiB L1, 512 KiB L2 and 16 MiB L3 (the machine the goldens
// were first written on). Idempotent and safe to call from several threads; costs nothing after
// the first call.
void fix_product_blocking();

// Threads for matrix products. Only a build with OpenMP (-DPROOFDECK_OPENMP=ON) has more than
// one: product_threads_available() says whether this one does. Called here, in the engine, so the
// setting reaches the products the engine runs whatever the other layers were compiled with.
bool product_threads_available();
void set_product_threads(int threads);

}  // namespace proofdeck::engine
