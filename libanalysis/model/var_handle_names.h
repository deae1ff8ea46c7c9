// The names VAR_HANDLE nodes give their resource variables (VarHandleOptions container and
// shared_name): what makes two handles, in any subgraph, the same variable. The Graph IR does not
// carry them, so they are read from the .tflite file on their own, only for models that have
// VAR_HANDLE nodes (the runtime's resource variables and the TFLM replay's both need them).
#ifndef LIBANALYSIS_MODEL_VAR_HANDLE_NAMES_H_
#define LIBANALYSIS_MODEL_VAR_HANDLE_NAMES_H_

#include <map>
#include <string>
#include <utility>

#include "libanalysis/core/status.h"
#include "libanalysis/model/invoke_facts.h"

namespace tfa {

// (container, shared_name) of every VAR_HANDLE node, by subgraph and node index.
using VarHandleNames = std::map<NodeRef, std::pair<std::string, std::string>>;

[[nodiscard]] Result<VarHandleNames> VarHandleNamesOfFile(const std::string& model_path);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_VAR_HANDLE_NAMES_H_
