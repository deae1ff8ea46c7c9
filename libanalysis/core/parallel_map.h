// Independent work on every core (several models at once in the CLI, the parts of one large Graph
// JSON file): a fixed pool of std::threads (one per core) takes the next index from a shared
// counter until all are done. Results come back in index order, and so does
// an error: the one of the lowest index is rethrown, so the output does not depend on timing.
#ifndef LIBANALYSIS_CORE_PARALLEL_MAP_H_
#define LIBANALYSIS_CORE_PARALLEL_MAP_H_

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

namespace tfa {

// Calls fn(i) for every i in [0, count) and returns the results in order; `on_done` runs after
// each call, on the worker thread (it must be thread-safe).
template <typename Fn>
auto ParallelMap(size_t count, Fn fn, const std::function<void()>& on_done = {})
    -> std::vector<decltype(fn(size_t{0}))> {
  using T = decltype(fn(size_t{0}));
  std::vector<std::optional<T>> results(count);
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++) {
      try {
        results[i].emplace(fn(i));
      } catch (...) {
        errors[i] = std::current_exception();
      }
      if (on_done) on_done();
    }
  };
  const size_t threads = std::min<size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::jthread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  pool.clear();  // joins
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  std::vector<T> out;
  out.reserve(count);
  for (std::optional<T>& r : results) out.push_back(std::move(*r));
  return out;
}

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_PARALLEL_MAP_H_
