#include "libanalysis/core/mapped_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "libanalysis/core/parallel_map.h"

namespace tfa {
namespace {

// How far a reader goes between two give-backs, and how much it keeps behind it (nlohmann's
// lexer never reads back, but a few pages cost nothing).
constexpr std::ptrdiff_t kGiveBackStep = 8 << 20;
constexpr std::ptrdiff_t kKeptBehind = 1 << 20;

uintptr_t PageSize() {
  static const auto size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

// Applies madvise `advice` to the whole pages in [begin, end). A failure only leaves the pages as
// they were.
void AdviseWholePages(const void* begin, const void* end, int advice) {
  const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + PageSize() - 1) & ~(PageSize() - 1);
  const uintptr_t last = reinterpret_cast<uintptr_t>(end) & ~(PageSize() - 1);
  if (last <= first) return;
  madvise(reinterpret_cast<void*>(first), last - first, advice);
}

void GiveBack(const char* begin, const char* end) { AdviseWholePages(begin, end, MADV_DONTNEED); }

// Where a reader at `position` gives back next: a step on, or the end of the mapping.
const char* NextGiveBack(const char* position, const char* end) {
  return position + std::min(kGiveBackStep, end - position);
}

}  // namespace

void GiveBackMappedPages(std::string_view text) {
  GiveBack(text.data(), text.data() + text.size());
}

void ReadEveryPage(std::string_view text) {
  const auto page = static_cast<size_t>(PageSize());
  for (size_t at = 0; at < text.size(); at += page) {
    static_cast<void>(*static_cast<const volatile char*>(text.data() + at));
  }
}

void PrefaultPages(const std::vector<PageRange>& ranges) {
  constexpr size_t kSlice = 8 << 20;
  std::vector<PageRange> slices;
  for (const PageRange& r : ranges) {
    for (size_t at = 0; at < r.bytes; at += kSlice) {
      slices.push_back({static_cast<char*>(r.begin) + at, std::min(kSlice, r.bytes - at)});
    }
  }
  ParallelMap(slices.size(), [&](size_t i) {
    const auto* begin = static_cast<const char*>(slices[i].begin);
    AdviseWholePages(begin, begin + slices[i].bytes, MADV_POPULATE_WRITE);
    return true;
  });
}

PageReleasingIterator::PageReleasingIterator(std::string_view mapping, size_t offset,
                                             bool give_back)
    : CharIterator(mapping.data() + offset),
      end_(mapping.data() + mapping.size()),
      given_back_(mapping.data()) {
  if (give_back) next_give_back_ = NextGiveBack(position_, end_);
}

void PageReleasingIterator::GiveBackPassedPages() {
  if (position_ - given_back_ > kKeptBehind) {
    const char* keep_from = position_ - kKeptBehind;
    GiveBack(given_back_, keep_from);
    given_back_ =
        reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(keep_from) & ~(PageSize() - 1));
  }
  next_give_back_ = NextGiveBack(position_, end_);
}

}  // namespace tfa
