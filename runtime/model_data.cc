#include "runtime/model_data.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "libanalysis/model/tflite_schema_generated.h"

namespace tfa::runtime {
namespace {

// As the loader: the Verifier refuses flatbuffers above 2 GB, whose buffers live after them.
constexpr uint64_t kMaxFlatbufferBytes = (uint64_t{1} << 31) - 1;

std::vector<int32_t> IndexVector(tflite::SparseIndexVector type, const void* v) {
  switch (type) {
    case tflite::SparseIndexVector::Int32Vector: {
      const auto* values = static_cast<const tflite::Int32Vector*>(v)->values();
      if (values) return {values->begin(), values->end()};
      break;
    }
    case tflite::SparseIndexVector::Uint16Vector: {
      const auto* values = static_cast<const tflite::Uint16Vector*>(v)->values();
      if (values) return {values->begin(), values->end()};
      break;
    }
    case tflite::SparseIndexVector::Uint8Vector: {
      const auto* values = static_cast<const tflite::Uint8Vector*>(v)->values();
      if (values) return {values->begin(), values->end()};
      break;
    }
    default:
      break;
  }
  return {};
}

std::unique_ptr<Sparsity> ReadSparsity(const tflite::SparsityParameters& in) {
  auto s = std::make_unique<Sparsity>();
  if (in.traversal_order())
    s->traversal_order.assign(in.traversal_order()->begin(), in.traversal_order()->end());
  if (in.block_map()) s->block_map.assign(in.block_map()->begin(), in.block_map()->end());
  if (in.dim_metadata()) {
    for (const tflite::DimensionMetadata* d : *in.dim_metadata()) {
      SparseDimension dim;
      dim.dense = d->format() == tflite::DimensionType::DENSE;
      dim.dense_size = d->dense_size();
      if (!dim.dense) {
        dim.segments = IndexVector(d->array_segments_type(), d->array_segments());
        dim.indices = IndexVector(d->array_indices_type(), d->array_indices());
      }
      s->dimensions.push_back(std::move(dim));
    }
  }
  return s;
}

}  // namespace

ModelData::~ModelData() {
  if (file_) munmap(const_cast<uint8_t*>(file_), file_size_);
}

Result<std::unique_ptr<ModelData>> ModelData::Open(const std::string& path) {
  std::unique_ptr<ModelData> data(new ModelData());
  TFA_RETURN_IF_ERROR(data->Read(path).WithContext(path));
  return data;
}

Status ModelData::Read(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error("cannot open the file");
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    return Status::Error("cannot read the file size, or the file is empty");
  }
  void* mapped = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) return Status::Error("cannot map the file");
  file_ = static_cast<const uint8_t*>(mapped);
  file_size_ = static_cast<size_t>(st.st_size);

  flatbuffers::Verifier verifier(file_, std::min<size_t>(file_size_, kMaxFlatbufferBytes), 64,
                                 50'000'000);
  if (!tflite::VerifyModelBuffer(verifier)) return Status::Error("flatbuffer verification failed");
  const tflite::Model* model = tflite::GetModel(file_);
  if (!model->subgraphs()) return Status::Error("the model has no subgraphs");

  auto buffer_bytes = [&](uint32_t index) -> Result<std::span<const uint8_t>> {
    if (index == 0 || !model->buffers() || index >= model->buffers()->size())
      return std::span<const uint8_t>();
    const tflite::Buffer* b = model->buffers()->Get(index);
    if (b->offset() > 1) {
      if (b->offset() > file_size_ || b->size() > file_size_ - b->offset()) {
        return Status::Error("buffer " + std::to_string(index) +
                             " lies beyond the end of the file");
      }
      return std::span<const uint8_t>(file_ + b->offset(), b->size());
    }
    if (!b->data()) return std::span<const uint8_t>();
    return std::span<const uint8_t>(b->data()->data(), b->data()->size());
  };

  for (const tflite::SubGraph* sg : *model->subgraphs()) {
    auto& data = tensor_data_.emplace_back();
    auto& sparsity = sparsity_.emplace_back();
    if (sg->tensors()) {
      for (const tflite::Tensor* t : *sg->tensors()) {
        auto bytes = buffer_bytes(t->buffer());
        if (!bytes.ok()) return bytes.status();
        data.push_back(*bytes);
        sparsity.push_back(t->sparsity() ? ReadSparsity(*t->sparsity()) : nullptr);
      }
    }
    auto& nodes = nodes_.emplace_back();
    if (!sg->operators()) continue;
    for (const tflite::Operator* op : *sg->operators()) {
      NodeData n;
      if (op->large_custom_options_size() > 0) {
        const uint64_t offset = op->large_custom_options_offset();
        const uint64_t size = op->large_custom_options_size();
        if (offset > file_size_ || size > file_size_ - offset) {
          return Status::Error("custom options lie beyond the end of the file");
        }
        n.custom_options = std::span<const uint8_t>(file_ + offset, size);
      } else if (op->custom_options()) {
        n.custom_options =
            std::span<const uint8_t>(op->custom_options()->data(), op->custom_options()->size());
      }
      if (const auto* o = op->builtin_options_as_DepthToSpaceOptions())
        n.block_size = o->block_size();
      if (const auto* o = op->builtin_options_as_SpaceToDepthOptions())
        n.block_size = o->block_size();
      if (op->builtin_options_type() == tflite::BuiltinOptions::GeluOptions &&
          op->builtin_options()) {
        // The project's schema omits GeluOptions.approximate, upstream's field 0 (a bool).
        n.gelu_approximate =
            static_cast<const flatbuffers::Table*>(op->builtin_options())->GetField<uint8_t>(4, 0);
      }
      nodes.push_back(n);
    }
  }
  return Status::Ok();
}

std::span<const uint8_t> ModelData::TensorData(int32_t subgraph, int32_t tensor) const {
  const auto& data = tensor_data_.at(static_cast<size_t>(subgraph));
  if (tensor < 0 || static_cast<size_t>(tensor) >= data.size()) return {};
  return data[static_cast<size_t>(tensor)];
}

const Sparsity* ModelData::TensorSparsity(int32_t subgraph, int32_t tensor) const {
  const auto& sparsity = sparsity_.at(static_cast<size_t>(subgraph));
  if (tensor < 0 || static_cast<size_t>(tensor) >= sparsity.size()) return nullptr;
  return sparsity[static_cast<size_t>(tensor)].get();
}

const NodeData& ModelData::Node(int32_t subgraph, int32_t node) const {
  static const NodeData kNone;
  const auto& nodes = nodes_.at(static_cast<size_t>(subgraph));
  if (node < 0 || static_cast<size_t>(node) >= nodes.size()) return kNone;
  return nodes[static_cast<size_t>(node)];
}

}  // namespace tfa::runtime
