#include "cli/delegate_args.h"

#include <map>

#include "cli/command.h"
#include "cli/number_flags.h"
#include "libanalysis/core/key_value.h"
#include "libanalysis/plan/accelerator_request.h"

namespace tfa::cli {

void DelegateArgs::AddTo(CLI::App* command, const std::string& prefix) {
  command_ = command;
  const std::string dashes = "--" + prefix;
  const std::string preceding = "For the preceding " + dashes + "delegate: ";
  // One value per occurrence, matched to its delegate by parse order (Requests()).
  auto add_repeatable = [&](const std::string& name, const std::string& description) {
    CLI::Option* option = command->add_option(dashes + name)->description(description);
    option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->type_size(1)
        ->allow_extra_args(false);
    return option;
  };
  delegate_ = add_repeatable(
      "delegate",
      "Delegate to apply (repeatable, in order): gpu, xnnpack, nnapi, add-sub, sin, ops=A,B, "
      "nodes=i,j, or a profile JSON file");
  max_partitions_ = add_repeatable("max-partitions", preceding + "keep the N largest partitions");
  min_nodes_ = add_repeatable("min-nodes-per-partition", preceding + "drop smaller partitions");
  no_greedy_ =
      command->add_flag(dashes + "no-greedy")->description(preceding + "non-greedy clustering");
  option_ = add_repeatable("delegate-option", preceding + "KEY=VALUE (e.g. allow_quant_ops=false)");
  accelerator_ =
      command->add_option(dashes + "accelerator")
          ->description(
              "LiteRT CompiledModel accelerators, applied NPU, then GPU, then CPU: npu:VENDOR "
              "(example, google_tensor, mediatek, qualcomm), gpu, cpu, comma-separated (e.g. "
              "npu:qualcomm,gpu); the NPU's op selection is transcribed from its compiler plugin");
}

std::vector<DelegateRequest> DelegateArgs::Requests() const {
  if (accelerator_->count() > 0) {
    if (delegate_->count() > 0) {
      throw CommandError{accelerator_->get_name() + " and " + delegate_->get_name() +
                         " cannot be combined: name the CPU and GPU in the accelerator list"};
    }
    auto requests = AcceleratorRequests(accelerator_->as<std::string>());
    if (!requests.ok()) throw CommandError{requests.status().message()};
    return std::move(requests).value();
  }
  std::vector<DelegateRequest> requests;
  std::map<const CLI::Option*, size_t> taken;
  auto next_value = [&](const CLI::Option* option) -> std::string {
    const auto& results = option->results();
    const size_t i = taken[option]++;
    return i < results.size() ? results[i] : std::string();
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
      throw CommandError{option->get_name() + " must follow the " + delegate_->get_name() +
                         " it applies to"};
    }
    DelegateRequest& current = requests.back();
    if (option == max_partitions_) {
      // Any int: upstream's GPU delegate turns N <= 0 into 1 itself.
      current.max_partitions = static_cast<int32_t>(
          IntegerFlagOrThrow(option->get_name(), next_value(option), INT32_MIN, INT32_MAX));
    } else if (option == min_nodes_) {
      current.min_nodes_per_partition = static_cast<int32_t>(
          IntegerFlagOrThrow(option->get_name(), next_value(option), 0, INT32_MAX));
    } else if (option == no_greedy_) {
      current.no_greedy = true;
    } else {
      const std::string kv = next_value(option);
      auto split = SplitKeyValue(kv);
      if (!split)
        throw CommandError{option->get_name() + ": expected KEY=VALUE, got \"" + kv + "\""};
      current.options.push_back(std::move(*split));
    }
  }
  return requests;
}

}  // namespace tfa::cli
