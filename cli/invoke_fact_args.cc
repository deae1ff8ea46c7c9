#include "cli/invoke_fact_args.h"

#include <charconv>
#include <optional>

#include "cli/command.h"

namespace tfa::cli {
namespace {

// The whole of `text` as a base-10 integer of type T, or nothing.
template <typename T>
std::optional<T> ParseInteger(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// One flag value "S:I=VALUE": subgraph S, node or tensor I (both >= 0) and the text after '='.
struct FactValue {
  int32_t subgraph = 0;
  int32_t index = 0;
  std::string value;
};

FactValue ParseFactValue(const std::string& flag, const std::string& form,
                         const std::string& text) {
  const CommandError malformed{flag + ": expected " + form + ", got \"" + text + "\""};
  const size_t colon = text.find(':');
  const size_t eq = text.find('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon) throw malformed;
  const auto subgraph = ParseInteger<int32_t>(text.substr(0, colon));
  const auto index = ParseInteger<int32_t>(text.substr(colon + 1, eq - colon - 1));
  if (!subgraph || !index || *subgraph < 0 || *index < 0) throw malformed;
  return {*subgraph, *index, text.substr(eq + 1)};
}

template <typename Map>
void ThrowIfGivenTwice(const std::string& flag, const Map& facts, const typename Map::key_type& key,
                       const FactValue& fact) {
  if (facts.count(key) > 0) {
    throw CommandError{flag + ": " + std::to_string(fact.subgraph) + ":" +
                       std::to_string(fact.index) + " given twice"};
  }
}

}  // namespace

void InvokeFactArgs::AddTo(CLI::App* command) {
  // One value per occurrence, so a flag does not swallow the model paths after it.
  command
      ->add_option("--if-condition", if_conditions_,
                   "S:N=true|false: IF node N of subgraph S takes its then (true) or else branch "
                   "in the first Invoke (repeatable)")
      ->type_size(1)
      ->allow_extra_args(false);
  command
      ->add_option("--while-iterations", while_iterations_,
                   "S:N=K: WHILE node N of subgraph S runs its body K >= 0 times (repeatable)")
      ->type_size(1)
      ->allow_extra_args(false);
  command
      ->add_option("--run-shape", run_shapes_,
                   "S:T=D1,D2,...: tensor T of subgraph S ends the first Invoke with this shape; "
                   "S:T= for a scalar (repeatable)")
      ->type_size(1)
      ->allow_extra_args(false);
}

InvokeFacts InvokeFactArgs::Facts() const {
  InvokeFacts facts;
  for (const std::string& text : if_conditions_) {
    const FactValue fact = ParseFactValue("--if-condition", "S:N=true|false", text);
    if (fact.value != "true" && fact.value != "false") {
      throw CommandError{"--if-condition: expected S:N=true|false, got \"" + text + "\""};
    }
    const NodeRef node{fact.subgraph, fact.index};
    ThrowIfGivenTwice("--if-condition", facts.if_conditions, node, fact);
    facts.if_conditions[node] = fact.value == "true";
  }
  for (const std::string& text : while_iterations_) {
    const FactValue fact = ParseFactValue("--while-iterations", "S:N=K", text);
    const auto iterations = ParseInteger<int64_t>(fact.value);
    if (!iterations) {
      throw CommandError{"--while-iterations: expected S:N=K, got \"" + text + "\""};
    }
    if (*iterations < 0) {
      throw CommandError{"--while-iterations: the count must be 0 or more, got \"" + text + "\""};
    }
    const NodeRef node{fact.subgraph, fact.index};
    ThrowIfGivenTwice("--while-iterations", facts.while_iterations, node, fact);
    facts.while_iterations[node] = *iterations;
  }
  for (const std::string& text : run_shapes_) {
    const FactValue fact = ParseFactValue("--run-shape", "S:T=D1,D2,...", text);
    std::vector<int32_t> shape;
    // "S:T=" is a scalar: no dimensions.
    for (size_t start = 0; !fact.value.empty();) {
      const size_t comma = fact.value.find(',', start);
      const auto dimension = ParseInteger<int32_t>(
          fact.value.substr(start, comma == std::string::npos ? comma : comma - start));
      if (!dimension || *dimension < 0) {
        throw CommandError{"--run-shape: expected S:T=D1,D2,... with dimensions 0 or more, got \"" +
                           text + "\""};
      }
      shape.push_back(*dimension);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    auto& shapes = facts.run_shapes[fact.subgraph];
    ThrowIfGivenTwice("--run-shape", shapes, fact.index, fact);
    shapes[fact.index] = std::move(shape);
  }
  return facts;
}

std::string FlagForMissingFact(const MissingFact& fact) {
  const std::string where =
      std::to_string(fact.where.subgraph) + ":" + std::to_string(fact.where.node);
  switch (fact.kind) {
    case MissingFact::Kind::kIfCondition:
      return "give it with --if-condition " + where + "=true|false";
    case MissingFact::Kind::kWhileIterations:
      return "give it with --while-iterations " + where + "=K";
    case MissingFact::Kind::kRunShapes:
      return "give them with --run-shape " + std::to_string(fact.where.subgraph) +
             ":T=D1,D2,... for each tensor whose shape changed";
  }
  return {};
}

}  // namespace tfa::cli
