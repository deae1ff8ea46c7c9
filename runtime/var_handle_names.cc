#include "runtime/var_handle_names.h"

#include "libanalysis/model/var_handle_names.h"

namespace tfa::runtime {

// The same map as libanalysis's (both key (container, shared_name) by NodeRef), read there.
Result<VarHandleNames> ReadVarHandleNames(const std::string& model_path) {
  return VarHandleNamesOfFile(model_path);
}

}  // namespace tfa::runtime
