#include "cli/delegate_args.h"

#include <map>

#include "cli/command.h"
#include "libanalysis/core/key_value.h"

namespace tfa::cli {

void DelegateArgs::AddTo(CLI::App* command) {
  command_ = command;
  delegate_ = command->add_option(
      "--delegate",
      "Delegate to apply (repeatable, in order): gpu, xnnpack, nnapi, add-sub, sin, ops=A,B, "
      "nodes=i,j, or a profile JSON file");
  delegate_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_size(1)
      ->allow_extra_args(false);
  max_partitions_ = command->add_option(
      "--max-partitions", "For the preceding --delegate: keep the N largest partitions");
  max_partitions_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_size(1)
      ->allow_extra_args(false);
  min_nodes_ = command->add_option("--min-nodes-per-partition",
                                   "For the preceding --delegate: drop smaller partitions");
  min_nodes_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_size(1)
      ->allow_extra_args(false);
  no_greedy_ = command->add_flag("--no-greedy")
                   ->description("For the preceding --delegate: non-greedy clustering");
  option_ = command->add_option(
      "--delegate-option", "For the preceding --delegate: KEY=VALUE (e.g. allow_quant_ops=false)");
  option_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->type_size(1)
      ->allow_extra_args(false);
}

std::vector<DelegateRequest> DelegateArgs::Requests() const {
  std::vector<DelegateRequest> requests;
  std::map<const CLI::Option*, size_t> taken;
  auto next_value = [&](const CLI::Option* option) -> std::string {
    const auto& results = option->results();
    const size_t i = taken[option]++;
    return i < results.size() ? results[i] : std::string();
  };
  auto to_int = [](const std::string& flag, const std::string& value) {
    try {
      size_t used = 0;
      const long long v = std::stoll(value, &used);
      if (used == value.size() && v >= INT32_MIN && v <= INT32_MAX) return static_cast<int32_t>(v);
    } catch (const std::exception&) {
    }
    throw CommandError{flag + ": expected an integer, got \"" + value + "\""};
  };
  for (const CLI::Option* option : command_->parse_order()) {
    if (option == delegate_) {
      DelegateRequest request;
      request.spec = next_value(option);
      requests.push_back(std::move(request));
      continue;
    }
    if (option != max_partitions_ && option != min_nodes_ && option != no_greedy_ &&
        option != option_)
      continue;
    if (requests.empty()) {
      throw CommandError{option->get_name() + " must follow the --delegate it applies to"};
    }
    DelegateRequest& current = requests.back();
    if (option == max_partitions_) {
      current.max_partitions = to_int("--max-partitions", next_value(option));
    } else if (option == min_nodes_) {
      current.min_nodes_per_partition = to_int("--min-nodes-per-partition", next_value(option));
    } else if (option == no_greedy_) {
      current.no_greedy = true;
    } else {
      const std::string kv = next_value(option);
      auto split = SplitKeyValue(kv);
      if (!split) throw CommandError{"--delegate-option: expected KEY=VALUE, got \"" + kv + "\""};
      current.options.push_back(std::move(*split));
    }
  }
  return requests;
}

}  // namespace tfa::cli
