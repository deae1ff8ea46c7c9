// --input-shape NAME_OR_INDEX=D1,D2,... (repeatable) on the commands that plan a model, and the
// lines and JSON members that say which input dimensions were given and which were assumed.
#ifndef CLI_INPUT_SHAPE_ARGS_H_
#define CLI_INPUT_SHAPE_ARGS_H_

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libanalysis/model/graph.h"
#include "libanalysis/plan/input_shapes.h"

namespace tfa::cli {

// What --input-shape did to a model and which open dimensions kept the file's value.
struct InputShapesApplied {
  std::vector<InputShapeRequest> requests;
  ResizedInputs resized;
  std::vector<AssumedDimension> assumed;
};

class InputShapeArgs {
 public:
  void AddTo(CLI::App* command);
  // Parsed requests; throws CommandError on a malformed one.
  std::vector<InputShapeRequest> Requests() const;

 private:
  std::vector<std::string> specs_;
};

// Resizes `model`'s inputs (ResizeInputs) and names the assumed dimensions; throws CommandError.
InputShapesApplied ApplyInputShapesOrThrow(Model& model,
                                           const std::vector<InputShapeRequest>& requests,
                                           const std::string& signature_key);

// "input x: shape [4,16] (--input-shape)" and "input x: dimension 0 assumed 1 (...)" lines,
// after a blank line; empty when there are none.
std::string InputShapesText(const InputShapesApplied& applied, const Model& model);

// {"input_shapes": [...], "assumed_dimensions": [...]} members (docs/report-json.md).
nlohmann::ordered_json InputShapesJson(const InputShapesApplied& applied);

}  // namespace tfa::cli

#endif  // CLI_INPUT_SHAPE_ARGS_H_
