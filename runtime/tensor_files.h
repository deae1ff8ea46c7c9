// A run's data in and out as .npy files (npy.h): `run --input NAME_OR_INDEX=FILE.npy` and
// `--output-dir DIR`.
#ifndef RUNTIME_TENSOR_FILES_H_
#define RUNTIME_TENSOR_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"
#include "runtime/interpreter.h"
#include "runtime/npy.h"

namespace tfa::runtime {

struct InputFile {
  int32_t tensor = -1;  // the input's tensor index in its subgraph
  std::string path;
  std::vector<uint8_t> bytes;  // the whole file
  NpyArray array;              // points into `bytes`
};

// Reads "NAME_OR_INDEX=FILE.npy" for an input of `graph` (the subgraph a run enters), the input
// named as --input-shape names it (libanalysis/plan/input_names.h: its tensor name or its key in
// one of `signatures`, its position among the inputs, or #T for tensor T). The file's dtype, byte
// order and shape must be the tensor's. Errors name the spec and say why.
[[nodiscard]] Result<InputFile> ReadInputFile(const std::string& spec, const Subgraph& graph,
                                              const std::vector<const SignatureDef*>& signatures);

// Reads the .npy file `path` for tensor `tensor` of `graph`, whose dtype and shape it must have
// (e.g. a reference output); errors start with `context`.
[[nodiscard]] Result<InputFile> ReadTensorFile(const std::string& path, const Subgraph& graph,
                                               int32_t tensor, const std::string& context);

// Copies the file's data into the interpreter's input tensor (of the same byte size).
[[nodiscard]] Status CopyInputFile(const InputFile& input, Interpreter& interpreter);

// "<tensor index>_<name>.npy", the name's characters other than letters, digits, '-', '_' and
// '.' replaced by '_' (and cut to 100), so any tensor name makes one plain file name.
std::string OutputFileName(int32_t tensor, const std::string& name);

struct OutputFile {
  int32_t tensor = -1;
  std::string name;
  const RuntimeTensor* data = nullptr;
};

// Writes every output into `dir` (made when missing) and returns the paths written. Each file is
// written under a temporary name and renamed, so none is left half-written; on an error, the
// message names the files written before it.
[[nodiscard]] Result<std::vector<std::string>> WriteOutputFiles(
    const std::string& dir, const std::vector<OutputFile>& outputs);

}  // namespace tfa::runtime

#endif  // RUNTIME_TENSOR_FILES_H_
