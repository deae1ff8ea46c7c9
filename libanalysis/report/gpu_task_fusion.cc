#include "libanalysis/report/gpu_task_fusion.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tfa {
namespace {

bool OneInOneOutLinkable(const GpuTask& t) {
  return t.linkable && t.inputs.size() == 1 && t.outputs.size() == 1;
}

// The task made of `first` (and `second`, for TYPE_3) and the elementwise `root` they feed:
// reading `input`, writing root's output, linkable with one input.
GpuTask Fused(int32_t input, const GpuTask& root, const GpuTask& first, const GpuTask* second) {
  GpuTask fused;
  fused.inputs = {input};
  fused.outputs = {root.outputs[0]};
  fused.linkable = true;
  fused.elementwise_inputs = 1;
  fused.nodes = first.nodes;
  if (second) fused.nodes.insert(fused.nodes.end(), second->nodes.begin(), second->nodes.end());
  fused.nodes.insert(fused.nodes.end(), root.nodes.begin(), root.nodes.end());
  return fused;
}

// MergeGpuNodes: `dst` takes `src`'s other inputs and its output.
void Absorb(GpuTask& dst, const GpuTask& src) {
  dst.inputs.insert(dst.inputs.end(), src.inputs.begin() + 1, src.inputs.end());
  dst.outputs[0] = src.outputs[0];
  dst.nodes.insert(dst.nodes.end(), src.nodes.begin(), src.nodes.end());
}

// ---- reference: upstream's loops over a vector ------------------------------------------------

int CountReaders(const std::vector<GpuTask>& tasks, int32_t value) {
  int count = 0;
  for (const GpuTask& t : tasks)
    count += static_cast<int>(std::count(t.inputs.begin(), t.inputs.end(), value));
  return count;
}

// The latest task before `before` whose first output is `value`, -1 if none.
int FirstOutputParent(const std::vector<GpuTask>& tasks, int before, int32_t value) {
  for (int j = before - 1; j >= 0; --j) {
    if (!tasks[j].outputs.empty() && tasks[j].outputs[0] == value) return j;
  }
  return -1;
}

void MergeElementwiseReference(std::vector<GpuTask>& tasks) {
  for (int root_index = 1; root_index < static_cast<int>(tasks.size()); ++root_index) {
    const GpuTask& root = tasks[root_index];
    if (!(root.inputs.size() == 1 || root.inputs.size() == 2) || root.outputs.size() != 1 ||
        !root.linkable) {
      continue;
    }
    std::map<size_t, int> prev;  // root input -> its producer
    for (int j = root_index - 1; j >= 0; --j) {
      if (tasks[j].outputs.empty()) continue;
      for (size_t k = 0; k < root.inputs.size(); ++k) {
        if (root.inputs[k] == tasks[j].outputs[0]) {
          prev[k] = j;
          break;
        }
      }
    }
    if (prev.size() == 1) {  // TYPE_0
      if (root.inputs.size() != 1 || !prev.count(0)) continue;
      const int p = prev[0];
      if (!OneInOneOutLinkable(tasks[p]) || CountReaders(tasks, root.inputs[0]) != 1) continue;
      GpuTask fused = Fused(tasks[p].inputs[0], root, tasks[p], nullptr);
      tasks.erase(tasks.begin() + root_index);
      tasks[p] = std::move(fused);
      root_index = p;
      continue;
    }
    if (prev.size() != 2 || root.inputs.size() != 2 || root.elementwise_inputs != 2) continue;
    const int p0 = prev[0], p1 = prev[1];
    const GpuTask& first = tasks[p0];
    const GpuTask& second = tasks[p1];
    if (first.linkable && !second.linkable && second.outputs.size() == 1 &&
        first.inputs.size() == 1 && first.outputs.size() == 1) {  // TYPE_1
      if (FirstOutputParent(tasks, p0, first.inputs[0]) != p1 || p1 == -1) continue;
      if (CountReaders(tasks, root.inputs[0]) != 1) continue;
      GpuTask fused = Fused(first.inputs[0], root, first, nullptr);
      tasks.erase(tasks.begin() + root_index);
      tasks[p0] = std::move(fused);
      root_index = p0;
      continue;
    }
    if (!first.linkable && second.linkable && first.outputs.size() == 1 &&
        second.inputs.size() == 1 && second.outputs.size() == 1) {  // TYPE_2
      if (FirstOutputParent(tasks, p1, second.inputs[0]) != p0) continue;
      if (CountReaders(tasks, root.inputs[1]) != 1) continue;
      GpuTask fused = Fused(second.inputs[0], root, second, nullptr);
      tasks.erase(tasks.begin() + root_index);
      tasks[p1] = std::move(fused);
      root_index = p1;
      continue;
    }
    if (OneInOneOutLinkable(first) && OneInOneOutLinkable(second)) {  // TYPE_3
      const int parent0 = FirstOutputParent(tasks, p0, first.inputs[0]);
      const int parent1 = FirstOutputParent(tasks, p1, second.inputs[0]);
      if (parent0 == -1 || parent1 == -1 || parent0 != parent1) continue;
      if (CountReaders(tasks, root.inputs[1]) != 1 || CountReaders(tasks, root.inputs[0]) != 1)
        continue;
      GpuTask fused = Fused(first.inputs[0], root, first, &second);
      const int low = std::min(p0, p1), high = std::max(p0, p1);
      tasks.erase(tasks.begin() + root_index);
      tasks.erase(tasks.begin() + high);
      tasks[low] = std::move(fused);
      root_index = low - 1;
    }
  }
}

void MergeNodesReference(std::vector<GpuTask>& tasks, const GpuTaskGraph& graph) {
  std::unordered_set<int32_t> ready(graph.inputs.begin(), graph.inputs.end());
  for (int i = 0; i < static_cast<int>(tasks.size()); ++i) {
    GpuTask& task = tasks[i];
    bool has_graph_output = false;
    for (int32_t out : task.outputs) {
      ready.insert(out);
      has_graph_output |= graph.outputs.count(out) > 0;
    }
    if (has_graph_output || task.outputs.size() != 1) continue;
    std::vector<int> next;
    size_t link_index = 0;
    for (int j = i + 1; j < static_cast<int>(tasks.size()); ++j) {
      for (size_t k = 0; k < tasks[j].inputs.size(); ++k) {
        if (tasks[j].inputs[k] == task.outputs[0]) {
          next.push_back(j);
          link_index = k;
        }
      }
    }
    if (next.size() != 1 || link_index != 0) continue;
    const GpuTask& linkable = tasks[next[0]];
    const bool linkable_ready = std::all_of(linkable.inputs.begin(), linkable.inputs.end(),
                                            [&](int32_t in) { return ready.count(in) > 0; });
    if (!linkable.linkable || linkable.outputs.size() != 1 || !linkable_ready) continue;
    Absorb(task, linkable);
    tasks.erase(tasks.begin() + next[0]);
    i -= 1;
  }
}

// ---- fast: a linked list of tasks, each value's producer and readers -------------------------

class FastFusion {
 public:
  explicit FastFusion(const GpuTaskGraph& graph) : graph_(graph), tasks_(graph.tasks) {
    const int n = static_cast<int>(tasks_.size());
    next_.resize(n);
    prev_.resize(n);
    alive_.assign(n, true);
    for (int i = 0; i < n; ++i) {
      next_[i] = i + 1 < n ? i + 1 : -1;
      prev_[i] = i - 1;
      Register(i);
    }
    head_ = n ? 0 : -1;
  }

  std::vector<GpuTask> Run() {
    MergeElementwise();
    MergeNodes();
    std::vector<GpuTask> result;
    for (int i = head_; i != -1; i = next_[i]) result.push_back(std::move(tasks_[i]));
    return result;
  }

 private:
  // Readers count every occurrence, as upstream's consumer counts do.
  void Register(int t) {
    for (int32_t in : tasks_[t].inputs) readers_[in].push_back(t);
    if (!tasks_[t].outputs.empty()) first_producer_[tasks_[t].outputs[0]] = t;
    for (int32_t out : tasks_[t].outputs) producer_[out] = t;
  }
  void Unregister(int t) {
    for (int32_t in : tasks_[t].inputs) {
      auto& list = readers_[in];
      list.erase(std::find(list.begin(), list.end(), t));
    }
    if (!tasks_[t].outputs.empty()) {
      auto it = first_producer_.find(tasks_[t].outputs[0]);
      if (it != first_producer_.end() && it->second == t) first_producer_.erase(it);
    }
    for (int32_t out : tasks_[t].outputs) {
      auto it = producer_.find(out);
      if (it != producer_.end() && it->second == t) producer_.erase(it);
    }
  }
  void Unlink(int t) {
    alive_[t] = false;
    if (prev_[t] != -1)
      next_[prev_[t]] = next_[t];
    else
      head_ = next_[t];
    if (next_[t] != -1) prev_[next_[t]] = prev_[t];
  }
  void Replace(int at, GpuTask task) {
    Unregister(at);
    tasks_[at] = std::move(task);
    Register(at);
  }
  void Remove(int t) {
    Unregister(t);
    Unlink(t);
  }
  size_t Readers(int32_t value) const {
    auto it = readers_.find(value);
    return it == readers_.end() ? 0 : it->second.size();
  }
  // The task whose first output is `value`, if it comes before `before` in the list.
  int FirstOutputParent(int before, int32_t value) const {
    auto it = first_producer_.find(value);
    if (it == first_producer_.end() || !Before(it->second, before)) return -1;
    return it->second;
  }
  // List order: tasks keep their place, so their original indices order them.
  static bool Before(int a, int b) { return a < b; }

  void MergeElementwise() {
    if (head_ == -1) return;
    for (int root_id = next_[head_]; root_id != -1;) {
      const GpuTask& root = tasks_[root_id];
      int resume = next_[root_id];
      if ((root.inputs.size() == 1 || root.inputs.size() == 2) && root.outputs.size() == 1 &&
          root.linkable) {
        resume = TryElementwise(root_id, resume);
      }
      root_id = resume;
    }
  }

  // Returns where the scan goes on.
  int TryElementwise(int root_id, int resume) {
    const GpuTask root = tasks_[root_id];
    std::map<size_t, int> prev;
    std::set<int> seen;
    for (size_t k = 0; k < root.inputs.size(); ++k) {
      const int p = FirstOutputParent(root_id, root.inputs[k]);
      // Upstream gives each earlier task to the first input it feeds.
      if (p != -1 && seen.insert(p).second) prev[k] = p;
    }
    if (prev.size() == 1) {
      if (root.inputs.size() != 1 || !prev.count(0)) return resume;
      const int p = prev[0];
      if (!OneInOneOutLinkable(tasks_[p]) || Readers(root.inputs[0]) != 1) return resume;
      GpuTask fused = Fused(tasks_[p].inputs[0], root, tasks_[p], nullptr);
      Remove(root_id);
      Replace(p, std::move(fused));
      return next_[p];
    }
    if (prev.size() != 2 || root.inputs.size() != 2 || root.elementwise_inputs != 2) return resume;
    const int p0 = prev[0], p1 = prev[1];
    const GpuTask& first = tasks_[p0];
    const GpuTask& second = tasks_[p1];
    if (first.linkable && !second.linkable && second.outputs.size() == 1 &&
        first.inputs.size() == 1 && first.outputs.size() == 1) {
      if (FirstOutputParent(p0, first.inputs[0]) != p1) return resume;
      if (Readers(root.inputs[0]) != 1) return resume;
      GpuTask fused = Fused(first.inputs[0], root, first, nullptr);
      Remove(root_id);
      Replace(p0, std::move(fused));
      return next_[p0];
    }
    if (!first.linkable && second.linkable && first.outputs.size() == 1 &&
        second.inputs.size() == 1 && second.outputs.size() == 1) {
      if (FirstOutputParent(p1, second.inputs[0]) != p0) return resume;
      if (Readers(root.inputs[1]) != 1) return resume;
      GpuTask fused = Fused(second.inputs[0], root, second, nullptr);
      Remove(root_id);
      Replace(p1, std::move(fused));
      return next_[p1];
    }
    if (OneInOneOutLinkable(first) && OneInOneOutLinkable(second)) {
      const int parent0 = FirstOutputParent(p0, first.inputs[0]);
      const int parent1 = FirstOutputParent(p1, second.inputs[0]);
      if (parent0 == -1 || parent1 == -1 || parent0 != parent1) return resume;
      if (Readers(root.inputs[1]) != 1 || Readers(root.inputs[0]) != 1) return resume;
      GpuTask fused = Fused(first.inputs[0], root, first, &second);
      const int low = std::min(p0, p1), high = std::max(p0, p1);
      Remove(root_id);
      Remove(high);
      Replace(low, std::move(fused));
      return low;  // upstream looks at the fused task again
    }
    return resume;
  }

  void MergeNodes() {
    for (int id = head_; id != -1;) {
      GpuTask& task = tasks_[id];
      bool has_graph_output = false;
      for (int32_t out : task.outputs) has_graph_output |= graph_.outputs.count(out) > 0;
      int again = -1;
      if (!has_graph_output && task.outputs.size() == 1) {
        auto it = readers_.find(task.outputs[0]);
        if (it != readers_.end() && it->second.size() == 1) {
          const int reader = it->second[0];
          const GpuTask& linkable = tasks_[reader];
          // The output must be the reader's first input, and read there only (counted above).
          const bool first = linkable.inputs[0] == task.outputs[0];
          const bool ready = std::all_of(linkable.inputs.begin(), linkable.inputs.end(),
                                         [&](int32_t in) { return Ready(in, id); });
          if (first && linkable.linkable && linkable.outputs.size() == 1 && ready) {
            GpuTask merged = task;
            Absorb(merged, linkable);
            Remove(reader);
            Replace(id, std::move(merged));
            again = id;
          }
        }
      }
      id = again != -1 ? again : next_[id];
    }
  }

  // Upstream's ready set when it looks at task `at`: the partition's inputs and every output of
  // the tasks up to `at`.
  bool Ready(int32_t value, int at) const {
    if (graph_.inputs.count(value)) return true;
    auto it = producer_.find(value);
    return it != producer_.end() && !Before(at, it->second);
  }

  const GpuTaskGraph& graph_;
  std::vector<GpuTask> tasks_;
  std::vector<int> next_, prev_;
  std::vector<bool> alive_;
  int head_ = -1;
  std::unordered_map<int32_t, std::vector<int>> readers_;
  std::unordered_map<int32_t, int> first_producer_;
  std::unordered_map<int32_t, int> producer_;
};

}  // namespace

std::vector<GpuTask> FuseGpuTasksReference(const GpuTaskGraph& graph) {
  std::vector<GpuTask> tasks = graph.tasks;
  MergeElementwiseReference(tasks);
  MergeNodesReference(tasks, graph);
  return tasks;
}

std::vector<GpuTask> FuseGpuTasks(const GpuTaskGraph& graph) { return FastFusion(graph).Run(); }

}  // namespace tfa
