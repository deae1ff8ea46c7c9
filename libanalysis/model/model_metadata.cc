#include "libanalysis/model/model_metadata.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "libanalysis/core/checked_math.h"
#include "libanalysis/model/model_loader.h"
#include "libanalysis/model/tflite_schema_generated.h"

namespace tfa {
namespace {

// As the loader verifies (tflite_loader.cc).
constexpr uint64_t kMaxFlatbufferBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 64;
constexpr flatbuffers::uoffset_t kVerifierMaxTables = 50'000'000;

std::optional<std::string> PrintableText(const uint8_t* data, uint64_t size) {
  while (size > 0 && data[size - 1] == 0) --size;
  if (size == 0 || size > kMaxMetadataText) return std::nullopt;
  const bool printable =
      std::all_of(data, data + size, [](uint8_t c) { return c >= 0x20 && c < 0x7f; });
  if (!printable) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
}

bool LooksLikeJson(std::span<const uint8_t> file) {
  auto first = std::find_if(file.begin(), file.end(), [](uint8_t c) {
    return c != ' ' && c != '\n' && c != '\r' && c != '\t';
  });
  return first != file.end() && *first == '{';
}

}  // namespace

Result<std::vector<MetadataEntry>> ReadMetadataEntries(std::span<const uint8_t> file,
                                                       const std::string& source) {
  const auto error = [&](const std::string& what) { return Status::Error(source + ": " + what); };
  if (file.size() < 8 ||
      !flatbuffers::BufferHasIdentifier(file.data(), tflite::ModelIdentifier())) {
    return error("not a .tflite model");
  }
  const size_t verified = static_cast<size_t>(std::min<uint64_t>(file.size(), kMaxFlatbufferBytes));
  flatbuffers::Verifier verifier(file.data(), verified, kVerifierMaxDepth, kVerifierMaxTables);
  if (!tflite::VerifyModelBuffer(verifier)) {
    return error("flatbuffer verification failed (truncated or corrupted file)");
  }
  const tflite::Model* fb = tflite::GetModel(file.data());
  std::vector<MetadataEntry> entries;
  if (!fb->metadata()) return entries;
  const size_t buffers = fb->buffers() ? fb->buffers()->size() : 0;
  for (const tflite::Metadata* m : *fb->metadata()) {
    MetadataEntry entry{m->name() ? m->name()->str() : std::string(), m->buffer()};
    if (entry.buffer >= buffers) {
      return error("metadata \"" + entry.name + "\" names buffer " + std::to_string(entry.buffer) +
                   " of " + std::to_string(buffers));
    }
    const tflite::Buffer* b = fb->buffers()->Get(entry.buffer);
    const uint8_t* data = nullptr;
    if (b->offset() > 1) {
      // Models over 2 GB keep buffers after the flatbuffer, by offset and size.
      const auto end = CheckedAdd(b->offset(), b->size());
      if (!end || *end > file.size()) {
        return error("metadata \"" + entry.name + "\": buffer " + std::to_string(entry.buffer) +
                     " extends beyond the end of the file");
      }
      data = file.data() + b->offset();
      entry.bytes = b->size();
    } else if (b->data()) {
      data = b->data()->data();
      entry.bytes = b->data()->size();
    }
    if (data != nullptr) entry.text = PrintableText(data, entry.bytes);
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<std::vector<MetadataEntry>> ReadMetadataEntriesOfFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open file: " + std::strerror(errno));
  struct stat st {};
  const bool mappable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  void* mapped = mappable
                     ? mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                     : MAP_FAILED;
  close(fd);
  if (mapped == MAP_FAILED) {
    auto bytes = ReadFileBytes(path, LoadOptions{}.max_file_bytes);
    if (!bytes.ok()) return bytes.status();
    if (LooksLikeJson(*bytes)) return std::vector<MetadataEntry>{};
    return ReadMetadataEntries(*bytes, path);
  }
  const std::span file(static_cast<const uint8_t*>(mapped), static_cast<size_t>(st.st_size));
  auto entries = LooksLikeJson(file)
                     ? Result<std::vector<MetadataEntry>>(std::vector<MetadataEntry>{})
                     : ReadMetadataEntries(file, path);
  munmap(mapped, static_cast<size_t>(st.st_size));
  return entries;
}

}  // namespace tfa
