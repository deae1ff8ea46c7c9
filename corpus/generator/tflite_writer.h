// Serializes a Graph IR Model to .tflite bytes, the inverse of ParseTflite for every field the
// loader reads: tensors (type, shape, shape_signature, quantization, is_variable, constant
// buffers), operators (operator codes, builtin options from OpOptions, custom options size),
// subgraphs, signature defs, metadata names and the description.
//
// The IR does not carry constant contents, so they come from ModelData; a constant tensor whose
// buffer has no entry there gets a zero-filled buffer of `Tensor::constant_bytes`. Fields the
// loader derives (bytes, allocation, inplace, side_effect, variables, execution_plan) are not
// written; an IR built with the loader's rules reads back equal to itself.
#ifndef CORPUS_GENERATOR_TFLITE_WRITER_H_
#define CORPUS_GENERATOR_TFLITE_WRITER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"

namespace tflite {
struct ModelT;
}  // namespace tflite

namespace tfa {

// What a .tflite file holds beyond the Graph IR.
struct ModelData {
  // Constant tensor contents by model buffer index (Tensor::buffer). Written as given, even when
  // the size disagrees with the tensor's shape, so that tests can write inconsistent files.
  std::map<int32_t, std::vector<uint8_t>> buffers;
  // Metadata contents by metadata name (e.g. "min_runtime_version"); names without an entry get
  // an empty buffer.
  std::map<std::string, std::vector<uint8_t>> metadata;
};

// The flatbuffers object form of `model`, for callers that alter it before packing (tests that
// write corrupt files). Buffer indices follow Tensor::buffer; a constant tensor with buffer 0
// gets a new buffer after the highest index in use. Metadata buffers come last.
tflite::ModelT ToModelT(const Model& model, const ModelData& data = {});

// Packs an object-form model into a finished .tflite file (file identifier "TFL3").
std::vector<uint8_t> PackTflite(const tflite::ModelT& model);

// ToModelT + PackTflite.
std::vector<uint8_t> WriteTflite(const Model& model, const ModelData& data = {});

}  // namespace tfa

#endif  // CORPUS_GENERATOR_TFLITE_WRITER_H_
