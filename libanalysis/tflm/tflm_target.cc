#include "libanalysis/tflm/tflm_target.h"

#include <algorithm>

namespace tfa::tflm {
namespace {

Layout FieldLayout(const Build& build, Field field) {
  const uint64_t pointer = PointerSize(build.target);
  // i386 System V: double and int64_t are 4-aligned as struct members (GCC's -malign-double is
  // off by default), where AAPCS and x86-64 align them to 8.
  const uint64_t eight_byte_align =
      build.target == Target::kMcu32 && build.abi == Abi::kI386 ? 4 : 8;
  switch (field) {
    case Field::kPointer:
    case Field::kSizeT:
      return {pointer, pointer};
    case Field::kInt32:
    case Field::kFloat:
      return {4, 4};
    case Field::kInt16:
      return {2, 2};
    case Field::kUint8:
    case Field::kBool:
      return {1, 1};
    case Field::kInt64:
    case Field::kDouble:
      return {8, eight_byte_align};
  }
  return {0, 1};
}

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

void Append(Layout& layout, Layout field) {
  layout.size = AlignUp(layout.size, field.align) + field.size;
  layout.align = std::max(layout.align, field.align);
}

Layout Finish(Layout layout) { return {AlignUp(layout.size, layout.align), layout.align}; }

}  // namespace

const char* TargetName(Target target) { return target == Target::kHost64 ? "tflm" : "tflm-32"; }

std::optional<Target> TargetFromName(std::string_view name) {
  if (name == "tflm") return Target::kHost64;
  if (name == "tflm-32") return Target::kMcu32;
  return std::nullopt;
}

const char* AbiName(Abi abi) { return abi == Abi::kAapcs ? "aapcs" : "i386"; }

std::optional<Abi> AbiFromName(std::string_view name) {
  if (name == "aapcs") return Abi::kAapcs;
  if (name == "i386") return Abi::kI386;
  return std::nullopt;
}

namespace {

struct CmsisNnCpuEntry {
  CmsisNnCpu cpu;
  std::string_view name;
};

constexpr CmsisNnCpuEntry kCmsisNnCpus[] = {
    {CmsisNnCpu::kPlainC, "plain-c"},
    {CmsisNnCpu::kCortexM0, "cortex-m0"},
    {CmsisNnCpu::kCortexM0Plus, "cortex-m0plus"},
    {CmsisNnCpu::kCortexM3, "cortex-m3"},
    {CmsisNnCpu::kCortexM4, "cortex-m4"},
    {CmsisNnCpu::kCortexM7, "cortex-m7"},
    {CmsisNnCpu::kCortexM33, "cortex-m33"},
    {CmsisNnCpu::kCortexM55, "cortex-m55"},
    {CmsisNnCpu::kCortexM85, "cortex-m85"},
};

}  // namespace

const char* CmsisNnCpuName(CmsisNnCpu cpu) {
  for (const CmsisNnCpuEntry& entry : kCmsisNnCpus) {
    if (entry.cpu == cpu) return entry.name.data();
  }
  return "plain-c";
}

std::optional<CmsisNnCpu> CmsisNnCpuFromName(std::string_view name) {
  for (const CmsisNnCpuEntry& entry : kCmsisNnCpus) {
    if (entry.name == name) return entry.cpu;
  }
  return std::nullopt;
}

uint64_t PointerSize(Target target) { return target == Target::kHost64 ? 8 : 4; }

Layout StructLayout(const Build& build, std::initializer_list<Field> fields) {
  Layout layout;
  for (Field field : fields) Append(layout, FieldLayout(build, field));
  return Finish(layout);
}

Layout StructLayout(const Build& build, std::initializer_list<Field> prefix, Layout member,
                    std::initializer_list<Field> suffix) {
  Layout layout;
  for (Field field : prefix) Append(layout, FieldLayout(build, field));
  Append(layout, member);
  for (Field field : suffix) Append(layout, FieldLayout(build, field));
  return Finish(layout);
}

StructSizes StructSizesFor(const Build& build) {
  using F = Field;
  StructSizes sizes;
  // TfLiteEvalTensor {TfLitePtrUnion data; TfLiteIntArray* dims; TfLiteType type;}
  sizes.eval_tensor = StructLayout(build, {F::kPointer, F::kPointer, F::kInt32});
  const Layout quantization_params = StructLayout(build, {F::kFloat, F::kInt32});
  const Layout quantization = StructLayout(build, {F::kInt32, F::kPointer});
  if (build.static_memory) {
    // TF_LITE_STATIC_MEMORY's reduced structs (common.h): TfLiteNode {inputs, outputs,
    // intermediates, user_data, builtin_data, custom_initial_data; int
    // custom_initial_data_size;}
    sizes.node = StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                                      F::kPointer, F::kPointer, F::kInt32});
    // TfLiteTensor {TfLiteQuantization quantization; TfLiteQuantizationParams params; data;
    // dims; size_t bytes; type; allocation_type; bool is_variable;}, largest members first.
    Layout reduced;
    Append(reduced, quantization);
    Append(reduced, quantization_params);
    for (F field : {F::kPointer, F::kPointer, F::kSizeT, F::kInt32, F::kInt32, F::kBool}) {
      Append(reduced, FieldLayout(build, field));
    }
    sizes.tensor = Finish(reduced);
  } else {
    // TfLiteNode {inputs, outputs, intermediates, temporaries, user_data, builtin_data,
    // custom_initial_data; int custom_initial_data_size; TfLiteDelegate* delegate;
    // bool might_have_side_effect;}
    sizes.node =
        StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                             F::kPointer, F::kPointer, F::kInt32, F::kPointer, F::kBool});
    // TfLiteTensor {type; data; dims; TfLiteQuantizationParams params {float; int32};
    // allocation_type; size_t bytes; allocation; name; delegate; buffer_handle; data_is_stale;
    // is_variable; TfLiteQuantization {type; void* params}; sparsity; dims_signature;}
    // Laid out field by field: the two members are nested structs.
    Layout unpadded;
    for (F field : {F::kInt32, F::kPointer, F::kPointer}) {
      Append(unpadded, FieldLayout(build, field));
    }
    Append(unpadded, quantization_params);
    for (F field : {F::kInt32, F::kSizeT, F::kPointer, F::kPointer, F::kPointer, F::kInt32,
                    F::kBool, F::kBool}) {
      Append(unpadded, FieldLayout(build, field));
    }
    Append(unpadded, quantization);
    Append(unpadded, FieldLayout(build, F::kPointer));
    Append(unpadded, FieldLayout(build, F::kPointer));
    sizes.tensor = Finish(unpadded);
  }
  sizes.node_and_registration = StructLayout(build, {}, sizes.node, {F::kPointer});
  // TfLiteAffineQuantization {TfLiteFloatArray* scale; TfLiteIntArray* zero_point;
  // int32_t quantized_dimension;}
  sizes.affine_quantization = StructLayout(build, {F::kPointer, F::kPointer, F::kInt32});
  sizes.scratch_buffer_handle = StructLayout(build, {F::kPointer});
  sizes.subgraph_allocations = StructLayout(build, {F::kPointer, F::kPointer});
  // SingleArenaBufferAllocator: two interface vtable pointers, buffer_head_, buffer_tail_,
  // head_, tail_, temp_, temp_buffer_count_, resizable_buffer_allocated_.
  const Layout arena_allocator =
      StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                           F::kPointer, F::kPointer, F::kSizeT, F::kBool});
  // GreedyMemoryPlanner: vtable, max_buffer_count_, buffer_count_, requirements_,
  // buffer_sizes_sorted_, buffer_ids_sorted_, buffers_sorted_by_offset_, next_free_entry_,
  // first_entry_index_, buffer_offsets_, need_to_calculate_offsets_.
  const Layout planner =
      StructLayout(build, {F::kPointer, F::kInt32, F::kInt32, F::kPointer, F::kPointer, F::kPointer,
                           F::kPointer, F::kInt32, F::kInt32, F::kPointer, F::kBool});
  // MicroAllocator: vtable, the two buffer allocators, the planner, the builtin data allocator,
  // model_is_allocating_, scratch_buffer_request_count_, max_head_buffer_usage_,
  // scratch_buffer_head_.
  const Layout allocator =
      StructLayout(build, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                           F::kBool, F::kSizeT, F::kSizeT, F::kPointer});
  sizes.builtin_data_allocator = StructLayout(build, {F::kPointer, F::kPointer});
  sizes.allocator_objects = arena_allocator.size + planner.size + allocator.size +
                            sizes.builtin_data_allocator.size + sizes.subgraph_allocations.size;
  if (build.recording_allocator) {
    // recording_single_arena_buffer_allocator.h: requested_head_bytes_, requested_tail_bytes_,
    // used_bytes_, alloc_count_. recording_micro_allocator.h: the recording arena allocator's
    // pointer and seven RecordedAllocation {requested_bytes, used_bytes, count}, one per kind.
    const Layout recorded_allocation = StructLayout(build, {F::kSizeT, F::kSizeT, F::kSizeT});
    sizes.allocator_objects +=
        StructLayout(build, {F::kSizeT, F::kSizeT, F::kSizeT, F::kSizeT}).size +
        PointerSize(build.target) + 7 * recorded_allocation.size;
  }
  return sizes;
}

}  // namespace tfa::tflm
