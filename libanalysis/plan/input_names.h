// How `--input-shape`, `run --input` and the Python API (`analyze(input_shapes=...)`,
// `run(inputs=...)`) name one input of the subgraph a run enters. One meaning everywhere:
//
//   NAME  the input's tensor name, or its key in a signature that runs the subgraph (the name
//         the report shows: `signature KEY: ... inputs NAME=#T`, `input NAME: dimension ...`);
//   N     its position in the subgraph's input list: 0 is the first input (Python: an int key);
//   #T    its tensor index T (quote it in a shell, where '#' starts a comment).
//
// A key that names two different inputs is refused rather than guessed: a name one input has as
// tensor name and another as signature key, or N where position N is one input and tensor N is
// another (before `run --input N` meant the tensor; now the position, unless ambiguous).
#ifndef LIBANALYSIS_PLAN_INPUT_NAMES_H_
#define LIBANALYSIS_PLAN_INPUT_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libanalysis/core/status.h"
#include "libanalysis/model/graph.h"

namespace tfa {

struct NamedInput {
  int32_t tensor = -1;
  // The name the report shows for it: its key in `signatures` when one names it, else the
  // tensor's name.
  std::string name;
};

// The signatures whose inputs name `subgraph`'s: the one `signature_key` names, or, when empty,
// every signature that runs `subgraph`.
std::vector<const SignatureDef*> SignaturesNamingInputs(const Model& model, int32_t subgraph,
                                                        const std::string& signature_key);

// The input of `graph` that `key` names (see above). Errors say why and list the inputs as
// "0 'name' (#T)".
[[nodiscard]] Result<NamedInput> FindNamedInput(const Subgraph& graph,
                                                const std::vector<const SignatureDef*>& signatures,
                                                std::string_view key);

}  // namespace tfa

#endif  // LIBANALYSIS_PLAN_INPUT_NAMES_H_
