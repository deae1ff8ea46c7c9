#include "runtime/tensor_files.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <system_error>

#include "libanalysis/plan/input_names.h"

namespace tfa::runtime {
namespace {

constexpr uint64_t kMaxInputFileBytes = uint64_t{1} << 31;

std::string ShapeText(std::span<const int32_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Result<std::vector<uint8_t>> ReadFile(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) return Status::Error("cannot read " + path + ": " + error.message());
  if (size > kMaxInputFileBytes)
    return Status::Error(path + " has " + std::to_string(size) + " bytes, above 2 GiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open " + path + ": " + std::strerror(errno));
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) return Status::Error("cannot read " + path);
  return bytes;
}

}  // namespace

Result<InputFile> ReadTensorFile(const std::string& path, const Subgraph& graph, int32_t tensor,
                                 const std::string& context) {
  InputFile input;
  input.tensor = tensor;
  input.path = path;
  auto bytes = ReadFile(input.path);
  if (!bytes.ok()) return bytes.status().WithContext(context);
  input.bytes = std::move(*bytes);
  auto array = ParseNpy(input.bytes);
  if (!array.ok()) return array.status().WithContext(context);
  input.array = *array;
  const Tensor& t = graph.tensors.at(static_cast<size_t>(input.tensor));
  const std::string wanted = std::string(TensorTypeName(t.type)) + " " + ShapeText(t.shape);
  const std::vector<int64_t> shape(t.shape.begin(), t.shape.end());
  if (input.array.type != t.type || input.array.shape != shape) {
    return Status::Error(context + ": the file holds " + TensorTypeName(input.array.type) + " " +
                         ShapeText(input.array.shape) + " ('" + input.array.descr + "'), '" +
                         t.name + "' (tensor " + std::to_string(input.tensor) + ") is " + wanted);
  }
  return input;
}

Result<InputFile> ReadInputFile(const std::string& spec, const Subgraph& graph,
                                const std::vector<const SignatureDef*>& signatures) {
  const size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
    return Status::Error("--input " + spec + ": expected NAME_OR_INDEX=FILE.npy");
  const std::string key = spec.substr(0, equals);
  const std::string context = "--input " + spec;
  auto input = FindNamedInput(graph, signatures, key);
  if (!input.ok()) return input.status().WithContext(context);
  return ReadTensorFile(spec.substr(equals + 1), graph, input->tensor, context);
}

Status CopyInputFile(const InputFile& input, Interpreter& interpreter) {
  RuntimeTensor& tensor = interpreter.tensor(input.tensor);
  if (tensor.bytes != input.array.data.size() || (tensor.bytes > 0 && !tensor.data)) {
    return Status::Error(input.path + ": " + std::to_string(input.array.data.size()) +
                         " bytes for input tensor " + std::to_string(input.tensor) + " of " +
                         std::to_string(tensor.bytes));
  }
  if (tensor.bytes > 0) std::memcpy(tensor.data, input.array.data.data(), tensor.bytes);
  return Status::Ok();
}

std::string OutputFileName(int32_t tensor, const std::string& name) {
  constexpr size_t kMaxNameChars = 100;
  std::string clean;
  for (char c : name.substr(0, kMaxNameChars)) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    clean += plain ? c : '_';
  }
  return std::to_string(tensor) + "_" + clean + ".npy";
}

Result<std::vector<std::string>> WriteOutputFiles(const std::string& dir,
                                                  const std::vector<OutputFile>& outputs) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return Status::Error("--output-dir " + dir + ": " + error.message());
  std::vector<std::string> written;
  auto failed = [&](const std::string& what) {
    std::string message = "--output-dir " + dir + ": " + what;
    if (written.empty()) return Status::Error(message + " (no file written)");
    message += " (written before: ";
    for (size_t i = 0; i < written.size(); ++i) {
      if (i > 0) message += ", ";
      message += written[i];
    }
    return Status::Error(message + ")");
  };
  for (const OutputFile& output : outputs) {
    const RuntimeTensor& t = *output.data;
    auto encoded = EncodeNpy(t.type, t.shape, std::span<const uint8_t>(t.data, t.bytes));
    if (!encoded.ok())
      return failed("tensor " + std::to_string(output.tensor) + ": " + encoded.status().message());
    const std::string path = (fs::path(dir) / OutputFileName(output.tensor, output.name)).string();
    const std::string partial = path + ".partial";
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      if (out) {
        out.write(reinterpret_cast<const char*>(encoded->data()),
                  static_cast<std::streamsize>(encoded->size()));
        out.close();
      }
      if (!out) {
        const std::string reason = std::strerror(errno);
        fs::remove(partial, error);
        return failed("cannot write " + path + ": " + reason);
      }
    }
    fs::rename(partial, path, error);
    if (error) {
      fs::remove(partial, error);
      return failed("cannot write " + path + ": " + error.message());
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace tfa::runtime
