// What the terminal gets: colours only when stdout is a terminal and NO_COLOR (no-color.org) is
// unset or empty, so pipes, files and CI logs get plain text; a progress bar on stderr only when
// stderr is a terminal and the work takes more than a moment.
#ifndef CLI_TERMINAL_H_
#define CLI_TERMINAL_H_

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace tfa::cli {

class Style {
 public:
  // Colours when stdout is a terminal and NO_COLOR is unset or empty.
  static Style ForStdout();
  explicit Style(bool colour) : colour_(colour) {}

  std::string Bold(const std::string& text) const { return Wrap("1", text); }
  std::string Red(const std::string& text) const { return Wrap("31", text); }
  std::string Green(const std::string& text) const { return Wrap("32", text); }
  std::string Yellow(const std::string& text) const { return Wrap("33", text); }
  bool colour() const { return colour_; }

 private:
  std::string Wrap(const char* code, const std::string& text) const;
  bool colour_;
};

// "[=====>    ] 5/11 models" redrawn in place on stderr. Silent when stderr is not a terminal
// and until `kDelay` has passed, so quick runs print nothing; the line is erased when done.
class ProgressBar {
 public:
  ProgressBar(std::string label, size_t total);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void Advance();  // thread-safe

 private:
  static constexpr std::chrono::milliseconds kDelay{400};
  void Draw();

  std::mutex mutex_;
  std::string label_;
  size_t total_;
  size_t done_ = 0;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace tfa::cli

#endif  // CLI_TERMINAL_H_
