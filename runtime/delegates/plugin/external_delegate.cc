#include "runtime/delegates/plugin/external_delegate.h"

#include <dlfcn.h>

#include <vector>

#include "runtime/delegates/plugin/plugin_abi.h"

namespace tfa::runtime {
namespace {

// The plugin reports errors through a plain function pointer, which cannot carry state: the
// message lands here, one per thread, read right after the create call returns.
thread_local std::string plugin_error;

void RecordPluginError(const char* message) { plugin_error = message ? message : ""; }

struct LibraryCloser {
  void operator()(void* handle) const { dlclose(handle); }
};
using LibraryHandle = std::unique_ptr<void, LibraryCloser>;

// Forwards to the plugin's delegate; destroys it through the plugin, then closes the library.
class ExternalDelegate : public Delegate {
 public:
  ExternalDelegate(LibraryHandle library, Delegate* delegate, TfaPluginDestroyDelegate destroy)
      : library_(std::move(library)), delegate_(delegate), destroy_(destroy) {}
  ~ExternalDelegate() override { destroy_(delegate_); }

  const DelegateProfile& Profile() const override { return delegate_->Profile(); }
  Result<std::unique_ptr<DelegateKernel>> CreateKernel(
      const DelegatePartition& partition) override {
    return delegate_->CreateKernel(partition);
  }

 private:
  LibraryHandle library_;  // declared first: closed last
  Delegate* delegate_;
  TfaPluginDestroyDelegate destroy_;
};

}  // namespace

Result<std::unique_ptr<Delegate>> LoadExternalDelegate(const std::string& path,
                                                       const DelegateOptions& options) {
  const std::string context = "external delegate " + path;
  LibraryHandle library(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!library) {
    const char* reason = dlerror();
    return Status::Error(context + ": " + (reason ? reason : "cannot open"));
  }
  auto create =
      reinterpret_cast<TfaPluginCreateDelegate>(dlsym(library.get(), kPluginCreateSymbol));
  auto destroy =
      reinterpret_cast<TfaPluginDestroyDelegate>(dlsym(library.get(), kPluginDestroySymbol));
  if (!create || !destroy) {
    return Status::Error(context + ": does not export " +
                         (create ? kPluginDestroySymbol : kPluginCreateSymbol));
  }
  std::vector<const char*> keys, values;
  for (const auto& [key, value] : options) {
    keys.push_back(key.c_str());
    values.push_back(value.c_str());
  }
  plugin_error.clear();
  void* delegate = create(keys.data(), values.data(), keys.size(), &RecordPluginError);
  if (!delegate) {
    return Status::Error(context + ": " +
                         (plugin_error.empty() ? "the plugin created no delegate" : plugin_error));
  }
  return std::unique_ptr<Delegate>(std::make_unique<ExternalDelegate>(
      std::move(library), static_cast<Delegate*>(delegate), destroy));
}

}  // namespace tfa::runtime
