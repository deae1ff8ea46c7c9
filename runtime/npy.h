// NumPy's .npy format (format versions 1.0, 2.0 and 3.0), for tensors going in and out of `run`:
// a magic string, a version, a little-endian header length, a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (1, 64, 64, 4), } padded to 64 bytes, then
// the array's bytes in C order. ParseNpy reads untrusted files: every length and dimension is
// checked, the data must be exactly the shape's bytes, and nothing is allocated from the header.
#ifndef RUNTIME_NPY_H_
#define RUNTIME_NPY_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/tensor_type.h"

namespace tfa::runtime {

struct NpyArray {
  TensorType type = TensorType::kFloat32;
  std::string descr;  // as the file spells it, e.g. "<f4"
  std::vector<int64_t> shape;
  std::span<const uint8_t> data;  // points into the parsed bytes
};

// Errors say what is wrong: not a .npy file, a header that is not the dict above, a dtype with no
// tensor type or in big-endian byte order, Fortran order, a truncated file or trailing bytes.
[[nodiscard]] Result<NpyArray> ParseNpy(std::span<const uint8_t> file);

// A version 1.0 file of `data` (C order, little-endian). Errors for a type .npy has no code for.
[[nodiscard]] Result<std::vector<uint8_t>> EncodeNpy(TensorType type,
                                                     const std::vector<int32_t>& shape,
                                                     std::span<const uint8_t> data);

// The little-endian dtype code of a tensor type ("<f4", "|b1"), or an empty string.
std::string NpyDescr(TensorType type);

}  // namespace tfa::runtime

#endif  // RUNTIME_NPY_H_
