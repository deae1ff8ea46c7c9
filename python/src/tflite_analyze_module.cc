// The native half of the Python package: one function that runs a tflite-analyze command in
// process and returns its exit code, standard output and error line. The Python half
// (python/tflite_analyze) builds typed results from the commands' JSON, so `analyze()` is
// `report --json` by construction and the two can never disagree.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/command_line.h"

namespace {

// Points std::cout and std::cerr at buffers for one command. The GIL is held throughout, so no
// other Python thread can run a command into the same buffers.
class CapturedStreams {
 public:
  CapturedStreams()
      : old_out_(std::cout.rdbuf(out_.rdbuf())), old_err_(std::cerr.rdbuf(err_.rdbuf())) {}
  ~CapturedStreams() {
    std::cout.rdbuf(old_out_);
    std::cerr.rdbuf(old_err_);
  }
  CapturedStreams(const CapturedStreams&) = delete;
  CapturedStreams& operator=(const CapturedStreams&) = delete;

  std::string Out() const { return out_.str(); }
  std::string Err() const { return err_.str(); }

 private:
  std::ostringstream out_;
  std::ostringstream err_;
  std::streambuf* old_out_;
  std::streambuf* old_err_;
};

std::tuple<int, pybind11::bytes, std::string> Invoke(const std::vector<std::string>& args) {
  CapturedStreams streams;
  const int exit_code = tfa::cli::RunCommandLine(args);
  std::cout.flush();
  return {exit_code, pybind11::bytes(streams.Out()), streams.Err()};
}

}  // namespace

PYBIND11_MODULE(_tflite_analyze, module) {
  module.doc() = "tflite-analyze's command line, run in process (see tflite_analyze)";
  module.def("invoke", &Invoke, pybind11::arg("args"),
             "Runs `tflite-analyze ARGS...`; returns (exit code, stdout bytes, stderr text)");
  module.attr("__version__") = TFA_VERSION;
}
