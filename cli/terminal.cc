#include "cli/terminal.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tfa::cli {

Style Style::ForStdout() {
  const char* no_color = std::getenv("NO_COLOR");
  const bool disabled = no_color != nullptr && no_color[0] != '\0';
  return Style(!disabled && isatty(STDOUT_FILENO) == 1);
}

std::string Style::Wrap(const char* code, const std::string& text) const {
  if (!colour_) return text;
  return std::string("\x1b[") + code + "m" + text + "\x1b[0m";
}

ProgressBar::ProgressBar(std::string label, size_t total)
    : label_(std::move(label)), total_(total), enabled_(isatty(STDERR_FILENO) == 1 && total > 1) {}

ProgressBar::~ProgressBar() {
  if (!drawn_) return;
  std::fputs("\r\x1b[2K", stderr);
  std::fflush(stderr);
}

void ProgressBar::Advance() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (!enabled_ || std::chrono::steady_clock::now() - start_ < kDelay) return;
  Draw();
}

void ProgressBar::Draw() {
  constexpr size_t kWidth = 30;
  const size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
  std::string bar(filled, '=');
  if (filled < kWidth) bar += '>';
  bar.resize(kWidth, ' ');
  std::fprintf(stderr, "\r[%s] %zu/%zu %s", bar.c_str(), done_, total_, label_.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace tfa::cli
