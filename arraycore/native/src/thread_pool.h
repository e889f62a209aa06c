// L0: the worker pool that splits large loops over the cores.
//
// Workers poll for 100 us after a job (so back-to-back small jobs skip the wake-up), then
// block on a condition variable instead of spinning on: on a loaded 2-core machine a
// spinning pool steals the very core the caller needs.  Work below the grain size
// runs on the calling thread, and a parallel_for inside a worker runs serially.
#pragma once

#include <cstdint>
#include <functional>

namespace arraycore::native {

int num_threads();
void set_num_threads(int n);  // n >= 1; the pool grows or shrinks lazily

// Calls fn(begin, end) over disjoint chunks covering [0, n), each at least `grain` long
// (except possibly the last).  Exceptions thrown by fn are rethrown on the calling thread.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace arraycore::native
