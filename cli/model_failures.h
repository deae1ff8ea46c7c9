// Several models in one command: a model that cannot be read or analysed must not cost the others
// their report or their gate. Each model's work runs through MapModels, which keeps the one-line
// error of a model that failed instead of ending the command; the command prints what it has for
// the rest, then names every model that failed on stderr (one line each) and exits 2.
#ifndef CLI_MODEL_FAILURES_H_
#define CLI_MODEL_FAILURES_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "libanalysis/core/parallel_map.h"

namespace tfa::cli {

// One model's outcome: its result, or the error that stopped it.
template <typename T>
struct ModelOutcome {
  std::optional<T> result;
  std::string error;  // one line naming the model; empty when `result` is set
};

// `error` as it names `path`: the message itself when it already starts with the path, else
// "PATH: message".
std::string ErrorNamingModel(const std::string& path, const std::string& error);

// fn(i) for every model, in parallel (ParallelMap), in order; a CommandError thrown for model i
// becomes its error, named by the model's path when several were given (one model's error stays
// the command's own message).
template <typename Fn>
auto MapModels(const std::vector<std::string>& paths, Fn fn,
               const std::function<void()>& on_done = {})
    -> std::vector<ModelOutcome<decltype(fn(size_t{0}))>> {
  using T = decltype(fn(size_t{0}));
  return ParallelMap(
      paths.size(),
      [&](size_t i) -> ModelOutcome<T> {
        try {
          return {fn(i), ""};
        } catch (const CommandError& e) {
          return {std::nullopt,
                  paths.size() > 1 ? ErrorNamingModel(paths[i], e.message) : e.message};
        }
      },
      on_done);
}

// The errors of the models that failed, in the order given.
template <typename T>
std::vector<std::string> ModelErrors(const std::vector<ModelOutcome<T>>& outcomes) {
  std::vector<std::string> errors;
  for (const ModelOutcome<T>& o : outcomes) {
    if (!o.result) errors.push_back(o.error);
  }
  return errors;
}

// Prints one "tflite-analyze: error: ..." line per error on stderr and throws CommandError with
// exit code 2 (and no message of its own) when there is any; does nothing otherwise.
void EndWithModelErrors(const std::vector<std::string>& errors);

}  // namespace tfa::cli

#endif  // CLI_MODEL_FAILURES_H_
