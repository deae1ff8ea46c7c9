// Builtin operator codes (the .tflite BuiltinOperator enum) and upstream's names for them.
#ifndef LIBANALYSIS_MODEL_BUILTIN_OPS_H_
#define LIBANALYSIS_MODEL_BUILTIN_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfa {

inline constexpr int32_t kBuiltinCustom = 32;
// Codes at or above this value are stored in OperatorCode.builtin_code only.
inline constexpr int32_t kBuiltinPlaceholderForGreaterOpCodes = 127;

// "CONV_2D" for 3; nullptr for codes this build does not know.
const char* BuiltinName(int32_t code);
// The code of a builtin name; nullopt for unknown names and for "CUSTOM".
std::optional<int32_t> BuiltinCodeFromName(std::string_view name);
int32_t BuiltinCodeCount();
// Every builtin name BuiltinCodeFromName knows, in code order.
std::vector<std::string_view> BuiltinOpNames();
// "unknown builtin op 'CONV2D' (did you mean CONV_2D?)": how every reader of op names refuses one.
std::string UnknownBuiltinOpMessage(std::string_view name);

}  // namespace tfa

#endif  // LIBANALYSIS_MODEL_BUILTIN_OPS_H_
