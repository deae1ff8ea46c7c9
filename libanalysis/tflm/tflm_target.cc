#include "libanalysis/tflm/tflm_target.h"

#include <algorithm>

namespace tfa::tflm {
namespace {

Layout FieldLayout(Target target, Field field) {
  const uint64_t pointer = PointerSize(target);
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
    case Field::kDouble:
      return {8, 8};
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

uint64_t PointerSize(Target target) { return target == Target::kHost64 ? 8 : 4; }

Layout StructLayout(Target target, std::initializer_list<Field> fields) {
  Layout layout;
  for (Field field : fields) Append(layout, FieldLayout(target, field));
  return Finish(layout);
}

Layout StructLayout(Target target, std::initializer_list<Field> prefix, Layout member,
                    std::initializer_list<Field> suffix) {
  Layout layout;
  for (Field field : prefix) Append(layout, FieldLayout(target, field));
  Append(layout, member);
  for (Field field : suffix) Append(layout, FieldLayout(target, field));
  return Finish(layout);
}

StructSizes StructSizesFor(Target target) {
  using F = Field;
  StructSizes sizes;
  // TfLiteEvalTensor {TfLitePtrUnion data; TfLiteIntArray* dims; TfLiteType type;}
  sizes.eval_tensor = StructLayout(target, {F::kPointer, F::kPointer, F::kInt32});
  // TfLiteNode {inputs, outputs, intermediates, temporaries, user_data, builtin_data,
  // custom_initial_data; int custom_initial_data_size; TfLiteDelegate* delegate;
  // bool might_have_side_effect;}
  sizes.node =
      StructLayout(target, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                            F::kPointer, F::kPointer, F::kInt32, F::kPointer, F::kBool});
  sizes.node_and_registration = StructLayout(target, {}, sizes.node, {F::kPointer});
  // TfLiteTensor {type; data; dims; TfLiteQuantizationParams params {float; int32};
  // allocation_type; size_t bytes; allocation; name; delegate; buffer_handle; data_is_stale;
  // is_variable; TfLiteQuantization {type; void* params}; sparsity; dims_signature;}
  const Layout quantization_params = StructLayout(target, {F::kFloat, F::kInt32});
  const Layout quantization = StructLayout(target, {F::kInt32, F::kPointer});
  // Laid out field by field: the two members are nested structs.
  Layout unpadded;
  for (F field : {F::kInt32, F::kPointer, F::kPointer})
    Append(unpadded, FieldLayout(target, field));
  Append(unpadded, quantization_params);
  for (F field : {F::kInt32, F::kSizeT, F::kPointer, F::kPointer, F::kPointer, F::kInt32, F::kBool,
                  F::kBool}) {
    Append(unpadded, FieldLayout(target, field));
  }
  Append(unpadded, quantization);
  Append(unpadded, FieldLayout(target, F::kPointer));
  Append(unpadded, FieldLayout(target, F::kPointer));
  sizes.tensor = Finish(unpadded);
  // TfLiteAffineQuantization {TfLiteFloatArray* scale; TfLiteIntArray* zero_point;
  // int32_t quantized_dimension;}
  sizes.affine_quantization = StructLayout(target, {F::kPointer, F::kPointer, F::kInt32});
  sizes.scratch_buffer_handle = StructLayout(target, {F::kPointer});
  sizes.subgraph_allocations = StructLayout(target, {F::kPointer, F::kPointer});
  // SingleArenaBufferAllocator: two interface vtable pointers, buffer_head_, buffer_tail_,
  // head_, tail_, temp_, temp_buffer_count_, resizable_buffer_allocated_.
  const Layout arena_allocator =
      StructLayout(target, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                            F::kPointer, F::kPointer, F::kSizeT, F::kBool});
  // GreedyMemoryPlanner: vtable, max_buffer_count_, buffer_count_, requirements_,
  // buffer_sizes_sorted_, buffer_ids_sorted_, buffers_sorted_by_offset_, next_free_entry_,
  // first_entry_index_, buffer_offsets_, need_to_calculate_offsets_.
  const Layout planner =
      StructLayout(target, {F::kPointer, F::kInt32, F::kInt32, F::kPointer, F::kPointer,
                            F::kPointer, F::kPointer, F::kInt32, F::kInt32, F::kPointer, F::kBool});
  // MicroAllocator: vtable, the two buffer allocators, the planner, the builtin data allocator,
  // model_is_allocating_, scratch_buffer_request_count_, max_head_buffer_usage_,
  // scratch_buffer_head_.
  const Layout allocator =
      StructLayout(target, {F::kPointer, F::kPointer, F::kPointer, F::kPointer, F::kPointer,
                            F::kBool, F::kSizeT, F::kSizeT, F::kPointer});
  const Layout builtin_data_allocator = StructLayout(target, {F::kPointer, F::kPointer});
  sizes.allocator_objects = arena_allocator.size + planner.size + allocator.size +
                            builtin_data_allocator.size + sizes.subgraph_allocations.size;
  return sizes;
}

}  // namespace tfa::tflm
