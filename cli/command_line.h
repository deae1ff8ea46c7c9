// The tflite-analyze command line as a function: the executable and the Python package
// (python/) run the same commands, with the same messages and exit codes.
#ifndef CLI_COMMAND_LINE_H_
#define CLI_COMMAND_LINE_H_

#include <string>
#include <vector>

namespace tfa::cli {

// Parses `args` (the words after the program name) and runs the command they name. Returns the
// exit code (cli/command.h); the command writes to std::cout, and an error is one line on
// std::cerr, "tflite-analyze: error: MESSAGE".
int RunCommandLine(const std::vector<std::string>& args);

}  // namespace tfa::cli

#endif  // CLI_COMMAND_LINE_H_
