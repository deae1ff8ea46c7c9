// Any bytes given to the .npy reader (run --input) yield an array whose data lies inside the
// input, or a one-line error; a parsed array encodes back without error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "runtime/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> file(data, size);
  auto array = tfa::runtime::ParseNpy(file);
  if (!array.ok()) return 0;
  if (array->data.data() < data || array->data.data() + array->data.size() > data + size)
    std::abort();
  std::vector<int32_t> shape(array->shape.begin(), array->shape.end());
  auto encoded = tfa::runtime::EncodeNpy(array->type, shape, array->data);
  if (!encoded.ok()) std::abort();
  return 0;
}
