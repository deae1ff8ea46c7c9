// Writes a .tflite in the form models over 2 GB use (issue 18): the flatbuffer holds the graph and
// every weight lives after it, named by Buffer.offset/size. The weight bytes are a hole in the
// file (written sparse): a 4 GB model costs a few KB of disk.
//
// usage: gen_large_model OUT.tflite [LAYERS] [WIDTH]
// A chain of LAYERS FULLY_CONNECTED nodes over [1, WIDTH] activations, each with a
// [WIDTH, WIDTH] float32 weight (default 64 x 4096: 64 weights of 64 MiB, 4 GiB in all).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "libanalysis/model/tflite_schema_generated.h"

namespace {

constexpr int32_t kFullyConnected = 9;  // upstream's BuiltinOperator_FULLY_CONNECTED

tflite::ModelT ChainModel(int layers, int width) {
  tflite::ModelT m;
  m.version = 3;
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = kFullyConnected;
  code->deprecated_builtin_code = static_cast<int8_t>(kFullyConnected);
  m.operator_codes.push_back(std::move(code));
  m.buffers.push_back(std::make_unique<tflite::BufferT>());  // buffer 0: no data, as upstream
  auto sg = std::make_unique<tflite::SubGraphT>();
  auto tensor = [&](const std::string& name, std::vector<int32_t> shape, uint32_t buffer) {
    auto t = std::make_unique<tflite::TensorT>();
    t->name = name;
    t->shape = std::move(shape);
    t->buffer = buffer;
    sg->tensors.push_back(std::move(t));
    return static_cast<int32_t>(sg->tensors.size() - 1);
  };
  int32_t x = tensor("x0", {1, width}, 0);
  sg->inputs = {x};
  for (int i = 0; i < layers; ++i) {
    auto buffer = std::make_unique<tflite::BufferT>();
    buffer->offset = 2;  // placed once the flatbuffer's size is known
    buffer->size = uint64_t{4} * static_cast<uint64_t>(width) * static_cast<uint64_t>(width);
    m.buffers.push_back(std::move(buffer));
    const int32_t w = tensor("w" + std::to_string(i), {width, width},
                             static_cast<uint32_t>(m.buffers.size() - 1));
    const int32_t y = tensor("x" + std::to_string(i + 1), {1, width}, 0);
    auto op = std::make_unique<tflite::OperatorT>();
    op->inputs = {x, w, -1};
    op->outputs = {y};
    op->builtin_options.Set(tflite::FullyConnectedOptionsT{});
    sg->operators.push_back(std::move(op));
    x = y;
  }
  sg->outputs = {x};
  m.subgraphs.push_back(std::move(sg));
  return m;
}

size_t Pack(const tflite::ModelT& m, flatbuffers::FlatBufferBuilder& fbb) {
  fbb.Clear();
  fbb.Finish(tflite::Model::Pack(fbb, &m), tflite::ModelIdentifier());
  return fbb.GetSize();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT.tflite [LAYERS] [WIDTH]\n", argv[0]);
    return 2;
  }
  const int layers = argc > 2 ? std::atoi(argv[2]) : 64;
  const int width = argc > 3 ? std::atoi(argv[3]) : 4096;
  if (layers < 1 || width < 1) {
    std::fprintf(stderr, "LAYERS and WIDTH must be positive\n");
    return 2;
  }
  tflite::ModelT m = ChainModel(layers, width);
  flatbuffers::FlatBufferBuilder fbb;
  const size_t flatbuffer_size = Pack(m, fbb);
  // Weights start 64-byte aligned after the flatbuffer; the offsets' width does not change the
  // flatbuffer's size (they are present, 8 bytes, in both packings).
  uint64_t next = (flatbuffer_size + 63) / 64 * 64;
  for (size_t b = 1; b < m.buffers.size(); ++b) {
    m.buffers[b]->offset = next;
    next += m.buffers[b]->size;
  }
  if (Pack(m, fbb) != flatbuffer_size) {
    std::fprintf(stderr, "flatbuffer size changed when the offsets were set\n");
    return 1;
  }
  const int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 ||
      write(fd, fbb.GetBufferPointer(), fbb.GetSize()) != static_cast<ssize_t>(fbb.GetSize()) ||
      ftruncate(fd, static_cast<off_t>(next)) != 0 || close(fd) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  std::printf("%s: %llu bytes (%zu of flatbuffer, %d weights of %llu bytes, sparse)\n", argv[1],
              static_cast<unsigned long long>(next), flatbuffer_size, layers,
              static_cast<unsigned long long>(m.buffers[1]->size));
  return 0;
}
