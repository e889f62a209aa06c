#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace arraycore::native {
namespace {

thread_local bool t_in_parallel_region = false;

// How long a worker polls for the next job after finishing one, and the caller for the
// workers to finish, before blocking on the condition variable.  Waking a blocked thread
// costs a futex call and, on a virtual machine whose other vCPU went idle, an inter-processor
// interrupt through the hypervisor: tens of microseconds, as much as a 10,000 x 4x4 batch's
// whole share of work.  Back-to-back calls (a loop of small batched ops) find the worker
// still polling.  The poll is short so that a loaded machine loses little: OpenMP runtimes
// spin far longer by default (GOMP_SPINCOUNT, KMP_BLOCKTIME = 200 ms).
constexpr auto kPoll = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls until ready() or kPoll has passed; returns ready().
template <class Ready>
bool poll_for(Ready ready) {
  const auto end = std::chrono::steady_clock::now() + kPoll;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > end) return ready();
    cpu_relax();
  }
}

int default_threads() {
  for (const char* var : {"ARRAYCORE_NUM_THREADS", "OMP_NUM_THREADS"}) {
    if (const char* v = std::getenv(var)) {
      int n = std::atoi(v);
      if (n >= 1) return n;
    }
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

// One job at a time (parallel_for callers are serialized by job_mu): the caller publishes the
// chunk function, wakes the workers, takes chunks itself, and waits until all are done.
class Pool {
 public:
  static Pool& get() {
    static Pool* p = new Pool();  // never destroyed: workers may outlive static teardown
    return *p;
  }

  int threads() const { return threads_.load(); }
  void set_threads(int n) { threads_.store(std::max(1, n)); }

  void run(int64_t nchunks, const std::function<void(int64_t)>& chunk) {
    std::lock_guard<std::mutex> job_lock(job_mu_);
    ensure_workers(threads_.load() - 1);
    std::exception_ptr error;
    std::mutex error_mu;
    std::atomic<int64_t> next{0}, done{0};
    auto work = [&] {
      for (int64_t i; (i = next.fetch_add(1)) < nchunks;) {
        try {
          chunk(i);
        } catch (...) {
          std::lock_guard<std::mutex> l(error_mu);
          if (!error) error = std::current_exception();
        }
        if (done.fetch_add(1) + 1 == nchunks) {
          std::lock_guard<std::mutex> l(mu_);
          cv_done_.notify_all();
        }
      }
    };
    {
      std::lock_guard<std::mutex> l(mu_);
      job_ = work;
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_work_.notify_all();
    t_in_parallel_region = true;
    work();
    t_in_parallel_region = false;
    auto finished = [&] { return done.load() == nchunks && active_.load() == 0; };
    poll_for(finished);
    {
      std::unique_lock<std::mutex> l(mu_);
      cv_done_.wait(l, finished);
      job_ = nullptr;
    }
    if (error) std::rethrow_exception(error);
  }

 private:
  Pool() : threads_(default_threads()) {}

  void ensure_workers(int n) {
    while (static_cast<int>(workers_.size()) < n) {
      workers_.emplace_back([this] { worker_main(); });
      workers_.back().detach();
    }
  }

  void worker_main() {
    t_in_parallel_region = true;
    uint64_t seen = 0;
    for (;;) {
      std::function<void()> job;
      poll_for([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_work_.wait(l, [&] { return generation_.load() != seen && job_; });
        seen = generation_.load();
        job = job_;
        ++active_;
      }
      job();
      {
        std::lock_guard<std::mutex> l(mu_);
        --active_;
      }
      cv_done_.notify_all();
    }
  }

  std::atomic<int> threads_;
  std::mutex job_mu_, mu_;
  std::condition_variable cv_work_, cv_done_;
  std::function<void()> job_;
  // written under mu_; atomic so that the polls above may read them without it
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  std::vector<std::thread> workers_;
};

}  // namespace

int num_threads() { return Pool::get().threads(); }
void set_num_threads(int n) { Pool::get().set_threads(n); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int threads = num_threads();
  if (threads <= 1 || n < 2 * grain || t_in_parallel_region) {
    fn(0, n);
    return;
  }
  int64_t nchunks = std::min<int64_t>(threads, n / grain);
  int64_t per = (n + nchunks - 1) / nchunks;
  Pool::get().run(nchunks, [&](int64_t i) {
    int64_t b = i * per, e = std::min(n, b + per);
    if (b < e) fn(b, e);
  });
}

}  // namespace arraycore::native
