#include "runtime/input_generator.h"

#include "runtime/interpreter.h"

namespace tfa::runtime {

void InputGenerator::Fill(RuntimeTensor& tensor) {
  if (!tensor.data) return;
  if (tensor.type == TensorType::kFloat32) {
    float* out = tensor.Data<float>();
    const uint64_t n = tensor.bytes / sizeof(float);
    for (uint64_t i = 0; i < n; ++i) out[i] = static_cast<float>(Next() / 4294967296.0 * 2.0 - 1.0);
    return;
  }
  if (tensor.type == TensorType::kBool) {
    for (uint64_t i = 0; i < tensor.bytes; ++i) tensor.data[i] = static_cast<uint8_t>(Next() >> 31);
    return;
  }
  for (uint64_t i = 0; i < tensor.bytes; ++i) tensor.data[i] = static_cast<uint8_t>(Next() >> 24);
}

void FillDeterministicInputs(Interpreter& interpreter, uint64_t seed) {
  InputGenerator generator(seed);
  for (int32_t input : interpreter.inputs()) {
    if (input >= 0) generator.Fill(interpreter.tensor(input));
  }
}

}  // namespace tfa::runtime
