// The threads a CPU kernel may split its work over (`run --threads N`): the calling thread plus
// N - 1 workers of Eigen's non-blocking thread pool, made once per interpreter.
//
// A kernel splits an index range (output rows, pixels, channels) into at most N contiguous parts,
// one per thread. Each part knows its number, so it can own a slice of the kernel's scratch. The
// split never changes the arithmetic of one output element, so results do not depend on N.
#ifndef RUNTIME_KERNELS_CPU_KERNEL_THREAD_POOL_H_
#define RUNTIME_KERNELS_CPU_KERNEL_THREAD_POOL_H_

#include <cstdint>
#include <functional>
#include <memory>

namespace tfa::runtime {

class KernelThreadPool {
 public:
  // `threads` >= 1; 1 starts no worker.
  explicit KernelThreadPool(int threads);
  ~KernelThreadPool();
  KernelThreadPool(const KernelThreadPool&) = delete;
  KernelThreadPool& operator=(const KernelThreadPool&) = delete;

  int size() const { return threads_; }

  // Calls part_fn(part, begin, end) over contiguous parts that cover [0, n) in order, each at
  // least `min_part` long unless n is shorter, at most size() of them; part 0 runs on the calling
  // thread. Returns once every part is done.
  void ParallelFor(int64_t n, int64_t min_part,
                   const std::function<void(int, int64_t, int64_t)>& part_fn) const;

 private:
  struct Workers;
  int threads_ = 1;
  std::unique_ptr<Workers> workers_;
};

// The number of parts a kernel may need scratch for; a null pool is one thread.
inline int ThreadCount(const KernelThreadPool* pool) { return pool ? pool->size() : 1; }

// `pool->ParallelFor`, or one part on the calling thread when `pool` is null.
void ParallelFor(const KernelThreadPool* pool, int64_t n, int64_t min_part,
                 const std::function<void(int, int64_t, int64_t)>& part_fn);

}  // namespace tfa::runtime

#endif  // RUNTIME_KERNELS_CPU_KERNEL_THREAD_POOL_H_
