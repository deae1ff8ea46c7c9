// The external-delegate plugin ABI, in the spirit of TFLite's external delegate
// (tflite/delegates/external): a shared library exports two C functions, the host loads it with
// dlopen, passes the delegate's options as key/value strings and gets a delegate back.
//
// Upstream's plugins return a TfLiteDelegate*, a C struct. Ours return the runtime's C++
// Delegate, so a plugin must be built with the same compiler and the same runtime/delegate.h as
// the host (as the sample plugins are, from this tree). The delegate and every kernel it creates
// are allocated and freed inside the plugin; the host keeps the library loaded until the delegate
// is destroyed.
#ifndef RUNTIME_DELEGATES_PLUGIN_PLUGIN_ABI_H_
#define RUNTIME_DELEGATES_PLUGIN_PLUGIN_ABI_H_

#include <cstddef>

extern "C" {

// Called with a one-line message when creation fails; the string is valid during the call only.
using TfaPluginErrorReporter = void (*)(const char* message);

// Creates the plugin's delegate from `n` options (keys[i] = values[i]). Returns a
// tfa::runtime::Delegate*, or nullptr after calling `report_error` (which may be null).
using TfaPluginCreateDelegate = void* (*)(const char* const* keys, const char* const* values,
                                          size_t n, TfaPluginErrorReporter report_error);
// Destroys a delegate returned by the create function.
using TfaPluginDestroyDelegate = void (*)(void* delegate);

}  // extern "C"

namespace tfa::runtime {

inline constexpr char kPluginCreateSymbol[] = "tfa_plugin_create_delegate";
inline constexpr char kPluginDestroySymbol[] = "tfa_plugin_destroy_delegate";

}  // namespace tfa::runtime

#endif  // RUNTIME_DELEGATES_PLUGIN_PLUGIN_ABI_H_
