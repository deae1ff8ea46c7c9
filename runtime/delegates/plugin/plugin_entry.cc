// The external-delegate ABI (plugin_abi.h) for one registered delegate, chosen when the plugin is
// built (TFA_PLUGIN_DELEGATE_NAME): each sample delegate builds as its own plugin library.
#include <string>

#include "runtime/delegates/plugin/delegate_registry.h"
#include "runtime/delegates/plugin/plugin_abi.h"

extern "C" {

__attribute__((visibility("default"))) void* tfa_plugin_create_delegate(
    const char* const* keys, const char* const* values, size_t n,
    TfaPluginErrorReporter report_error) {
  using tfa::runtime::FindRegisteredDelegate;
  auto report = [&](const std::string& message) {
    if (report_error) report_error(message.c_str());
  };
  const auto* registered = FindRegisteredDelegate(TFA_PLUGIN_DELEGATE_NAME);
  if (!registered) {
    report(std::string("no delegate named ") + TFA_PLUGIN_DELEGATE_NAME);
    return nullptr;
  }
  tfa::runtime::DelegateOptions options;
  for (size_t i = 0; i < n; ++i) {
    if (!keys[i] || !values[i]) {
      report("option " + std::to_string(i) + " has a null key or value");
      return nullptr;
    }
    options.emplace_back(keys[i], values[i]);
  }
  auto delegate = registered->create(options);
  if (!delegate.ok()) {
    report(delegate.status().message());
    return nullptr;
  }
  return delegate->release();
}

__attribute__((visibility("default"))) void tfa_plugin_destroy_delegate(void* delegate) {
  delete static_cast<tfa::runtime::Delegate*>(delegate);
}

}  // extern "C"
