#include "runtime/kernels/cpu/kernel_thread_pool.h"

#define EIGEN_USE_THREADS
#include <algorithm>
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace tfa::runtime {

struct KernelThreadPool::Workers {
  explicit Workers(int count) : pool(count) {}
  Eigen::ThreadPool pool;
};

KernelThreadPool::KernelThreadPool(int threads) : threads_(std::max(1, threads)) {
  if (threads_ > 1) workers_ = std::make_unique<Workers>(threads_ - 1);
}

KernelThreadPool::~KernelThreadPool() = default;

void KernelThreadPool::ParallelFor(
    int64_t n, int64_t min_part, const std::function<void(int, int64_t, int64_t)>& part_fn) const {
  if (n <= 0) return;
  const int64_t most_parts = std::max<int64_t>(1, n / std::max<int64_t>(1, min_part));
  const int parts = static_cast<int>(std::min<int64_t>(threads_, most_parts));
  auto begin_of = [&](int part) { return n * part / parts; };
  if (parts == 1) {
    part_fn(0, 0, n);
    return;
  }
  Eigen::Barrier done(static_cast<unsigned>(parts - 1));
  for (int part = 1; part < parts; ++part) {
    workers_->pool.Schedule([&, part] {
      part_fn(part, begin_of(part), begin_of(part + 1));
      done.Notify();
    });
  }
  part_fn(0, 0, begin_of(1));
  done.Wait();
}

void ParallelFor(const KernelThreadPool* pool, int64_t n, int64_t min_part,
                 const std::function<void(int, int64_t, int64_t)>& part_fn) {
  if (pool) {
    pool->ParallelFor(n, min_part, part_fn);
  } else if (n > 0) {
    part_fn(0, 0, n);
  }
}

}  // namespace tfa::runtime
