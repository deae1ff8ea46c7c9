// The names VAR_HANDLE nodes give their resource variables (VarHandleOptions container and
// shared_name): what makes two handles, in any subgraph, the same variable. Neither the Graph IR
// nor ModelData's per-node data carries them, so they are read from the file on their own, only
// for models that have VAR_HANDLE nodes.
#ifndef RUNTIME_VAR_HANDLE_NAMES_H_
#define RUNTIME_VAR_HANDLE_NAMES_H_

#include <map>
#include <string>
#include <utility>

#include "libanalysis/core/status.h"
#include "libanalysis/model/invoke_facts.h"

namespace tfa::runtime {

// (container, shared_name) of every VAR_HANDLE node, by subgraph and node index.
using VarHandleNames = std::map<NodeRef, std::pair<std::string, std::string>>;

[[nodiscard]] Result<VarHandleNames> ReadVarHandleNames(const std::string& model_path);

}  // namespace tfa::runtime

#endif  // RUNTIME_VAR_HANDLE_NAMES_H_
