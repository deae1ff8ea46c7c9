#include "libanalysis/tflm/offline_memory_plan.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"

namespace tfa::tflm {
namespace {

constexpr uint64_t kMaxFlatbufferBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 64;
constexpr flatbuffers::uoffset_t kVerifierMaxTables = 50'000'000;
constexpr size_t kHeaderWords = 3;  // version, subgraphs, count
// The Model table's fields (schema order): version, then seven offsets.
constexpr size_t kModelFields = 8;
constexpr size_t kBuffersField = 4;
constexpr size_t kMetadataField = 6;

uint32_t ReadWord(const uint8_t* data) {
  return static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 |
         static_cast<uint32_t>(data[2]) << 16 | static_cast<uint32_t>(data[3]) << 24;
}

Result<const tflite::Model*> VerifiedModel(std::span<const uint8_t> file,
                                           const std::string& source) {
  if (file.size() < 8 ||
      !flatbuffers::BufferHasIdentifier(file.data(), tflite::ModelIdentifier())) {
    return Status::Error(source + ": not a .tflite model");
  }
  const size_t verified = static_cast<size_t>(std::min<uint64_t>(file.size(), kMaxFlatbufferBytes));
  flatbuffers::Verifier verifier(file.data(), verified, kVerifierMaxDepth, kVerifierMaxTables);
  if (!tflite::VerifyModelBuffer(verifier)) {
    return Status::Error(source + ": flatbuffer verification failed (truncated or corrupted file)");
  }
  return tflite::GetModel(file.data());
}

bool IsOfflinePlanName(const flatbuffers::String* name) {
  return name != nullptr && name->str() == kOfflineMemoryAllocation;
}

// Little-endian bytes written at positions fixed in advance: the prefix WithOfflinePlan puts
// before the unchanged model.
class Bytes {
 public:
  explicit Bytes(size_t size) : bytes_(size, 0) {}
  void U16(size_t at, uint16_t value) {
    bytes_[at] = static_cast<uint8_t>(value);
    bytes_[at + 1] = static_cast<uint8_t>(value >> 8);
  }
  void U32(size_t at, uint32_t value) {
    for (size_t i = 0; i < 4; ++i) bytes_[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }
  // A uoffset_t at `at` to the absolute position `target` (always forward).
  void Offset(size_t at, uint64_t target) { U32(at, static_cast<uint32_t>(target - at)); }
  std::vector<uint8_t>& data() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Flatbuffers reads scalars in place and assumes an aligned start (as ParseTflite does, a span
// into the middle of another buffer is read from an aligned copy; found by fuzz_tflm).
bool IsFlatbufferAligned(std::span<const uint8_t> file) {
  constexpr uintptr_t kFlatbufferAlignment = 16;
  return reinterpret_cast<uintptr_t>(file.data()) % kFlatbufferAlignment == 0;
}

uint64_t Align(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

Result<std::optional<OfflinePlan>> ReadOfflinePlan(std::span<const uint8_t> file,
                                                   const std::string& source) {
  if (!IsFlatbufferAligned(file)) {
    const std::vector<uint8_t> aligned(file.begin(), file.end());
    return ReadOfflinePlan(aligned, source);
  }
  auto model = VerifiedModel(file, source);
  if (!model.ok()) return model.status();
  const tflite::Model* fb = *model;
  std::optional<OfflinePlan> plan;
  if (!fb->metadata()) return plan;
  uint64_t tensors = 0;
  if (fb->subgraphs()) {
    for (const tflite::SubGraph* subgraph : *fb->subgraphs()) {
      tensors += subgraph->tensors() ? subgraph->tensors()->size() : 0;
    }
  }
  const size_t buffers = fb->buffers() ? fb->buffers()->size() : 0;
  // Upstream walks every entry and keeps the last of that name, checking each one's count
  // (micro_allocation_info.cc GetOfflinePlannedOffsets).
  for (const tflite::Metadata* entry : *fb->metadata()) {
    if (!IsOfflinePlanName(entry->name())) continue;
    const std::string what = source + ": metadata \"" + kOfflineMemoryAllocation + "\"";
    if (entry->buffer() >= buffers) {
      return Status::Error(what + " names buffer " + std::to_string(entry->buffer()) + " of " +
                           std::to_string(buffers));
    }
    const tflite::Buffer* buffer = fb->buffers()->Get(entry->buffer());
    if (buffer->offset() > 1 || !buffer->data()) {
      return Status::Error(what +
                           ": its buffer has no data in the flatbuffer, where TFLite Micro "
                           "reads it");
    }
    const uint8_t* data = buffer->data()->data();
    const uint64_t bytes = buffer->data()->size();
    if (bytes < kHeaderWords * 4) {
      return Status::Error(what + ": " + std::to_string(bytes) +
                           " bytes, shorter than its 12-byte header");
    }
    const uint64_t count = ReadWord(data + 8);
    if (bytes < (kHeaderWords + count) * 4) {
      return Status::Error(what + ": " + std::to_string(bytes) + " bytes cannot hold the " +
                           std::to_string(count) + " offsets it announces");
    }
    if (count != tensors) {
      return Status::Error(what + ": TFLite Micro refuses it: Nbr of offline buffer offsets (" +
                           std::to_string(count) + ") in metadata not equal nbr tensors (" +
                           std::to_string(tensors) + ")");
    }
    OfflinePlan read;
    read.version = static_cast<int32_t>(ReadWord(data));
    read.subgraphs = static_cast<int32_t>(ReadWord(data + 4));
    read.offsets.resize(static_cast<size_t>(count));
    for (size_t i = 0; i < read.offsets.size(); ++i) {
      read.offsets[i] = static_cast<int32_t>(ReadWord(data + (kHeaderWords + i) * 4));
    }
    plan = std::move(read);
  }
  return plan;
}

Result<std::optional<OfflinePlan>> ReadOfflinePlanOfFile(const std::string& path) {
  auto bytes = ReadFileBytes(path, LoadOptions{}.max_file_bytes);
  if (!bytes.ok()) return bytes.status();
  return ReadOfflinePlan(*bytes, path);
}

std::vector<uint8_t> EncodeOfflinePlan(const OfflinePlan& plan) {
  Bytes out((kHeaderWords + plan.offsets.size()) * 4);
  out.U32(0, static_cast<uint32_t>(plan.version));
  out.U32(4, static_cast<uint32_t>(plan.subgraphs));
  out.U32(8, static_cast<uint32_t>(plan.offsets.size()));
  for (size_t i = 0; i < plan.offsets.size(); ++i) {
    out.U32((kHeaderWords + i) * 4, static_cast<uint32_t>(plan.offsets[i]));
  }
  return std::move(out.data());
}

// The project's schema declares only what the analyser reads, so the model is not re-serialized:
// a new root Model table, buffers and metadata vectors, the metadata entry and the plan's buffer
// go in a prefix, and the old file follows unchanged. FlatBuffers offsets are relative and point
// forward, so the prefix can point at every old table and the old bytes keep their meaning; the
// prefix is a multiple of 16 bytes so that 16-aligned weights stay aligned.
Result<std::vector<uint8_t>> WithOfflinePlan(std::span<const uint8_t> file, const OfflinePlan& plan,
                                             const std::string& source) {
  if (!IsFlatbufferAligned(file)) {
    const std::vector<uint8_t> aligned(file.begin(), file.end());
    return WithOfflinePlan(aligned, plan, source);
  }
  auto model = VerifiedModel(file, source);
  if (!model.ok()) return model.status();
  const tflite::Model* fb = *model;
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(fb);
  const uint8_t* vtable = table->GetVTable();
  const size_t vtable_fields = (flatbuffers::ReadScalar<uint16_t>(vtable) - 4u) / 2u;
  for (size_t field = kModelFields; field < vtable_fields; ++field) {
    if (flatbuffers::ReadScalar<uint16_t>(vtable + 4 + 2 * field) != 0) {
      return Status::Error(source + ": its Model table has fields this writer does not know");
    }
  }
  const size_t buffers = fb->buffers() ? fb->buffers()->size() : 0;
  if (fb->buffers()) {
    for (const tflite::Buffer* buffer : *fb->buffers()) {
      if (buffer->offset() > 1) {
        return Status::Error(source +
                             ": a model over 2 GB (buffers outside the flatbuffer) is "
                             "not rewritten");
      }
    }
  }
  std::vector<uint64_t> kept_metadata;  // old positions of the Metadata tables kept
  if (fb->metadata()) {
    for (const tflite::Metadata* entry : *fb->metadata()) {
      if (IsOfflinePlanName(entry->name())) continue;
      kept_metadata.push_back(
          static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(entry) - file.data()));
    }
  }
  const std::vector<uint8_t> data = EncodeOfflinePlan(plan);
  const size_t name_length = std::strlen(kOfflineMemoryAllocation);

  // The prefix, in order: root offset and identifier, the Model vtable and table, the buffers
  // vector, the metadata vector, the Metadata vtable, table and name, the Buffer vtable and
  // table, the plan's data vector (its data 16-aligned).
  const uint64_t model_vtable = 8;
  const uint64_t model_table = model_vtable + 4 + 2 * kModelFields;
  const uint64_t buffers_vector = model_table + 4 + 4 * kModelFields;
  const uint64_t metadata_vector = buffers_vector + 4 + 4 * (buffers + 1);
  const uint64_t metadata_vtable = metadata_vector + 4 + 4 * (kept_metadata.size() + 1);
  const uint64_t metadata_table = metadata_vtable + 8;
  const uint64_t name_string = metadata_table + 12;
  const uint64_t buffer_vtable = Align(name_string + 4 + name_length + 1, 4);
  const uint64_t buffer_table = buffer_vtable + 8;
  const uint64_t plan_data = Align(buffer_table + 8 + 4, 16);
  const uint64_t prefix = Align(plan_data + data.size(), 16);
  if (prefix + file.size() > kMaxFlatbufferBytes) {
    return Status::Error(source + ": the model with its plan would pass FlatBuffers' 2 GB limit");
  }

  Bytes out(static_cast<size_t>(prefix));
  auto old = [&](const void* at) {
    return prefix + static_cast<uint64_t>(static_cast<const uint8_t*>(at) - file.data());
  };
  out.Offset(0, model_table);
  std::memcpy(out.data().data() + 4, tflite::ModelIdentifier(), 4);
  out.U16(model_vtable, static_cast<uint16_t>(4 + 2 * kModelFields));
  out.U16(model_vtable + 2, static_cast<uint16_t>(4 + 4 * kModelFields));
  out.U32(model_table, static_cast<uint32_t>(model_table - model_vtable));
  for (size_t field = 0; field < kModelFields; ++field) {
    const uint64_t slot = model_table + 4 + 4 * field;
    const auto voffset = static_cast<flatbuffers::voffset_t>(4 + 2 * field);
    const bool replaced = field == kBuffersField || field == kMetadataField;
    const uint16_t present = table->GetOptionalFieldOffset(voffset);
    if (!replaced && present == 0) continue;
    out.U16(model_vtable + 4 + 2 * field, static_cast<uint16_t>(4 + 4 * field));
    if (field == kBuffersField) {
      out.Offset(slot, buffers_vector);
    } else if (field == kMetadataField) {
      out.Offset(slot, metadata_vector);
    } else if (field == 0) {
      out.U32(slot, fb->version());
    } else {
      const uint8_t* at = reinterpret_cast<const uint8_t*>(table) + present;
      out.Offset(slot, old(at + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(at)));
    }
  }
  out.U32(buffers_vector, static_cast<uint32_t>(buffers + 1));
  for (size_t b = 0; b < buffers; ++b) {
    out.Offset(buffers_vector + 4 + 4 * b, old(fb->buffers()->Get(static_cast<uint32_t>(b))));
  }
  out.Offset(buffers_vector + 4 + 4 * buffers, buffer_table);
  out.U32(metadata_vector, static_cast<uint32_t>(kept_metadata.size() + 1));
  for (size_t m = 0; m < kept_metadata.size(); ++m) {
    out.Offset(metadata_vector + 4 + 4 * m, prefix + kept_metadata[m]);
  }
  out.Offset(metadata_vector + 4 + 4 * kept_metadata.size(), metadata_table);
  out.U16(metadata_vtable, 8);  // two fields: name, buffer
  out.U16(metadata_vtable + 2, 12);
  out.U16(metadata_vtable + 4, 4);
  out.U16(metadata_vtable + 6, 8);
  out.U32(metadata_table, static_cast<uint32_t>(metadata_table - metadata_vtable));
  out.Offset(metadata_table + 4, name_string);
  out.U32(metadata_table + 8, static_cast<uint32_t>(buffers));
  out.U32(name_string, static_cast<uint32_t>(name_length));
  std::memcpy(out.data().data() + name_string + 4, kOfflineMemoryAllocation, name_length);
  out.U16(buffer_vtable, 6);  // one field: data
  out.U16(buffer_vtable + 2, 8);
  out.U16(buffer_vtable + 4, 4);
  out.U32(buffer_table, static_cast<uint32_t>(buffer_table - buffer_vtable));
  out.Offset(buffer_table + 4, plan_data - 4);
  out.U32(plan_data - 4, static_cast<uint32_t>(data.size()));
  std::copy(data.begin(), data.end(), out.data().begin() + static_cast<ptrdiff_t>(plan_data));

  std::vector<uint8_t> result = std::move(out.data());
  result.insert(result.end(), file.begin(), file.end());
  if (auto check = VerifiedModel(result, source + " (with its plan)"); !check.ok()) {
    return check.status();
  }
  return result;
}

}  // namespace tfa::tflm
